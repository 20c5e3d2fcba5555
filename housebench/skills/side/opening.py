"""The opening a level hand enters through: when the ceiling is too low for a top-down pick (:func:`low_ceiling`,
:func:`side_pick`), the open edges of a support (:func:`open_edges`), the span no open door blocks
(:func:`free_opening`), whether the hand passes the walled sides (:func:`passes_sides`), the way back out
(:func:`back_offset`) and the stances facing an edge (:func:`edge_stances`)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator

import numpy as np

from housebench.annotations.schema import AssetAnnotation, HouseAnnotations, Support
from housebench.skills.base import SkillContext
from housebench.skills.edge import Edge, edges
from housebench.skills.grasp import FINGER_HALF
from housebench.skills.tuning import tuning
from housebench.skills.view import support_of
from housebench.state import ObjectState, Observation
from housebench.tasks.geometry import rotation


def back_off() -> float:
    """The shortest way back to the pre-pose, m."""
    ts = tuning().side
    return ts.palm_back_m + FINGER_HALF + ts.out_m


def low_ceiling(support: Support, height: float) -> bool:
    """Whether the free height over ``support`` is too low for a top-down pick or place of an item
    ``height`` tall (the hand enters from the side instead)."""
    ts = tuning().side
    return support.clearance is not None and support.clearance < height + ts.hand_room_m


def side_pick(ctx: SkillContext, obs: Observation, obj: str, supports: list[Support]) -> bool:
    """Whether to pick ``obj`` from the side: it rests under a ceiling too low for a top-down pick, or
    every support it may go to has one (a place from the side needs the level hand)."""
    height = ctx.scene.objects[obj].asset.size[2]
    under = support_of(ctx, obs, obj)
    if under is not None and low_ceiling(under, height):
        return True
    return bool(supports) and all(low_ceiling(s, height) for s in supports)


def open_edges(house: HouseAnnotations, support: Support) -> list[Edge]:
    """The edges of ``support`` no wall covers (over most of their span, from just above the surface to
    just under the ceiling); the articulated parts (an appliance's door) are no walls."""
    ts = tuning().side
    if support.clearance is None:
        return edges(support)
    parts = tuple(p.name + "/" for p in house.articulated)
    walls = [o.box for o in house.obstacles if not o.name.startswith(parts)]
    lo, hi = support.height + ts.wall_band_m, support.height + support.clearance - ts.wall_band_m
    return [e for e in edges(support) if not any(_walls_off(e, b, lo, hi) for b in walls)]


def _walls_off(edge: Edge, box, lo: float, hi: float) -> bool:
    ts = tuning().side
    if box[2] > lo or box[5] < hi:
        return False
    nx, ny = edge.normal
    axis, sign = (0, nx) if nx else (1, ny)
    near, far = sorted((sign * box[axis], sign * box[axis + 3]))
    if far < edge.coord - ts.wall_inside_m or near > edge.coord + ts.wall_outside_m:
        return False
    t = 1 - axis
    a0, a1 = edge.support.box[t], edge.support.box[t + 2]
    return min(a1, box[t + 3]) - max(a0, box[t]) >= 0.5 * (a1 - a0)


def straight_yaw(edge: Edge) -> float:
    """The yaw of an approach straight in through ``edge`` (against its outward normal)."""
    return math.atan2(-edge.normal[1], -edge.normal[0])


def footprint_corners(asset: AssetAnnotation, pose: ObjectState) -> np.ndarray:
    """The four corners of ``pose``'s footprint (world x, y)."""
    sx, sy = asset.size[:2]
    rot = rotation(pose.quat)[:2, :2]
    return np.array([[x, y] for x in (-sx / 2, sx / 2) for y in (-sy / 2, sy / 2)]) @ rot.T + np.asarray(pose.pos[:2])


def yaw_of(pose: ObjectState) -> float:
    """The world yaw of ``pose`` (its x axis)."""
    rot = rotation(pose.quat)
    return math.atan2(rot[1, 0], rot[0, 0])


def back_offset(edge: Edge, pad: np.ndarray, yaw: float, ahead: float, ceiling: bool) -> np.ndarray:
    """The offset from ``pad`` straight back along the approach ``yaw`` to the pre-pose: under a
    ``ceiling``, where the fingertips and whatever reaches ``ahead`` of the pad are ``out_m`` outside
    ``edge``; on an open top, the shortest way back (:func:`back_off`) (the fingertips clear of what they take)."""
    ts = tuning().side
    a = np.array([math.cos(yaw), math.sin(yaw)])
    dist = back_off()
    if ceiling:
        cos = max(float(-a @ np.array(edge.normal)), ts.min_cos)
        inside = edge.coord - float(pad[:2] @ np.array(edge.normal))
        dist = max(dist, (inside + max(ahead, FINGER_HALF) * cos + ts.out_m) / cos)
    return np.array([*(-a * dist), 0.0])


def passes_sides(edge: Edge, open_: list[Edge], pad: np.ndarray, yaw: float) -> bool:
    """Whether the level hand in along ``yaw`` to ``pad`` keeps ``hand_half_m`` (across its way, widened by the
    skew) inside the support's walled sides from ``edge`` to the pad: skewed towards a side wall, the gripper
    passes the edge nearer the wall than the pad does, so the hand's half width, widened by the skew, must clear
    the wall both at the pad and where the way in crosses the edge (else the gripper meets the wall's front)."""
    ts = tuning().side
    n = np.array(edge.normal)
    t = np.array([-n[1], n[0]])
    a = np.array([math.cos(yaw), math.sin(yaw)])
    cos = float(-a @ n)
    if cos <= ts.square_cos:
        return False
    cross = pad[:2] - a * max(0.0, edge.coord - float(pad[:2] @ n)) / cos
    half = ts.hand_half_m / cos
    opened = {e.normal for e in open_}
    sides = [e for e in edges(edge.support) if e.normal not in opened and abs(float(np.array(e.normal) @ t)) > 0.5]
    return all(float(np.array(e.normal) @ p) + half <= e.coord for e in sides for p in (pad[:2], cross))


def edge_stances(edge: Edge, at: np.ndarray, ahead: float = 0.0) -> Iterator[tuple[float, float, float]]:
    """Base poses facing ``edge``, square to ``at`` first (the forearm follows the hand in straight), far
    enough out that what the carried hand holds ``ahead`` of it clears the edge on the way there; then,
    nearest ``at`` first, the finer poses beside it (an open door stands in front of a fridge's hinge
    half), all within ``reach_m`` of ``at``."""
    ts = tuning().side
    dists = tuple(d for d in ts.stand_m if d >= tuning().pick.carry[0] + ahead + ts.out_m) or ts.stand_m[-1:]
    square = (pose for shift in ts.shifts_m for pose in edge.stances(at, dists, (shift,)))
    near = sorted(edge.stances(at, ts.near_stand_m, ts.near_shifts_m), key=lambda pose: math.dist(pose[:2], at[:2]))
    return (pose for pose in itertools.chain(square, near) if math.dist(pose[:2], at[:2]) <= ts.reach_m)


def free_opening(edge: Edge, boxes, lo: float, hi: float) -> Support:
    """The edge's support narrowed along the edge to the widest span that no box just outside the edge
    (``pass_m`` deep, between heights ``lo`` and ``hi``) blocks: an open door that swung past square."""
    ts = tuning().side
    axis, sign = (0, edge.normal[0]) if edge.normal[0] else (1, edge.normal[1])
    t = 1 - axis
    box = list(edge.support.box)
    blocked = sorted(
        (b[t], b[t + 3])
        for b in boxes
        if b[2] < hi
        and b[5] > lo
        and max(sign * b[axis], sign * b[axis + 3]) > edge.coord
        and min(sign * b[axis], sign * b[axis + 3]) < edge.coord + ts.pass_m
    )
    spans, start = [], box[t]
    for b0, b1 in blocked:
        spans.append((start, min(b0, box[t + 2])))
        start = max(start, b1)
    spans.append((start, box[t + 2]))
    box[t], box[t + 2] = max(spans, key=lambda span: span[1] - span[0])
    return edge.support.model_copy(update={"box": tuple(box)})


def ceiling_z(support: Support) -> float:
    ts = tuning().side
    return math.inf if support.clearance is None else support.height + support.clearance - ts.room_m
