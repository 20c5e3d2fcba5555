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

DISTANCES = (0.6, 0.55, 0.65, 0.5, 0.7, 0.75, 0.45)
HEADINGS = 36

Pose = tuple[float, float, float]


def candidates(
    target: tuple[float, float], grid: FloorGrid, reachable: np.ndarray, distances: tuple[float, ...] = DISTANCES
) -> Iterator[Pose]:
    """Free, reachable base poses facing ``target``: nearest the preferred distance first."""
    for dist in distances:
        for k in range(HEADINGS):
            angle = 2 * math.pi * k / HEADINGS
            x, y = target[0] + dist * math.cos(angle), target[1] + dist * math.sin(angle)
            i, j = grid.cell(x, y)
            if 0 <= i < reachable.shape[0] and 0 <= j < reachable.shape[1] and reachable[i, j]:
                yield x, y, math.atan2(target[1] - y, target[0] - x)


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
