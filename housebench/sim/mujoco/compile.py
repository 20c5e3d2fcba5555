"""Compile a composed USD stage into a MuJoCo model (through ``mujoco.MjSpec``).

- ``UsdGeom.Cube`` colliders outside rigid bodies -> box geoms of the world body (the house);
- prims with ``PhysicsRigidBodyAPI`` -> bodies with a free joint named after the prim, mass, centre of
  mass and diagonal inertia from ``PhysicsMassAPI``, one convex mesh geom per collision ``Mesh``
  (points in the world frame incl. scale, then in the body frame), friction from the bound physics
  material, and every other ``Mesh`` as a non-colliding visual geom;
- ``/World/Robot`` with ``housebench:robot = "fetch"`` -> Fetch (:mod:`housebench.sim.mujoco.fetch`),
  its planar base joints set to the prim's x, y and yaw in keyframe ``home``.
"""

from __future__ import annotations

import math
from pathlib import Path

import mujoco
import numpy as np
from pxr import Gf, Usd, UsdGeom, UsdPhysics, UsdShade

from housebench.robot import fetch
from housebench.sim.mujoco.fetch import fetch_spec

TIMESTEP = 0.002
HOME_KEY = "home"


def _rigid(matrix: Gf.Matrix4d) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Translation, quaternion (w, x, y, z) and the scale-free 4x4 matrix (row-vector convention)."""
    xf = Gf.Transform(matrix)
    quat = xf.GetRotation().GetQuat()
    rigid = Gf.Matrix4d().SetRotate(xf.GetRotation()).SetTranslateOnly(xf.GetTranslation())
    return (np.array(xf.GetTranslation()), np.array([quat.GetReal(), *quat.GetImaginary()]),
            np.array(rigid))


def _to_frame(points: np.ndarray, world: Gf.Matrix4d, frame_rigid: np.ndarray) -> np.ndarray:
    """Points in a prim's local space -> world (incl. scale) -> a body frame."""
    homo = np.hstack([points, np.ones((len(points), 1))])
    return (homo @ np.array(world) @ np.linalg.inv(frame_rigid))[:, :3]


def _friction(prim: Usd.Prim) -> float | None:
    material, _ = UsdShade.MaterialBindingAPI(prim).ComputeBoundMaterial("physics")
    if not material:
        return None
    attr = UsdPhysics.MaterialAPI(material.GetPrim()).GetDynamicFrictionAttr()
    return float(attr.Get()) if attr.HasAuthoredValue() else None


def _color(prim: Usd.Prim) -> list[float]:
    colors = UsdGeom.Gprim(prim).GetDisplayColorAttr().Get()
    return [*colors[0], 1.0] if colors else [0.7, 0.7, 0.7, 1.0]


def _add_house_box(spec: mujoco.MjSpec, prim: Usd.Prim, world: Gf.Matrix4d) -> None:
    pos, quat, _ = _rigid(world)
    half = 0.5 * UsdGeom.Cube(prim).GetSizeAttr().Get() * np.array(Gf.Transform(world).GetScale())
    geom = spec.worldbody.add_geom(name=str(prim.GetPath())[len("/World/"):],
                                   type=mujoco.mjtGeom.mjGEOM_BOX, size=half, pos=pos, quat=quat,
                                   rgba=_color(prim))
    mu = _friction(prim)
    if mu is not None:
        geom.friction = [mu, 0.005, 0.0001]


def _mesh_geom(spec: mujoco.MjSpec, body: mujoco.MjsBody, prim: Usd.Prim, verts: np.ndarray,
               collide: bool) -> None:
    name = f"{body.name}/{prim.GetName()}"
    mesh = spec.add_mesh(name=name, uservert=verts.ravel().tolist())
    if collide:
        mu = _friction(prim)
        geom = body.add_geom(name=name, type=mujoco.mjtGeom.mjGEOM_MESH, meshname=name, group=3,
                             rgba=_color(prim))
        if mu is not None:
            geom.friction = [mu, 0.005, 0.0001]
        return
    counts = np.array(UsdGeom.Mesh(prim).GetFaceVertexCountsAttr().Get())
    index = np.array(UsdGeom.Mesh(prim).GetFaceVertexIndicesAttr().Get())
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    tris = [[index[s], index[s + k], index[s + k + 1]] for s, n in zip(starts, counts)
            for k in range(1, n - 1)]
    mesh.userface = np.array(tris).ravel().tolist()
    mesh.inertia = mujoco.mjtMeshInertia.mjMESH_INERTIA_SHELL
    body.add_geom(name=name, type=mujoco.mjtGeom.mjGEOM_MESH, meshname=name, group=2,
                  contype=0, conaffinity=0, density=0, rgba=_color(prim))


def _add_rigid_body(spec: mujoco.MjSpec, prim: Usd.Prim, cache: UsdGeom.XformCache) -> None:
    world = cache.GetLocalToWorldTransform(prim)
    pos, quat, rigid = _rigid(world)
    body = spec.worldbody.add_body(name=prim.GetName(), pos=pos, quat=quat)
    body.add_freejoint(name=prim.GetName())
    mass = UsdPhysics.MassAPI(prim)
    if prim.HasAPI(UsdPhysics.MassAPI) and (mass.GetMassAttr().Get() or 0) > 0:
        com = np.array(mass.GetCenterOfMassAttr().Get() or (0, 0, 0), dtype=float)[None]
        axes = mass.GetPrincipalAxesAttr().Get()
        if axes is None or axes.GetLength() < 1e-9:  # unauthored fallback is (0, 0, 0, 0)
            axes = Gf.Quatf(1, 0, 0, 0)
        body.explicitinertial = True
        body.mass = float(mass.GetMassAttr().Get())
        body.ipos = _to_frame(com, world, rigid)[0]
        body.iquat = [axes.GetReal(), *axes.GetImaginary()]
        body.inertia = list(mass.GetDiagonalInertiaAttr().Get())
    for child in Usd.PrimRange(prim, Usd.TraverseInstanceProxies()):
        if not child.IsA(UsdGeom.Mesh):
            continue
        points = np.array(UsdGeom.Mesh(child).GetPointsAttr().Get(), dtype=float)
        verts = _to_frame(points, cache.GetLocalToWorldTransform(child), rigid)
        _mesh_geom(spec, body, child, verts, child.HasAPI(UsdPhysics.CollisionAPI))


def _robot_start(world: Gf.Matrix4d) -> tuple[float, float, float]:
    pos, _, rigid = _rigid(world)
    return float(pos[0]), float(pos[1]), math.atan2(rigid[0, 1], rigid[0, 0])


def _scene_spec() -> mujoco.MjSpec:
    spec = mujoco.MjSpec()
    spec.option.timestep = TIMESTEP
    spec.option.integrator = mujoco.mjtIntegrator.mjINT_IMPLICITFAST
    spec.visual.global_.offwidth, spec.visual.global_.offheight = 1920, 1440
    spec.worldbody.add_light(name="sun", pos=[0, 0, 5], dir=[0.3, 0.2, -1],
                             type=mujoco.mjtLightType.mjLIGHT_DIRECTIONAL,
                             castshadow=0)
    return spec


def compile_stage(stage: Usd.Stage) -> mujoco.MjModel:
    """The MuJoCo model of a composed stage; keyframe 0 (``home``) holds the initial state and the
    actuator targets that keep it (props where the stage puts them, robot at its start pose)."""
    spec, cache, robot_start = _scene_spec(), UsdGeom.XformCache(), None
    rigid_paths = []
    for prim in Usd.PrimRange(stage.GetPseudoRoot(), Usd.TraverseInstanceProxies()):
        path = prim.GetPath()
        if any(path.HasPrefix(p) for p in rigid_paths):
            continue
        if prim.HasAPI(UsdPhysics.RigidBodyAPI):
            rigid_paths.append(path)
            _add_rigid_body(spec, prim, cache)
        elif prim.IsA(UsdGeom.Cube) and prim.HasAPI(UsdPhysics.CollisionAPI):
            _add_house_box(spec, prim, cache.GetLocalToWorldTransform(prim))
        elif prim.GetAttribute("housebench:robot").Get() == "fetch":
            robot_start = _robot_start(cache.GetLocalToWorldTransform(prim))
            spec.attach(fetch_spec(), prefix=fetch.PREFIX, frame=spec.worldbody.add_frame())
    spec.add_key(name=HOME_KEY)
    model = spec.compile()
    for name, value in (fetch.home_qpos(robot_start) if robot_start else {}).items():
        model.key_qpos[0, model.joint(name).qposadr[0]] = value
    joints = model.actuator_trnid[:, 0]
    model.key_ctrl[0] = model.key_qpos[0, model.jnt_qposadr[joints]]
    return model


def open_stage(path: Path) -> Usd.Stage:
    """Open and compose the stage at ``path`` (sublayers, references), failing loudly."""
    stage = Usd.Stage.Open(str(path))
    if stage is None:
        raise FileNotFoundError(f"{path}: cannot open USD stage")
    errors = [f"{e.errorType} at {e.rootSite}" for e in stage.GetCompositionErrors()]
    if errors:
        raise ValueError(f"{path}: composition errors: " + "; ".join(errors))
    return stage
