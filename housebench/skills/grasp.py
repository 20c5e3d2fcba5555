"""Grasp geometry from the annotations: where the pad centre goes and how the fingers turn.

The annotated grasp primitive's ``point`` lies between the fingertips; Fetch's grasp frame is the
pad centre, 38.5 mm further up the fingers. A top pinch puts the pad centre at the object's middle
height (or 4 cm under its top for tall ones), never so low that the fingertips touch the support.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from housebench.annotations.schema import AssetAnnotation
from housebench.state import ObjectState
from housebench.tasks.geometry import rotation

FINGER_HALF = 0.0385  # pad centre to fingertip, m
TIP_CLEARANCE = 0.008  # fingertips stay this far above the support
MAX_WIDTH = 0.09  # widest object the fingers take (0.1 m opening less clearance)
TOP_MARGIN = 0.04  # a tall object is pinched this far below its top


@dataclass(frozen=True)
class TopGrasp:
    pad: np.ndarray  # world position of the pad centre at the grasp
    yaws: tuple[float, ...]  # finger-closing directions to try (world yaw), best first
    width: float


def top_grasp(asset: AssetAnnotation, pose: ObjectState) -> TopGrasp | None:
    """A grasp from above for a ``top_pinch`` asset (None when it has none or is too wide)."""
    prim = next((g for g in asset.grasps if g.kind == "top_pinch" and g.width <= MAX_WIDTH), None)
    if prim is None:
        return None
    rot = rotation(pose.quat)
    height = asset.size[2]
    pad_z = max(FINGER_HALF + TIP_CLEARANCE, height - TOP_MARGIN if height > 3 * TOP_MARGIN else height / 2)
    local = np.array([prim.point[0], prim.point[1], pad_z - asset.bottom_offset])
    pad = np.asarray(pose.pos) + rot @ local
    axis = rot @ np.asarray(prim.axis)
    yaw = math.atan2(axis[1], axis[0])
    yaws = [yaw, yaw + math.pi]
    if max(asset.size[0], asset.size[1]) <= MAX_WIDTH:  # narrow both ways: it can be taken across as well
        yaws += [yaw + math.pi / 2, yaw - math.pi / 2]
    return TopGrasp(pad=pad, yaws=tuple(yaws), width=prim.width)
