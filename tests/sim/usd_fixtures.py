"""Test scene builders: the default params, a tiny box asset per the asset contract, task layers."""

from __future__ import annotations

import os
from pathlib import Path

import yaml
from pxr import Gf, Sdf, Usd, UsdGeom, UsdPhysics, UsdShade

REPO = Path(__file__).resolve().parents[2]
BOX = 0.06  # edge of the test prop, metres
_CORNERS = [(x, y, z) for z in (0, BOX) for y in (-BOX / 2, BOX / 2) for x in (-BOX / 2, BOX / 2)]
_QUADS = [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]


def house_params() -> dict:
    return yaml.safe_load((REPO / "params.yaml").read_text())["house"]


def settle_params() -> dict:
    return yaml.safe_load((REPO / "params.yaml").read_text())["settle"]


def _box_mesh(stage: Usd.Stage, path: str) -> UsdGeom.Mesh:
    mesh = UsdGeom.Mesh.Define(stage, path)
    mesh.CreatePointsAttr([Gf.Vec3f(*c) for c in _CORNERS])
    mesh.CreateFaceVertexCountsAttr([4] * len(_QUADS))
    mesh.CreateFaceVertexIndicesAttr([i for q in _QUADS for i in q])
    mesh.CreateDisplayColorAttr([Gf.Vec3f(0.8, 0.2, 0.1)])
    return mesh


def write_box_asset(path: Path, mass: float = 0.2, friction: float = 0.8) -> Path:
    """``asset.usda``: /Asset rigid body, Visual mesh, Collision/hull_000 with a physics material."""
    stage = Usd.Stage.CreateNew(str(path))
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.z)
    UsdGeom.SetStageMetersPerUnit(stage, 1.0)
    root = UsdGeom.Xform.Define(stage, "/Asset").GetPrim()
    stage.SetDefaultPrim(root)
    UsdPhysics.RigidBodyAPI.Apply(root)
    mass_api = UsdPhysics.MassAPI.Apply(root)
    mass_api.CreateMassAttr(mass)
    mass_api.CreateCenterOfMassAttr(Gf.Vec3f(0, 0, BOX / 2))
    mass_api.CreateDiagonalInertiaAttr(Gf.Vec3f(*[mass * BOX**2 / 6] * 3))
    _box_mesh(stage, "/Asset/Visual")
    UsdGeom.Scope.Define(stage, "/Asset/Collision")
    hull = _box_mesh(stage, "/Asset/Collision/hull_000").GetPrim()
    UsdPhysics.CollisionAPI.Apply(hull)
    UsdPhysics.MeshCollisionAPI.Apply(hull).CreateApproximationAttr("convexHull")
    material = UsdShade.Material.Define(stage, "/Asset/PhysicsMaterial")
    phys = UsdPhysics.MaterialAPI.Apply(material.GetPrim())
    phys.CreateStaticFrictionAttr(friction)
    phys.CreateDynamicFrictionAttr(friction)
    UsdShade.MaterialBindingAPI.Apply(hull).Bind(material, materialPurpose="physics")
    stage.GetRootLayer().Save()
    return path


def write_task_layer(path: Path, house: Path, props: dict[str, tuple[Path, tuple]]) -> Path:
    """A task layer: sublayers ``house``, adds ``/World/Props/<name>`` referencing an asset at a
    position (translate + identity orient)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    stage = Usd.Stage.CreateNew(str(path))
    layer = stage.GetRootLayer()
    layer.subLayerPaths.append(os.path.relpath(house, path.parent))
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.z)
    UsdGeom.SetStageMetersPerUnit(stage, 1.0)
    layer.defaultPrim = "World"
    UsdGeom.Xform.Define(stage, "/World/Props")
    for name, (asset, pos) in props.items():
        prop = UsdGeom.Xform.Define(stage, f"/World/Props/{name}")
        prop.GetPrim().GetReferences().AddReference(os.path.relpath(asset, path.parent))
        prop.AddTranslateOp().Set(Gf.Vec3d(*pos))
        prop.AddOrientOp().Set(Gf.Quatf(1, 0, 0, 0))
        prop.GetPrim().CreateAttribute("housebench:asset", Sdf.ValueTypeNames.String).Set("box")
    layer.Save()
    return path
