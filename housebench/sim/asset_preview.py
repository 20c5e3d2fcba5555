"""Pictures of built assets through any backend: the visual mesh beside the collision hulls.

The asset's ``asset.usda`` is referenced into a small stage whose only edit is a display colour per
hull (:func:`housebench.assets.preview.hull_colour`), loaded through the
:class:`~housebench.sim.backend.Backend` like any scene, and rendered twice from one camera: the
visual meshes, then the colliders. A hull that misses a handle, or one that fills a cavity, shows at
once. (MuJoCo renders offscreen: call :func:`housebench.sim.offscreen.use_offscreen_gl` first.)
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np
from pxr import Gf, Usd, UsdGeom, UsdPhysics

from housebench.assets.preview import hull_colour
from housebench.sim.backend import Backend, View

PROP = "/World/Props/asset"


def preview_stage(asset_usda: Path, out: Path) -> tuple[Path, View]:
    """``out``: the asset at the origin with one colour per hull; and a view of it, slightly above."""
    stage = Usd.Stage.CreateNew(str(out))
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.z)
    UsdGeom.SetStageMetersPerUnit(stage, 1.0)
    stage.SetDefaultPrim(UsdGeom.Xform.Define(stage, "/World").GetPrim())
    prop = UsdGeom.Xform.Define(stage, PROP)
    prop.GetPrim().GetReferences().AddReference(os.path.relpath(asset_usda, out.parent))
    hulls = [p for p in Usd.PrimRange(prop.GetPrim()) if p.IsA(UsdGeom.Mesh) and p.HasAPI(UsdPhysics.CollisionAPI)]
    for i, hull in enumerate(hulls):
        UsdGeom.Mesh(hull).CreateDisplayColorAttr([Gf.Vec3f(*hull_colour(i)[:3])])
    stage.GetRootLayer().Save()
    box = UsdGeom.BBoxCache(Usd.TimeCode.Default(), [UsdGeom.Tokens.default_]).ComputeWorldBound(prop.GetPrim())
    bounds = box.ComputeAlignedRange()
    size = float((bounds.GetMax() - bounds.GetMin()).GetLength())
    return out, View(tuple(bounds.GetMidpoint()), 1.5 * size, 135.0, -30.0)


def asset_picture(backend: Backend, asset_usda: Path, size: int = 240) -> np.ndarray:
    """``size`` x ``2 * size`` RGB: the visual mesh (left) and the collision hulls (right)."""
    with tempfile.TemporaryDirectory() as tmp:
        stage, view = preview_stage(Path(asset_usda).resolve(), Path(tmp) / "preview.usda")
        sim = backend.load(stage)
    return np.hstack([sim.render(view, size, size), sim.render(view, size, size, collision=True)])
