"""Writing one asset's ``asset.usda`` (the asset contract of DESIGN.md, "Contracts as built").

Z-up, metres, defaultPrim ``/Asset``: an Xform with ``PhysicsRigidBodyAPI`` and ``PhysicsMassAPI``;
``Visual`` (textured Mesh, no physics); ``Collision`` (Scope) of ``hull_NNN`` Meshes, each with
``PhysicsCollisionAPI`` + ``PhysicsMeshCollisionAPI`` (``convexHull``) bound to the physics material
``Looks/PhysicsMaterial``, each authoring the hull vertex limit (:data:`HULL_VERTEX_LIMIT`) for the
engines that would otherwise reduce it silently (Newton and PhysX cap hulls at 64 vertices by default: the
apple's 255-vertex hull would lose 7% of its volume). Geometry is inline; only the texture ``<name>.png``
lies beside the file.
A small light body also gets PhysX's ``PhysxRigidBodyAPI`` (continuous collision, damping).
:func:`physics_errors` checks the physics layout: mass and collision APIs only where they belong,
no rigid body inside another.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from pxr import Gf, Sdf, Usd, UsdGeom, UsdPhysics, UsdShade, Vt

Mesh = tuple[np.ndarray, np.ndarray]
HULL_VERTEX_LIMIT = 255  # PhysX's maximum and the collision stage's cap: every engine keeps our hulls as they are


@dataclass(frozen=True)
class AssetGeometry:
    """Everything ``asset.usda`` holds, in the asset frame (origin at the bottom centre, Z up)."""

    name: str
    vertices: np.ndarray
    faces: np.ndarray
    uv: np.ndarray  # per vertex
    texture: str  # file name beside asset.usda
    hulls: list[Mesh]
    mass: float
    com: np.ndarray
    principal: np.ndarray
    axes_quat: np.ndarray  # w, x, y, z
    friction: float
    damping: float = 0.0  # > 0: a small light body (CCD on, damped)
    color: tuple[float, float, float] = (0.7, 0.7, 0.7)  # displayColor: the texture's mean on the mesh


def _mesh(stage: Usd.Stage, path: str, vertices: np.ndarray, faces: np.ndarray) -> UsdGeom.Mesh:
    mesh = UsdGeom.Mesh.Define(stage, path)
    mesh.CreatePointsAttr(Vt.Vec3fArray.FromNumpy(np.asarray(vertices, np.float32)))
    mesh.CreateFaceVertexCountsAttr(Vt.IntArray([3] * len(faces)))
    mesh.CreateFaceVertexIndicesAttr(Vt.IntArray(np.asarray(faces, int).ravel().tolist()))
    mesh.CreateSubdivisionSchemeAttr(UsdGeom.Tokens.none)
    lo, hi = np.asarray(vertices).min(0), np.asarray(vertices).max(0)
    mesh.CreateExtentAttr(Vt.Vec3fArray([Gf.Vec3f(*map(float, lo)), Gf.Vec3f(*map(float, hi))]))
    return mesh


def _visual_material(stage: Usd.Stage, texture: str) -> UsdShade.Material:
    UsdGeom.Scope.Define(stage, "/Asset/Looks")
    material = UsdShade.Material.Define(stage, "/Asset/Looks/VisualMaterial")
    surface = UsdShade.Shader.Define(stage, "/Asset/Looks/VisualMaterial/Surface")
    surface.CreateIdAttr("UsdPreviewSurface")
    surface.CreateInput("roughness", Sdf.ValueTypeNames.Float).Set(0.7)
    reader = UsdShade.Shader.Define(stage, "/Asset/Looks/VisualMaterial/StReader")
    reader.CreateIdAttr("UsdPrimvarReader_float2")
    reader.CreateInput("varname", Sdf.ValueTypeNames.String).Set("st")
    image = UsdShade.Shader.Define(stage, "/Asset/Looks/VisualMaterial/Texture")
    image.CreateIdAttr("UsdUVTexture")
    image.CreateInput("file", Sdf.ValueTypeNames.Asset).Set(Sdf.AssetPath(f"./{texture}"))
    image.CreateInput("sourceColorSpace", Sdf.ValueTypeNames.Token).Set("sRGB")
    image.CreateInput("st", Sdf.ValueTypeNames.Float2).ConnectToSource(reader.ConnectableAPI(), "result")
    image.CreateOutput("rgb", Sdf.ValueTypeNames.Float3)
    surface.CreateInput("diffuseColor", Sdf.ValueTypeNames.Color3f).ConnectToSource(image.ConnectableAPI(), "rgb")
    material.CreateSurfaceOutput().ConnectToSource(surface.ConnectableAPI(), "surface")
    return material


def _physics_material(stage: Usd.Stage, friction: float) -> UsdShade.Material:
    material = UsdShade.Material.Define(stage, "/Asset/Looks/PhysicsMaterial")
    api = UsdPhysics.MaterialAPI.Apply(material.GetPrim())
    api.CreateStaticFrictionAttr(float(friction))
    api.CreateDynamicFrictionAttr(float(friction))
    api.CreateRestitutionAttr(0.0)
    return material


def _small_body(prim: Usd.Prim, damping: float) -> None:
    """PhysX's CCD and damping (``PhysxRigidBodyAPI``; UsdPhysics has neither)."""
    prim.AddAppliedSchema("PhysxRigidBodyAPI")
    prim.CreateAttribute("physxRigidBody:enableCCD", Sdf.ValueTypeNames.Bool, False).Set(True)
    for kind in ("linear", "angular"):
        prim.CreateAttribute(f"physxRigidBody:{kind}Damping", Sdf.ValueTypeNames.Float, False).Set(float(damping))


def _vertex_limit(prim: Usd.Prim, count: int) -> None:
    """PhysX's ``hullVertexLimit`` and Newton's ``maxHullVertices`` (both default to 64)."""
    if count > HULL_VERTEX_LIMIT:
        raise ValueError(f"{prim.GetPath()}: {count} hull vertices, more than {HULL_VERTEX_LIMIT}")
    prim.AddAppliedSchema("PhysxConvexHullCollisionAPI")
    prim.CreateAttribute("physxConvexHullCollision:hullVertexLimit", Sdf.ValueTypeNames.Int, False).Set(
        HULL_VERTEX_LIMIT
    )
    prim.AddAppliedSchema("NewtonMeshCollisionAPI")
    prim.CreateAttribute("newton:maxHullVertices", Sdf.ValueTypeNames.Int, False).Set(HULL_VERTEX_LIMIT)


def physics_errors(stage: Usd.Stage) -> list[str]:
    """What breaks the asset's physics layout: a rigid body other than ``/Asset``, or under another;
    a mass API off the body; a collision API off a ``/Asset/Collision`` mesh."""
    errors = []
    root = stage.GetDefaultPrim()
    for prim in stage.Traverse():
        path = prim.GetPath()
        if prim.HasAPI(UsdPhysics.RigidBodyAPI) and prim != root:
            errors.append(f"{path}: nested rigid body")
        if prim.HasAPI(UsdPhysics.MassAPI) and prim != root:
            errors.append(f"{path}: mass API off the rigid body")
        if prim.HasAPI(UsdPhysics.CollisionAPI) and (
            path.GetParentPath() != "/Asset/Collision" or not prim.IsA(UsdGeom.Mesh)
        ):
            errors.append(f"{path}: collision API off a collision mesh")
    if not root or not root.HasAPI(UsdPhysics.RigidBodyAPI):
        errors.append("/Asset: not a rigid body")
    return errors


def write_asset_usd(path: Path, asset: AssetGeometry) -> None:
    """Author ``asset.usda`` at ``path`` (deterministic: same asset, same bytes)."""
    stage = Usd.Stage.CreateInMemory()
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.z)
    UsdGeom.SetStageMetersPerUnit(stage, 1.0)
    UsdPhysics.SetStageKilogramsPerUnit(stage, 1.0)
    root = UsdGeom.Xform.Define(stage, "/Asset")
    stage.SetDefaultPrim(root.GetPrim())
    root.GetPrim().SetMetadata("kind", "component")
    root.GetPrim().SetCustomDataByKey("housebench:asset", asset.name)
    UsdPhysics.RigidBodyAPI.Apply(root.GetPrim())
    mass = UsdPhysics.MassAPI.Apply(root.GetPrim())
    mass.CreateMassAttr(float(asset.mass))
    mass.CreateCenterOfMassAttr(Gf.Vec3f(*map(float, asset.com)))
    mass.CreateDiagonalInertiaAttr(Gf.Vec3f(*map(float, asset.principal)))
    w, x, y, z = map(float, asset.axes_quat)
    mass.CreatePrincipalAxesAttr(Gf.Quatf(w, x, y, z))
    if asset.damping:
        _small_body(root.GetPrim(), asset.damping)

    visual = _mesh(stage, "/Asset/Visual", asset.vertices, asset.faces)
    visual.CreateDisplayColorAttr(Vt.Vec3fArray([Gf.Vec3f(*map(float, asset.color))]))
    st = UsdGeom.PrimvarsAPI(visual).CreatePrimvar("st", Sdf.ValueTypeNames.TexCoord2fArray, UsdGeom.Tokens.vertex)
    st.Set(Vt.Vec2fArray.FromNumpy(np.asarray(asset.uv, np.float32)))
    UsdShade.MaterialBindingAPI.Apply(visual.GetPrim()).Bind(_visual_material(stage, asset.texture))

    UsdGeom.Scope.Define(stage, "/Asset/Collision")
    physics_material = _physics_material(stage, asset.friction)
    for i, (v, f) in enumerate(asset.hulls):
        hull = _mesh(stage, f"/Asset/Collision/hull_{i:03d}", v, f)
        hull.CreatePurposeAttr(UsdGeom.Tokens.guide)
        UsdPhysics.CollisionAPI.Apply(hull.GetPrim())
        UsdPhysics.MeshCollisionAPI.Apply(hull.GetPrim()).CreateApproximationAttr(UsdPhysics.Tokens.convexHull)
        _vertex_limit(hull.GetPrim(), len(v))
        UsdShade.MaterialBindingAPI.Apply(hull.GetPrim()).Bind(
            physics_material, UsdShade.Tokens.weakerThanDescendants, "physics"
        )
    errors = physics_errors(stage)
    if errors:
        raise ValueError(f"asset.usda physics layout: {'; '.join(errors)}")
    Path(path).write_text(stage.GetRootLayer().ExportToString())
