"""A simple reachability check: is there a collision-free robot base pose within reach of a point?"""

from __future__ import annotations

import math

from housebench.annotations.schema import HouseAnnotations, Obstacle
from housebench.house.floor import blocks_base
from housebench.house.query import inside

RINGS, HEADINGS = 4, 24  # base positions tried: rings out to the reach x headings around the point


def _blocks(ob: Obstacle, x: float, y: float, radius: float) -> bool:
    xmin, ymin, zmin, xmax, ymax, zmax = ob.box
    if not blocks_base(zmin, zmax):
        return False
    dx, dy = max(xmin - x, 0.0, x - xmax), max(ymin - y, 0.0, y - ymax)
    return math.hypot(dx, dy) < radius


def base_pose(target: tuple[float, float], house: HouseAnnotations, radius: float) -> tuple[float, float, float] | None:
    """The first free base pose (x, y, yaw facing ``target``) in a room, within the robot's reach."""
    reach = house.robot.reach
    for ring in range(RINGS):
        dist = radius + (reach - radius) * ring / (RINGS - 1)
        for k in range(HEADINGS):
            angle = 2 * math.pi * k / HEADINGS
            x, y = target[0] + dist * math.cos(angle), target[1] + dist * math.sin(angle)
            if house.rooms and not any(inside(x, y, room.polygon) for room in house.rooms):
                continue
            if not any(_blocks(ob, x, y, radius) for ob in house.obstacles):
                return x, y, math.atan2(target[1] - y, target[0] - x)
    return None
