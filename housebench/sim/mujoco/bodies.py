"""USD prims -> MjSpec geoms and bodies: house boxes, props (free bodies), articulated parts.

Collision classes (bit = ``contype``, ``conaffinity`` = the classes it touches): the static house
(1) touches the robot, props and moving parts; the robot (2) touches everything but itself; props (4)
and moving parts (8) touch everything. A closed part keeps a gap to the frame it sits in
(:data:`housebench.house.parts.CLEAR`), so it rests without contact and stops against the furniture
in its way.
"""

from __future__ import annotations

from collections.abc import Callable

import mujoco
import numpy as np
from pxr import Gf, Usd, UsdGeom, UsdPhysics, UsdShade

HOUSE, ROBOT, PROP, PART = 1, 2, 4, 8
VISUAL_GROUP, HULL_GROUP = 2, 3  # geom groups of visual-only meshes and of mesh colliders (boxes, spheres: 0)
MATTE = "matte"  # material of box geoms (no specular highlights); the scene spec defines it
ALL = HOUSE | ROBOT | PROP | PART
AFFINITY = {HOUSE: ROBOT | PROP | PART, ROBOT: HOUSE | PROP | PART, PROP: ALL, PART: ALL}


def rigid(matrix: Gf.Matrix4d) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Translation, quaternion (w, x, y, z) and the scale-free 4x4 matrix (row-vector convention)."""
    xf = Gf.Transform(matrix)
    quat = xf.GetRotation().GetQuat()
    frame = Gf.Matrix4d().SetRotate(xf.GetRotation()).SetTranslateOnly(xf.GetTranslation())
    return (np.array(xf.GetTranslation()), np.array([quat.GetReal(), *quat.GetImaginary()]), np.array(frame))


def to_frame(points: np.ndarray, world: Gf.Matrix4d | np.ndarray, frame: np.ndarray) -> np.ndarray:
    """Points in a prim's local space -> world (incl. scale) -> a body frame."""
    homo = np.hstack([points, np.ones((len(points), 1))])
    return (homo @ np.array(world) @ np.linalg.inv(frame))[:, :3]


def _collides(geom: mujoco.MjsGeom, cls: int) -> None:
    geom.contype, geom.conaffinity = cls, AFFINITY[cls]


def _friction(geom: mujoco.MjsGeom, prim: Usd.Prim) -> None:
    material, _ = UsdShade.MaterialBindingAPI(prim).ComputeBoundMaterial("physics")
    attr = UsdPhysics.MaterialAPI(material.GetPrim()).GetDynamicFrictionAttr() if material else None
    if attr and attr.HasAuthoredValue():
        geom.friction = [float(attr.Get()), 0.005, 0.0001]


def _color(prim: Usd.Prim) -> list[float]:
    colors = UsdGeom.Gprim(prim).GetDisplayColorAttr().Get()
    return [*colors[0], 1.0] if colors else [0.7, 0.7, 0.7, 1.0]


def add_box(
    body: mujoco.MjsBody, prim: Usd.Prim, world: Gf.Matrix4d, frame: np.ndarray, cls: int, name: str
) -> mujoco.MjsGeom:
    """A ``UsdGeom.Cube`` (any translate/rotate/scale) as a box geom of ``body`` (frame: its pose)."""
    _, quat, cube = rigid(world)
    half = 0.5 * UsdGeom.Cube(prim).GetSizeAttr().Get() * np.array(Gf.Transform(world).GetScale())
    local = cube @ np.linalg.inv(frame)
    _, lquat, _ = rigid(Gf.Matrix4d(local.tolist()))
    geom = body.add_geom(
        name=name,
        type=mujoco.mjtGeom.mjGEOM_BOX,
        size=half,
        pos=local[3, :3],
        quat=lquat,
        rgba=_color(prim),
        material=MATTE,
    )
    _collides(geom, cls)
    _friction(geom, prim)
    return geom


def _sphere(body: mujoco.MjsBody, prim: Usd.Prim, world: Gf.Matrix4d, frame: np.ndarray, cls: int, name: str) -> None:
    """A ``UsdGeom.Sphere`` (uniformly scaled) as a sphere geom of ``body``."""
    radius = UsdGeom.Sphere(prim).GetRadiusAttr().Get() * max(Gf.Transform(world).GetScale())
    centre = to_frame(np.zeros((1, 3)), world, frame)[0]
    geom = body.add_geom(
        name=name, type=mujoco.mjtGeom.mjGEOM_SPHERE, size=[radius, 0, 0], pos=centre, rgba=_color(prim), material=MATTE
    )
    _collides(geom, cls)
    _friction(geom, prim)


def _mesh_geom(spec: mujoco.MjSpec, body: mujoco.MjsBody, prim: Usd.Prim, verts: np.ndarray, cls: int | None) -> None:
    name = f"{body.name}/{prim.GetName()}"
    mesh = spec.add_mesh(name=name, uservert=verts.ravel().tolist())
    if cls is not None:
        geom = body.add_geom(
            name=name, type=mujoco.mjtGeom.mjGEOM_MESH, meshname=name, group=HULL_GROUP, rgba=_color(prim)
        )
        _collides(geom, cls)
        _friction(geom, prim)
        return
    counts = np.array(UsdGeom.Mesh(prim).GetFaceVertexCountsAttr().Get())
    index = np.array(UsdGeom.Mesh(prim).GetFaceVertexIndicesAttr().Get())
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    tris = [[index[s], index[s + k], index[s + k + 1]] for s, n in zip(starts, counts) for k in range(1, n - 1)]
    mesh.userface = np.array(tris).ravel().tolist()
    mesh.inertia = mujoco.mjtMeshInertia.mjMESH_INERTIA_SHELL
    body.add_geom(
        name=name,
        type=mujoco.mjtGeom.mjGEOM_MESH,
        meshname=name,
        group=VISUAL_GROUP,
        contype=0,
        conaffinity=0,
        density=0,
        rgba=_color(prim),
    )


def _mass(body: mujoco.MjsBody, prim: Usd.Prim, world: Gf.Matrix4d, frame: np.ndarray) -> None:
    mass = UsdPhysics.MassAPI(prim)
    if not prim.HasAPI(UsdPhysics.MassAPI) or (mass.GetMassAttr().Get() or 0) <= 0:
        return
    com_attr = mass.GetCenterOfMassAttr()  # unauthored: UsdPhysics' fallback is -inf ("not given")
    com = np.array(com_attr.Get() if com_attr.HasAuthoredValue() else (0, 0, 0), dtype=float)[None]
    axes = mass.GetPrincipalAxesAttr().Get()
    if axes is None or axes.GetLength() < 1e-9:  # unauthored fallback is (0, 0, 0, 0)
        axes = Gf.Quatf(1, 0, 0, 0)
    body.explicitinertial = True
    body.mass = float(mass.GetMassAttr().Get())
    body.ipos = to_frame(com, world, frame)[0]
    body.iquat = [axes.GetReal(), *axes.GetImaginary()]
    body.inertia = list(mass.GetDiagonalInertiaAttr().Get())


def add_rigid_body(
    spec: mujoco.MjSpec, prim: Usd.Prim, cache: UsdGeom.XformCache, name: str, cls: int, dress: Callable | None = None
) -> mujoco.MjsBody:
    """A rigid body prim as a world child at its pose: mass from ``PhysicsMassAPI`` (mass, or the
    density of its geoms), convex mesh colliders, visual meshes, box and sphere geoms for its Cubes and
    Spheres, all in collision class ``cls``; ``dress(spec, body, geom, prim, world)`` is called on each box
    geom (the house's looks, :func:`housebench.sim.mujoco.looks.dress_box`). The caller adds its joint (free for
    props, hinge or slide for parts)."""
    world = cache.GetLocalToWorldTransform(prim)
    pos, quat, frame = rigid(world)
    body = spec.worldbody.add_body(name=name, pos=pos, quat=quat)
    _mass(body, prim, world, frame)
    density = UsdPhysics.MassAPI(prim).GetDensityAttr().Get() if prim.HasAPI(UsdPhysics.MassAPI) else None
    for child in Usd.PrimRange(prim, Usd.TraverseInstanceProxies()):
        child_world = cache.GetLocalToWorldTransform(child)
        if child.IsA(UsdGeom.Cube) and child.HasAPI(UsdPhysics.CollisionAPI):
            geom = add_box(body, child, child_world, frame, cls, f"{name}/{child.GetName()}")
            if dress is not None:
                dress(spec, body, geom, child, child_world)
            if density:
                geom.density = float(density)
        elif child.IsA(UsdGeom.Sphere) and child.HasAPI(UsdPhysics.CollisionAPI):
            _sphere(body, child, child_world, frame, cls, f"{name}/{child.GetName()}")
        elif child.IsA(UsdGeom.Mesh):
            points = np.array(UsdGeom.Mesh(child).GetPointsAttr().Get(), dtype=float)
            _mesh_geom(
                spec,
                body,
                child,
                to_frame(points, child_world, frame),
                cls if child.HasAPI(UsdPhysics.CollisionAPI) else None,
            )
    return body
