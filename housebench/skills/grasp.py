"""Grasp geometry from the annotations: where the pad centre goes and how the fingers turn.

The annotated grasp primitive's ``point`` lies between the fingertips; Fetch's grasp frame is the
pad centre, 38.5 mm further up the fingers. A top pinch puts the pad centre at the object's middle
height (or 4 cm under its top for tall ones), never so low that the fingertips touch the support. A
rim pinch takes a container's wall from above, fingers across the wall, at any of four points
around the rim (the annotated one turned by quarter turns), the nearest the centre only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from housebench.annotations.schema import AssetAnnotation
from housebench.robot.fetch import GRIPPER_OPENING
from housebench.state import ObjectState
from housebench.tasks.geometry import rotation, world_box

FINGER_HALF = 0.0385  # pad centre to fingertip, m
TIP_CLEARANCE = 0.003  # fingertips stay this far above the support
THIN, THIN_TIP = 0.02, 0.0005  # items thinner than THIN are pinched with the tips THIN_TIP off the support
MAX_WIDTH = 0.09  # widest object the fingers take (0.1 m opening less clearance)
TOP_MARGIN = 0.04  # a tall object is pinched this far below its top
RIM_DEPTH = 0.035  # the fingertips reach this far down a container's wall
TILTED = 0.87  # cos 30 deg: an item tilted further is taken by its world box (it fell over)
OPEN_MARGIN = 0.03  # the fingers open this much wider than what they take (not fully: a rim pinch's inner
# finger would land on the container's contents, a pinch inside a box on its walls), m


@dataclass(frozen=True)
class TopGrasp:
    kind: str
    pad: np.ndarray  # world position of the pad centre at the grasp
    yaws: tuple[float, ...]  # finger-closing directions to try (world yaw), best first
    opening: float = GRIPPER_OPENING  # finger gap on the way in, m


def opening(width: float) -> float:
    """The finger gap to approach a part ``width`` wide with."""
    return min(GRIPPER_OPENING, width + OPEN_MARGIN)


def grasps(asset: AssetAnnotation, pose: ObjectState) -> list[TopGrasp]:
    """Every grasp from above this asset offers (empty: none fits the gripper)."""
    rot = rotation(pose.quat)
    if rot[2, 2] < TILTED:  # fallen over: take it from above by its world box, any way it fits
        return _fallen(asset, pose)
    origin = np.asarray(pose.pos)
    out = []
    for prim in asset.grasps:
        if prim.width > MAX_WIDTH:
            continue
        axis = rot @ np.asarray(prim.axis)
        yaw = math.atan2(axis[1], axis[0])
        if prim.kind == "top_pinch":
            height = asset.size[2]
            low = FINGER_HALF + (THIN_TIP if height < THIN else TIP_CLEARANCE)
            pad_z = max(low, height - TOP_MARGIN if height > 3 * TOP_MARGIN else height / 2)
            pad = origin + rot @ np.array([prim.point[0], prim.point[1], pad_z - asset.bottom_offset])
            yaws = [yaw, yaw + math.pi]
            if max(asset.size[0], asset.size[1]) <= MAX_WIDTH:  # narrow both ways: taken across as well
                yaws += [yaw + math.pi / 2, yaw - math.pi / 2]
            out.append(TopGrasp("top_pinch", pad, tuple(yaws), opening(prim.width)))
        elif prim.kind == "rim_pinch" and asset.container is not None:
            pad_z = max(FINGER_HALF + TIP_CLEARANCE, prim.point[2] + FINGER_HALF - (RIM_DEPTH - 0.02))
            hx, hy = asset.container.inner_half_extents
            wall = abs(prim.point[0]) - hx  # the annotated point sits on the -x wall
            points = ((-(hx + wall), 0, 0.0), (hx + wall, 0, 0.0), (0, -(hy + wall), 1), (0, hy + wall, 1))
            shortest = min(abs(lx) + abs(ly) for lx, ly, _ in points)
            for lx, ly, ayaw in points:
                if abs(lx) + abs(ly) > shortest + 0.01:  # held by a long side: the load's lever is shortest
                    continue
                pad = origin + rot @ np.array([lx, ly, pad_z - asset.bottom_offset])
                turn = yaw + ayaw * math.pi / 2
                out.append(TopGrasp("rim_pinch", pad, (turn, turn + math.pi), opening(prim.width)))
    return out


def _fallen(asset: AssetAnnotation, pose: ObjectState) -> list[TopGrasp]:
    """A top pinch of a tilted or fallen item from its world box: across whichever side fits."""
    box = world_box(pose, asset)
    size = (box[3] - box[0], box[4] - box[1], box[5] - box[2])
    yaws = [yaw for yaw, width in ((0.0, size[0]), (math.pi / 2, size[1])) if width <= MAX_WIDTH]
    if not yaws:
        return []
    low = FINGER_HALF + (THIN_TIP if size[2] < THIN else TIP_CLEARANCE)
    pad = np.array([(box[0] + box[3]) / 2, (box[1] + box[4]) / 2, box[2] + max(low, size[2] / 2)])
    yaws_both = tuple(y + k * math.pi for y in yaws for k in (0, 1))
    widest = max(width for yaw, width in ((0.0, size[0]), (math.pi / 2, size[1])) if width <= MAX_WIDTH)
    return [TopGrasp("top_pinch", pad, yaws_both, opening(widest))]
