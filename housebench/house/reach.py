"""Where the base can stand to work at a point: the stance rings the skills search and the test the
task sampler keeps a prop by, from the house annotations alone.

The rings (:func:`candidates`) are base poses facing the point at :data:`DISTANCES` (a top-down grasp
at table height works from 0.45-0.75 m of base distance, measured in ``bench/RESULTS.md``), nearest the
middle first. :func:`base_pose` takes the first of them that the skills would take too: its distance in
the robot's measured reach band (``house.robot.reach``) for the point's height and for the height of
the pre-grasp above it, the robot (arm in the carry pose) clear of the house by the skills' footprint
(:func:`.stance.stance_free`), in the point's room, the arm's line to the point clear (the straight
segment from the base, and so from the shoulder above it, meets no box that spans the point's height),
within :data:`NEAR` of the free floor connected to the robot's start, and the base can get there: a
straight drive back out along its heading, every pose of it free, meets that floor. Props standing in the
house (:meth:`HouseQuery.with_props`) block the footprint, the drive and the floor like furniture.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator

import numpy as np

from housebench.house.floor import FloorGrid
from housebench.house.query import HouseQuery
from housebench.house.stance import stance_free

DISTANCES = (0.55, 0.6, 0.5, 0.65, 0.45, 0.7, 0.4, 0.75)  # base to the point, m
HEADINGS = 36  # directions around the point
APPROACH = 1.0  # longest straight drive from the connected free floor to the pose, metres
NEAR = 0.45  # m: the most a stance may stand from the connected free floor (the skills' test)
PRE_GRASP = 0.12  # m above the point the hand comes from (the pick's approach)
SURROUND = 1.4  # m: boxes farther than this from the point cannot touch a stance on the rings

Pose = tuple[float, float, float]


def candidates(
    target: tuple[float, float], accept: Callable[[Pose], bool], distances: tuple[float, ...] = DISTANCES
) -> Iterator[Pose]:
    """Base poses facing ``target`` that ``accept`` takes: nearest the preferred distance first."""
    for dist in distances:
        for k in range(HEADINGS):
            angle = 2 * math.pi * k / HEADINGS
            x, y = target[0] + dist * math.cos(angle), target[1] + dist * math.sin(angle)
            pose = (x, y, math.atan2(target[1] - y, target[0] - x))
            if accept(pose):
                yield pose


def near_cells(mask: np.ndarray, grid: FloorGrid, pose: Pose, within: float) -> bool:
    """Whether a cell of ``mask`` lies within ``within`` metres of the pose."""
    i, j = grid.cell(pose[0], pose[1])
    n = math.ceil(within / grid.resolution)
    window = mask[max(i - n, 0) : i + n + 1, max(j - n, 0) : j + n + 1]
    return bool(window.any())


def _approachable(query: HouseQuery, pose: Pose) -> bool:
    x, y, yaw = pose
    steps = np.arange(0.0, APPROACH + 1e-9, query.resolution)
    xs, ys = x - steps * math.cos(yaw), y - steps * math.sin(yaw)
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


def in_band(query: HouseQuery, z: float, above: float) -> tuple[float, ...]:
    """The ring distances in the reach band both at height ``z`` and at ``z + above``."""
    bands = [query.house.robot.reach_at(z), query.house.robot.reach_at(z + above)]
    if None in bands:
        return ()
    lo, hi = max(b.min for b in bands), min(b.max for b in bands)
    return tuple(d for d in DISTANCES if lo - 1e-9 <= d <= hi + 1e-9)


def stance_test(
    target: tuple[float, float, float], query: HouseQuery, owner: str | None = None
) -> Callable[[Pose], bool] | None:
    """Whether a base pose works at ``target`` (x, y, z) by the skills' test (the module docstring), the
    props of ``query`` blocking the base and the floor; None when ``target`` is in no room. ``owner``: the
    furniture the point is on or in (its doors and drawers do not block the line)."""
    room = query.room_at(target[0], target[1])
    if room is None:
        return None
    near = np.hypot(
        np.maximum(np.maximum(query.boxes[:, 0] - target[0], target[0] - query.boxes[:, 3]), 0.0),
        np.maximum(np.maximum(query.boxes[:, 1] - target[1], target[1] - query.boxes[:, 4]), 0.0),
    )
    boxes = [tuple(b) for b in query.boxes[near < SURROUND]] + list(query.props)
    sight = sight_boxes(target, query, owner)

    def accept(pose: Pose) -> bool:
        return (
            query.room_at(pose[0], pose[1]) == room
            and in_sight(pose[0], pose[1], target, sight)
            and near_cells(query.reachable_floor, query.grid, pose, NEAR)
            and stance_free(pose, boxes)
            and _approachable(query, pose)
        )

    return accept


def base_pose(
    target: tuple[float, float, float], query: HouseQuery, owner: str | None = None, above: float = 0.0
) -> Pose | None:
    """A base pose ``(x, y, yaw)`` facing ``target`` (x, y, z) from which it, and the point ``above``
    over it, are within reach (:func:`stance_test`), or None."""
    dists = in_band(query, target[2], above)
    accept = stance_test(target, query, owner) if dists else None
    return None if accept is None else next(candidates(target[:2], accept, dists), None)
