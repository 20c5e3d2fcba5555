"""Rule-based placement in one room: what stands on its floor and what floor must stay free.

A :class:`Space` holds the room's *solid* rectangles (the plan of each piece placed) and its *clear*
ones (floor the robot needs: before every doorway, before every piece's front, round a free-standing
piece). A piece fits where its plan lies in the room and meets neither, and the floor it asks for lies
in the room and meets no solid. Against a wall a piece asks for floor ``reach`` deep before its front
and ``sides`` beyond its ends (a door hinged at an end swings its handle out there); free-standing, a
ring ``around`` wide. Candidate spots are tried in a seeded order (or nearest a wished point first).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from housebench.house.geometry import FACING, Frame
from housebench.house.plan import Room
from housebench.house.program import Unplaceable
from housebench.house.split import Door
from housebench.io import r6

Rect = tuple[float, float, float, float]
STEP = 0.05  # m between candidate spots along a wall
FRONT_GAP = 0.1  # m: a front's floor starts this far out (handles, a deeper neighbour's front)
DOORWAY = 0.9  # m of floor kept free before each doorway, and ...
DOOR_SIDE = 0.25  # ... this much beyond its jambs
REACH = 1.0  # m of floor before a front, by default
STAND = 0.9  # m of floor before an open drawer's handle: the nearest stance (0.45) and the base (0.29) and more
SIDES = (0.7, 0.7)  # m of floor beyond the ends of a piece with hinged doors


def _meets(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] - 1e-6 and b[0] < a[2] - 1e-6 and a[1] < b[3] - 1e-6 and b[1] < a[3] - 1e-6


def local_rect(f: Frame, u: tuple[float, float], v: tuple[float, float]) -> Rect:
    """The plan of local ``u x v`` of frame ``f``."""
    b = f.box("_", (u[0], v[0], 0.0), (u[1], v[1], 1.0)).bounds
    return b[0], b[1], b[3], b[4]


def wall_length(room: Room, side: str) -> float:
    return room.x1 - room.x0 if side in "NS" else room.y1 - room.y0


def lo_is_left(side: str) -> bool:
    """Whether the end of wall ``side`` nearest the room's lower-left corner is a piece's left (local -u)."""
    return side in "SE"


@dataclass
class Space:
    room: Room
    solid: list[Rect] = field(default_factory=list)
    clear: list[Rect] = field(default_factory=list)

    def inside(self, r: Rect) -> bool:
        x0, y0, x1, y1 = self.room.x0, self.room.y0, self.room.x1, self.room.y1
        return x0 - 1e-6 <= r[0] and y0 - 1e-6 <= r[1] and r[2] <= x1 + 1e-6 and r[3] <= y1 + 1e-6

    def fits(self, plan: list[Rect], floor: list[Rect]) -> bool:
        return all(self.inside(r) and not any(_meets(r, o) for o in self.solid + self.clear) for r in plan) and all(
            self.inside(r) and not any(_meets(r, o) for o in self.solid) for r in floor
        )

    def take(self, plan: list[Rect], floor: list[Rect]) -> None:
        self.solid += plan
        self.clear += floor


def doorway_floor(space: Space, doors: list[Door], width: float) -> None:
    """Keep the floor before each doorway of the room free."""
    r = space.room
    for d in (d for d in doors if r.name in d.rooms):
        lo, hi = d.centre - width / 2 - DOOR_SIDE, d.centre + width / 2 + DOOR_SIDE
        if d.axis == "x":
            x0, x1 = (r.x1 - DOORWAY, r.x1) if abs(r.x1 - d.at) < abs(r.x0 - d.at) else (r.x0, r.x0 + DOORWAY)
            space.clear.append((x0, lo, x1, hi))
        else:
            y0, y1 = (r.y1 - DOORWAY, r.y1) if abs(r.y1 - d.at) < abs(r.y0 - d.at) else (r.y0, r.y0 + DOORWAY)
            space.clear.append((lo, y0, hi, y1))


def drawn(depth: float, parts: dict[str, Any]) -> float:
    """The floor before the front of drawers ``depth`` deep (the cabinet's): their travel out, then a stance."""
    return STAND + parts["drawer_travel"] * (depth - 0.06)


def wall_piece(
    f: Frame, width: float, depth: float, reach: float, sides: tuple[float, float], ahead: float = 0.0
) -> tuple[list[Rect], list[Rect]]:
    """The plan of a piece ``width`` x ``depth`` behind frame ``f`` (and ``ahead`` of it: a coffee table
    before a sofa) and the floor it asks for."""
    u = (-width / 2, width / 2)
    plan = local_rect(f, u, (-ahead, depth))
    floor = local_rect(f, (u[0] - sides[0], u[1] + sides[1]), (-ahead - reach, -ahead - FRONT_GAP))
    return [plan], [floor]


def wall_spots(
    space: Space, width: float, depth: float, rng: np.random.Generator, walls: str = "NESW", near=None
) -> Iterator[Frame]:
    """Frames for a piece ``width`` wide and ``depth`` deep with its back on one of ``walls``: seeded
    order, or nearest the point ``near`` first."""
    spots = []
    for side in walls:
        length = wall_length(space.room, side)
        for at in np.arange(width / 2, length - width / 2 + 1e-9, STEP):
            spots.append(space.room.against(side, r6(at), depth))
    if near is None:
        order = rng.permutation(len(spots))
    else:
        key = [np.hypot(f.x - near[0], f.y - near[1]) + rng.uniform(0, 0.05) for f in spots]
        order = np.argsort(key, kind="stable")
    return (spots[i] for i in order)


def put_on_wall(
    space: Space,
    name: str,
    width: float,
    depth: float,
    rng: np.random.Generator,
    reach: float = REACH,
    sides: tuple[float, float] = (0.2, 0.2),
    ahead: float = 0.0,
    walls: str = "NESW",
    near=None,
) -> Frame:
    """The frame of a piece against a wall where it fits (its plan and floor taken), else :class:`Unplaceable`."""
    for f in wall_spots(space, width, depth, rng, walls, near):
        plan, floor = wall_piece(f, width, depth, reach, sides, ahead)
        if space.fits(plan, floor):
            space.take(plan, floor)
            return f
    raise Unplaceable(f"{space.room.name}: no wall for {name} ({width:.2f} x {depth:.2f} m)")


def put_free(
    space: Space,
    name: str,
    width: float,
    depth: float,
    around: float,
    rng: np.random.Generator,
    front: float = 0.0,
) -> Frame:
    """The frame of a free-standing piece with floor ``around`` it on every side (``front`` before its front if
    more), nearest the room's middle (seeded jitter), facing a seeded way."""
    r = space.room
    facing = str(rng.choice(list(FACING)))
    cx, cy = (r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2
    xs = np.arange(r.x0 + around, r.x1 - around + 1e-9, STEP)
    ys = np.arange(r.y0 + around, r.y1 - around + 1e-9, STEP)
    points = [(x, y) for x in xs for y in ys]
    key = [np.hypot(x - cx, y - cy) + rng.uniform(0, 0.4) for x, y in points]
    fx, fy = FACING[facing]
    for i in np.argsort(key, kind="stable"):
        x, y = points[i]
        f = Frame(r6(x + fx * depth / 2), r6(y + fy * depth / 2), facing)
        plan = local_rect(f, (-width / 2, width / 2), (0.0, depth))
        ring = local_rect(f, (-width / 2 - around, width / 2 + around), (-max(front, around), depth + around))
        if space.fits([plan], [ring]):
            space.take([plan], [ring])
            return f
    raise Unplaceable(f"{space.room.name}: no floor for {name} ({width:.2f} x {depth:.2f} m, {around} m round)")


def open_spot(space: Space, keep: float) -> tuple[float, float] | None:
    """The point nearest the room's middle at least ``keep`` from its walls and from every solid."""
    r = space.room
    cx, cy = (r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2
    best = None
    for x in np.arange(r.x0 + keep, r.x1 - keep + 1e-9, STEP):
        for y in np.arange(r.y0 + keep, r.y1 - keep + 1e-9, STEP):
            far = all(np.hypot(max(s[0] - x, 0, x - s[2]), max(s[1] - y, 0, y - s[3])) >= keep for s in space.solid)
            if far and (best is None or np.hypot(x - cx, y - cy) < np.hypot(best[0] - cx, best[1] - cy)):
                best = (r6(x), r6(y))
    return best
