"""``asset.usda`` follows the asset contract and passes ``pxr.UsdValidation``."""

from __future__ import annotations

import pytest
from pxr import Usd, UsdGeom, UsdPhysics, UsdShade, UsdValidation


@pytest.fixture(scope="module")
def validators():
    return UsdValidation.ValidationContext(UsdValidation.ValidationRegistry().GetOrLoadAllValidators())


@pytest.mark.parametrize("name", ["apple", "orange", "bowl", "book"])
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
    rigid = [p for p in stage.Traverse() if p.HasAPI(UsdPhysics.RigidBodyAPI)]
    assert rigid == [root]  # no rigid body nested in a rigid body
    assert (built[name] / f"{name}.png").is_file()
