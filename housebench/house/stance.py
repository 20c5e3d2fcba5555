"""Fetch's height-aware footprint in the carry pose, measured on the kinematic model's meshes.

Below ``LOW`` (0.4 m) the robot is the base disc (radius 0.288 m; nothing of it lies between 0.4 and
0.6 m in the carry pose). From ``LOW`` to ``HIGH`` (1.0 m) it is the torso column and shoulder, a box from 0.27 m
behind to 0.09 m ahead of the base centre and 0.17 m to either side: nothing reaches forward at
table height, so the base may stand with its front under a tabletop or shelf. Above ``HIGH`` the
arm in the carry pose reaches 0.42 m ahead and 0.37 m to the side. A stance is checked against the
house's obstacle boxes and the props standing on the floor, per band, with a margin.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from housebench.house.floor import FLOOR_SKIN

BASE_RADIUS = 0.288
LOW, HIGH = 0.4, 1.0
MIDDLE_BOX = (-0.272, 0.090, 0.171)  # x behind, x ahead, |y|: the robot between LOW and HIGH
TOP_BOX = (-0.272, 0.42, 0.37)  # ... above HIGH, arm in the carry pose
MARGIN = 0.03

Box3 = tuple[float, float, float, float, float, float]


def _disc_hits(box: Box3, x: float, y: float, r: float) -> bool:
    dx = max(box[0] - x, 0.0, x - box[3])
    dy = max(box[1] - y, 0.0, y - box[4])
    return math.hypot(dx, dy) < r


def _rect_hits(box: Box3, pose: tuple[float, float, float], rect: tuple[float, float, float]) -> bool:
    """Whether the robot-frame rectangle ``rect`` (x behind, x ahead, |y|) at ``pose`` overlaps the box in xy."""
    x, y, yaw = pose
    back, ahead, side = rect[0] - MARGIN, rect[1] + MARGIN, rect[2] + MARGIN
    c, s = math.cos(yaw), math.sin(yaw)
    corners = [(x + c * u - s * v, y + s * u + c * v) for u in (back, ahead) for v in (-side, side)]
    # separating axes: the world axes (the box's) and the robot's
    if max(p[0] for p in corners) <= box[0] or min(p[0] for p in corners) >= box[3]:
        return False
    if max(p[1] for p in corners) <= box[1] or min(p[1] for p in corners) >= box[4]:
        return False
    box_pts = [(bx, by) for bx in (box[0], box[3]) for by in (box[1], box[4])]
    for axis, lo, hi in (((c, s), back, ahead), ((-s, c), -side, side)):
        proj = [(px - x) * axis[0] + (py - y) * axis[1] for px, py in box_pts]
        if max(proj) <= lo or min(proj) >= hi:
            return False
    return True


def stance_free(pose: tuple[float, float, float], boxes: Iterable[Box3]) -> bool:
    """Whether the robot, arm in the carry pose, stands at ``pose`` clear of every box."""
    x, y, _ = pose
    for box in boxes:
        zmin, zmax = box[2], box[5]
        if zmax <= FLOOR_SKIN:
            continue
        if zmin < LOW and _disc_hits(box, x, y, BASE_RADIUS + MARGIN):
            return False
        if zmin < HIGH and zmax > LOW and _rect_hits(box, pose, MIDDLE_BOX):
            return False
        if zmax > HIGH and _rect_hits(box, pose, TOP_BOX):
            return False
    return True
