"""Where the base should stand to work at a point: free-floor poses on rings around it, facing it,
checked with the IK (the reach model; distances measured in ``bench/RESULTS.md``).

A top-down grasp at table height works from 0.45-0.75 m of base distance (the annotation's 1.0 m
overstates it); :data:`DISTANCES` are tried nearest the middle first.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator

import numpy as np

from housebench.house.floor import FloorGrid

DISTANCES = (0.55, 0.6, 0.5, 0.65, 0.45, 0.7, 0.4, 0.75)
HEADINGS = 36

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


def first_reaching(
    poses: Iterator[Pose], reaches: Callable[[Pose], object | None], limit: int = 60
) -> tuple[Pose, object] | None:
    """The first pose (of at most ``limit``) for which ``reaches`` returns a plan, with that plan."""
    for n, pose in enumerate(poses):
        if n >= limit:
            return None
        plan = reaches(pose)
        if plan is not None:
            return pose, plan
    return None
