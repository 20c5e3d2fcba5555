"""A base pose from which the robot can take a point, from the house annotations alone.

A pose qualifies when the point's horizontal distance lies in the robot's reach band for the
point's height (``house.robot.reach``), the base faces the point, the footprint (base disc and
turned column, :mod:`.floor`) touches no obstacle, the pose is in a room, and the base can get
there: a straight drive back out along its heading, every pose of it free, meets the free floor
connected to the robot's start. Distances nearest the middle of the band are tried first.
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


def base_pose(target: tuple[float, float, float], query: HouseQuery) -> tuple[float, float, float] | None:
    """A base pose ``(x, y, yaw)`` facing ``target`` (x, y, z) from which it is within reach, or None."""
    band = query.house.robot.reach_at(target[2])
    if band is None:
        return None
    count = max(2, math.ceil((band.max - band.min) / query.resolution) + 1)
    dists = sorted(np.linspace(band.min, band.max, count), key=lambda d: (abs(d - (band.min + band.max) / 2), d))
    dist, angle = (a.ravel() for a in np.meshgrid(dists, 2 * np.pi * np.arange(HEADINGS) / HEADINGS, indexing="ij"))
    xs, ys, yaws = target[0] + dist * np.cos(angle), target[1] + dist * np.sin(angle), angle + np.pi
    for i in np.flatnonzero(query.obstacles.fits(xs, ys, yaws)):
        x, y = float(xs[i]), float(ys[i])
        if query.room_at(x, y) is not None and _approachable(query, x, y, float(angle[i]), float(yaws[i])):
            return x, y, math.atan2(target[1] - y, target[0] - x)
    return None
