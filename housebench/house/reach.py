"""A base pose from which the robot can take a point, from the house annotations alone.

A pose qualifies when the point's horizontal distance lies in the robot's reach band for the
point's height (``house.robot.reach``), the base faces the point, the footprint (base disc and
turned column, :mod:`.floor`) touches no obstacle, the pose is in the point's room, the arm's line
to the point is clear (the straight segment from the base, and so from the shoulder above it, to the
point meets no box that spans the point's height), and the base can get there: a straight drive back
out along its heading, every pose of it free, meets the free floor connected to the robot's start.
Distances nearest the middle of the band are tried first.
"""

from __future__ import annotations

import math

import numpy as np

from housebench.house.query import HouseQuery

HEADINGS = 24  # directions around the point
APPROACH = 1.0  # longest straight drive from the connected free floor to the pose, metres


def _approachable(query: HouseQuery, x: float, y: float, angle: float, yaw: float) -> bool:
    steps = np.arange(0.0, APPROACH + 1e-9, query.resolution)
    xs, ys = x + steps * math.cos(angle), y + steps * math.sin(angle)
    fits = query.obstacles.fits(xs, ys, np.full_like(xs, yaw))
    for px, py, ok in zip(xs, ys, fits):
        if not ok:
            return False
        if query.grid.lookup(query.reachable_floor, px, py):
            return True
    return False


def sight_boxes(target: tuple[float, float, float], query: HouseQuery, owner: str | None) -> np.ndarray:
    """The boxes that block an arm's line to ``target``: those spanning its height, but any that holds
    the point (the handle it is) and the doors and drawers of ``owner`` (opened before reaching in)."""
    x, y, z = target
    b = query.boxes
    spans = (b[:, 2] < z) & (z < b[:, 5])
    holds = (b[:, 0] <= x) & (x <= b[:, 3]) & (b[:, 1] <= y) & (y <= b[:, 4])
    opened = query.moving_owners == owner if owner else np.zeros(len(b), dtype=bool)
    return b[spans & ~holds & ~opened]


def in_sight(x: float, y: float, target: tuple[float, float, float], boxes: np.ndarray) -> bool:
    """Whether the horizontal segment from ``(x, y)`` to ``target`` misses every box (slab test)."""
    start, d = np.array([x, y]), np.array(target[:2]) - (x, y)
    with np.errstate(divide="ignore", invalid="ignore"):
        t0, t1 = (boxes[:, [0, 1]] - start) / d, (boxes[:, [3, 4]] - start) / d
    inside = (boxes[:, [0, 1]] <= start) & (start <= boxes[:, [3, 4]])  # a slab the segment runs along
    lo = np.where(d == 0, np.where(inside, -np.inf, np.inf), np.minimum(t0, t1))
    hi = np.where(d == 0, np.where(inside, np.inf, -np.inf), np.maximum(t0, t1))
    enter, leave = np.maximum(lo.max(axis=1), 0.0), np.minimum(hi.min(axis=1), 1.0)
    return not (enter <= leave).any()


def base_pose(
    target: tuple[float, float, float], query: HouseQuery, owner: str | None = None
) -> tuple[float, float, float] | None:
    """A base pose ``(x, y, yaw)`` facing ``target`` (x, y, z) from which it is within reach, or None.
    ``owner``: the furniture the point is on or in (its doors and drawers do not block the line)."""
    band = query.house.robot.reach_at(target[2])
    room = query.room_at(target[0], target[1])
    if band is None or room is None:
        return None
    count = max(2, math.ceil((band.max - band.min) / query.resolution) + 1)
    dists = sorted(np.linspace(band.min, band.max, count), key=lambda d: (abs(d - (band.min + band.max) / 2), d))
    dist, angle = (a.ravel() for a in np.meshgrid(dists, 2 * np.pi * np.arange(HEADINGS) / HEADINGS, indexing="ij"))
    xs, ys, yaws = target[0] + dist * np.cos(angle), target[1] + dist * np.sin(angle), angle + np.pi
    boxes = sight_boxes(target, query, owner)
    for i in np.flatnonzero(query.obstacles.fits(xs, ys, yaws)):
        x, y = float(xs[i]), float(ys[i])
        if (
            query.room_at(x, y) == room
            and in_sight(x, y, target, boxes)
            and _approachable(query, x, y, float(angle[i]), float(yaws[i]))
        ):
            return x, y, math.atan2(target[1] - y, target[0] - x)
    return None
