"""An item's collision material in a height band, in the world: the corners of its annotated sections
(:class:`housebench.annotations.schema.HullSection`) there, turned and placed by its pose."""

from __future__ import annotations

import numpy as np

from housebench.annotations.schema import SECTION_HEIGHT, AssetAnnotation
from housebench.skills.tuning import tuning
from housebench.state import ObjectState
from housebench.tasks.geometry import rotation


def band(asset: AssetAnnotation, pose: ObjectState, lo: float, hi: float) -> np.ndarray:
    """The world (x, y) corners of the sections of ``asset`` at ``pose`` that reach between ``lo`` and ``hi``
    over its bottom (none: an empty array; an item tilted past ``skills.side.outline_upright`` has none)."""
    rot = rotation(pose.quat)
    if rot[2, 2] < tuning().side.outline_upright:
        return np.empty((0, 2))
    corners = [s.outline for s in asset.sections if s.z < hi and s.z + SECTION_HEIGHT > lo]
    if not corners:
        return np.empty((0, 2))
    local = np.concatenate([np.asarray(c, float) for c in corners])
    return local @ rot[:2, :2].T + np.asarray(pose.pos[:2], float)
