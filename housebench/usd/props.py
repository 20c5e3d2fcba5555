"""Reading the props of a composed scene: name, asset and world pose of each ``/World/Props/*``."""

from __future__ import annotations

from pathlib import Path

from pxr import Usd, UsdGeom

from housebench.usd.paths import PROPS_PATH


def prop_poses(stage_path: Path) -> dict[str, tuple[tuple[float, float, float], tuple[float, float, float, float]]]:
    """``{name: (pos, quat wxyz)}`` in world coordinates, from the fully composed stage."""
    stage = Usd.Stage.Open(str(stage_path))
    if not stage:
        raise ValueError(f"{stage_path}: cannot open USD stage")
    root = stage.GetPrimAtPath(PROPS_PATH)
    cache = UsdGeom.XformCache(Usd.TimeCode.Default())
    poses = {}
    for prim in root.GetChildren() if root else []:
        matrix = cache.GetLocalToWorldTransform(prim)
        t = matrix.ExtractTranslation()
        q = matrix.RemoveScaleShear().ExtractRotationQuat()
        im = q.GetImaginary()
        poses[prim.GetName()] = (
            tuple(round(float(v), 6) for v in t),
            tuple(round(float(v), 6) for v in (q.GetReal(), im[0], im[1], im[2])),
        )
    return poses
