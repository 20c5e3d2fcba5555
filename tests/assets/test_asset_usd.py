"""``asset.usda`` follows the asset contract and passes ``pxr.UsdValidation``; the physics layout
check catches APIs on the wrong prims and nested bodies."""

from __future__ import annotations

import pytest
from asset_constants import BUILT
from pxr import Usd, UsdGeom, UsdPhysics, UsdShade, UsdValidation

from housebench.usd.asset import HULL_VERTEX_LIMIT, physics_errors


@pytest.fixture(scope="module")
def validators():
    return UsdValidation.ValidationContext(UsdValidation.ValidationRegistry().GetOrLoadAllValidators())


@pytest.mark.parametrize("name", BUILT)
def test_asset_usd_contract(name, built, validators):
    stage = Usd.Stage.Open(str(built[name] / "asset.usda"))
    errors = validators.Validate(stage)
    assert not errors, [e.GetErrorAsString() for e in errors]
    assert UsdGeom.GetStageUpAxis(stage) == UsdGeom.Tokens.z
    assert UsdGeom.GetStageMetersPerUnit(stage) == 1.0
    root = stage.GetDefaultPrim()
    assert root.GetPath() == "/Asset" and root.IsA(UsdGeom.Xform)
    assert root.HasAPI(UsdPhysics.RigidBodyAPI) and root.HasAPI(UsdPhysics.MassAPI)
    assert UsdPhysics.MassAPI(root).GetMassAttr().Get() > 0
    visual = stage.GetPrimAtPath("/Asset/Visual")
    assert visual.IsA(UsdGeom.Mesh) and not visual.HasAPI(UsdPhysics.CollisionAPI)
    assert UsdGeom.PrimvarsAPI(visual).GetPrimvar("st").IsDefined()
    hulls = stage.GetPrimAtPath("/Asset/Collision").GetChildren()
    assert hulls and all(h.GetName().startswith("hull_") for h in hulls)
    for hull in hulls:
        assert hull.HasAPI(UsdPhysics.CollisionAPI)
        assert UsdPhysics.MeshCollisionAPI(hull).GetApproximationAttr().Get() == "convexHull"
        material, _ = UsdShade.MaterialBindingAPI(hull).ComputeBoundMaterial("physics")
        assert material.GetPrim().HasAPI(UsdPhysics.MaterialAPI)
        points = len(UsdGeom.Mesh(hull).GetPointsAttr().Get())
        for limit in ("physxConvexHullCollision:hullVertexLimit", "newton:maxHullVertices"):
            assert points <= hull.GetAttribute(limit).Get() == HULL_VERTEX_LIMIT  # no engine reduces the hull
    rigid = [p for p in stage.Traverse() if p.HasAPI(UsdPhysics.RigidBodyAPI)]
    assert rigid == [root]  # no rigid body nested in a rigid body
    assert (built[name] / f"{name}.png").is_file()
    assert physics_errors(stage) == []


def _nest_body(stage):
    UsdPhysics.RigidBodyAPI.Apply(stage.GetPrimAtPath("/Asset/Collision/hull_000"))


def _mass_on_hull(stage):
    UsdPhysics.MassAPI.Apply(stage.GetPrimAtPath("/Asset/Collision/hull_000"))


def _collide_visual(stage):
    UsdPhysics.CollisionAPI.Apply(stage.GetPrimAtPath("/Asset/Visual"))


def _collide_scope(stage):
    UsdPhysics.CollisionAPI.Apply(stage.GetPrimAtPath("/Asset/Collision"))


@pytest.mark.parametrize(
    "damage, message",
    [
        (_nest_body, "hull_000: nested rigid body"),
        (_mass_on_hull, "hull_000: mass API off the rigid body"),
        (_collide_visual, "Visual: collision API off a collision mesh"),
        (_collide_scope, "Collision: collision API off a collision mesh"),
    ],
)
def test_physics_layout_errors_are_caught(damage, message, built):
    stage = Usd.Stage.Open(str(built["bowl"] / "asset.usda"))
    damage(stage)
    assert any(e.endswith(message) for e in physics_errors(stage)), physics_errors(stage)


def test_small_light_bodies_get_ccd_and_damping(built):
    stages = {name: Usd.Stage.Open(str(built[name] / "asset.usda")) for name in ("pen", "apple")}
    pen, apple = (stages[name].GetDefaultPrim() for name in ("pen", "apple"))
    assert "PhysxRigidBodyAPI" in pen.GetPrimTypeInfo().GetAppliedAPISchemas()  # PhysX, unregistered here
    assert pen.GetAttribute("physxRigidBody:enableCCD").Get() is True
    assert pen.GetAttribute("physxRigidBody:angularDamping").Get() > 0
    assert not apple.GetAttribute("physxRigidBody:enableCCD").IsValid()


def test_visual_carries_the_textures_colour(built):
    """Viewers that skip textures (and MuJoCo's previews) show the texture's mean colour."""
    stage = Usd.Stage.Open(str(built["apple"] / "asset.usda"))
    ((r, g, b),) = UsdGeom.Gprim(stage.GetPrimAtPath("/Asset/Visual")).GetDisplayColorAttr().Get()
    assert r > 0.4 and r > 2 * g and r > 2 * b  # the stand-in apple is red
