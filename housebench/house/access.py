"""The access tests of a house, as reasons: a house with none is good, a house with any is listed with them.

- every room reachable: some free floor of it connected to the robot's start (:meth:`HouseQuery.reachable_rooms`);
- every handle reachable (:func:`~housebench.house.reach.base_pose`), closed and, for doors and drawers, opened
  with the open part in the way (:func:`opened`);
- every open appliance door can be pushed shut from its outer side (:func:`push_stance`);
- every surface the tasks name has a reachable spot (unless above the robot's reach);
- no two bodies overlap (:func:`~housebench.house.layout.body_overlaps`);
- every piece, surface, part and appliance the tasks name is there (:class:`Needs`, from the task specs by
  :func:`housebench.tasks.needs.house_needs`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from housebench.annotations.schema import ArticulatedPart, HouseAnnotations, Obstacle, Support
from housebench.house.annotate import house_annotations
from housebench.house.layout import House, body_overlaps
from housebench.house.parts import Part
from housebench.house.query import HouseQuery, _rotate
from housebench.house.reach import base_pose
from housebench.house.stance import stance_free

PUSH_RINGS = np.linspace(0.45, 0.75, 7)  # m from the pushed point
DOOR_CLEAR = 0.36  # m the base centre keeps from an open door (the skills' ``BASE_CLEAR``)
OUTER_SIDE = 0.1  # m a push stance stands out on the outer side of the face (the skills' ``PUSH_SIDE``)
SPOTS = 5  # a surface is tried at SPOTS x SPOTS points
ABOVE = 0.05  # m above a surface the hand works


@dataclass(frozen=True)
class Needs:
    """What the tasks name in the house: supports (a support's name or its owner's: a piece, or a room for its
    floor), articulated parts (a part's name or its owner's) and appliances."""

    supports: frozenset[str] = frozenset()
    parts: frozenset[str] = frozenset()
    appliances: frozenset[str] = frozenset()


def opened(part: Part, house: HouseAnnotations) -> HouseAnnotations:
    """The house with ``part`` at its open value: its boxes' bounds where they swung or slid to."""
    axis, pivot = np.array(part.axis), np.array(part.pivot)
    moved = []
    for b in part.boxes:
        corners = np.array(np.meshgrid(*np.reshape(b.bounds, (2, 3)).T)).reshape(3, -1).T
        if part.kind == "prismatic":
            corners = corners + axis * part.open
        else:
            corners = np.array([pivot + _rotate(c - pivot, axis, part.open) for c in corners])
        moved.append(Obstacle(name=b.name, box=(*corners.min(axis=0), *corners.max(axis=0))))
    kept = [o for o in house.obstacles if not o.name.startswith(f"{part.name}/")]
    return house.model_copy(update={"obstacles": kept + moved})


def _segment_distance(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    t = np.clip(np.dot(p - a, b - a) / np.dot(b - a, b - a), 0.0, 1.0)
    return float(np.linalg.norm(p - (a + t * (b - a))))


def push_stance(part: ArticulatedPart, ann: HouseAnnotations, query: HouseQuery) -> bool:
    """Whether some stance on the outer side of the open door, clear of it and free by the skills' footprint
    (:func:`~housebench.house.stance.stance_free`), in the door's room, has the point near its free edge in
    reach (closing pushes the open door's outer face there)."""
    axis, pivot = np.array(part.axis), np.array(part.pivot)
    centre, normal = np.array(part.handle.center), np.array(part.handle.normal)
    out = centre - pivot - axis * np.dot(centre - pivot, axis)
    out = out - normal * np.dot(out, normal)  # from the hinge to the handle, along the face
    turn = part.open - part.closed
    point = pivot + _rotate(out + normal * 0.01, axis, turn)
    point[2] = centre[2]
    facing = _rotate(normal, axis, turn)[:2]
    edge = (pivot + _rotate(out * 1.15, axis, turn))[:2]
    boxes = [o.box for o in ann.obstacles if not o.name.startswith(f"{part.name}/")]
    band, room = ann.robot.reach_at(point[2]), query.room_at(*point[:2])
    return any(
        stance_free(pose, boxes)
        and band.min <= d <= band.max
        and np.dot(np.array(pose[:2]) - point[:2], facing) > OUTER_SIDE
        and _segment_distance(np.array(pose[:2]), pivot[:2], edge) >= DOOR_CLEAR
        and query.room_at(pose[0], pose[1]) == room
        for d in PUSH_RINGS
        for a in np.linspace(0, 2 * math.pi, 48, endpoint=False)
        if (pose := (point[0] + d * math.cos(a), point[1] + d * math.sin(a), a + math.pi))
    )


def surface_reachable(s: Support, query: HouseQuery) -> bool:
    """Whether some spot of surface ``s`` (a grid of points over it) has a base pose; a surface above the
    robot's reach counts as reachable (nothing is asked of it)."""
    if query.house.robot.reach_at(s.height + ABOVE) is None:
        return True
    xs, ys = np.linspace(s.box[0], s.box[2], SPOTS), np.linspace(s.box[1], s.box[3], SPOTS)
    return any(base_pose((x, y, s.height + ABOVE), query, s.owner) for x in xs for y in ys)


def missing(ann: HouseAnnotations, needs: Needs) -> list[str]:
    """What the tasks name that the house lacks."""
    supports = {s.name for s in ann.supports} | {s.owner for s in ann.supports}
    parts = {p.name for p in ann.articulated} | {p.owner for p in ann.articulated}
    appliances = {a.name for a in ann.appliances}
    return [
        *(f"no support or piece '{r}'" for r in sorted(needs.supports - supports)),
        *(f"no part '{r}'" for r in sorted(needs.parts - parts)),
        *(f"no appliance '{r}'" for r in sorted(needs.appliances - appliances)),
    ]


def check_house(house: House, needs: Needs = Needs(), skip: frozenset[str] = frozenset()) -> list[str]:
    """Why ``house`` fails the access tests (empty: it passes); ``skip``: parts whose opened handle is known to be
    out of reach (today's house: a door hinged at a corner)."""
    ann = house_annotations(house)
    query = HouseQuery(ann)
    reasons = missing(ann, needs)
    rooms = {r.name for r in ann.rooms}
    reasons += [f"room {r} unreachable" for r in sorted(rooms - query.reachable_rooms())]
    reasons += [f"overlap {a} ~ {b} ({d:.3f} m)" for a, b, d in body_overlaps(house)]
    reasons += [f"handle {p.name} unreachable" for p in ann.articulated if base_pose(p.handle.center, query) is None]
    for part in (p for p in house.parts if p.category in ("door", "drawer") and p.name not in skip):
        open_query = HouseQuery(opened(part, ann))
        handle, _, _ = open_query.handle_pose(part.name, part.open)
        if base_pose(tuple(handle), open_query) is None:
            reasons.append(f"handle {part.name} unreachable when open")
    doors = {a.door for a in ann.appliances}
    reasons += [
        f"door {p.name} cannot be pushed shut"
        for p in ann.articulated
        if p.name in doors and not push_stance(p, ann, query)
    ]
    named = [s for s in ann.supports if s.name in needs.supports or s.owner in needs.supports]
    reasons += [f"surface {s.name} unreachable" for s in named if not surface_reachable(s, query)]
    return reasons
