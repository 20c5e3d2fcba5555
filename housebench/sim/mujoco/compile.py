"""Compile a composed USD stage into a MuJoCo model (through ``mujoco.MjSpec``).

- ``UsdGeom.Cube`` colliders outside rigid bodies -> box geoms of static bodies (the house): one body
  per piece of furniture, wall run or floor (``House/<owner>`` for ``/World/House/<owner>/...``), so
  collision's broad phase sees each piece's own bounds; colliders elsewhere go to the world body;
- rigid bodies that are body1 of a UsdPhysics revolute / prismatic joint -> articulated parts on a
  hinge / slide joint named after the part's path under ``/World/House`` (``fridge/door``), see
  :mod:`.joints`;
- other rigid bodies (props) -> bodies with a free joint named after the prim (:mod:`.bodies`);
- the house's looks (:mod:`.looks`): textured visual twins of its boxes, ceilings, room lights;
- ``UsdGeom.Camera`` prims -> cameras named after the path under ``/World/Cameras``;
- ``/World/Robot`` with ``housebench:robot = "fetch"`` -> Fetch (:mod:`housebench.robot.model`),
  its planar base joints set to the prim's x, y and yaw in keyframe ``home``.

Island sleeping (``mjENBL_SLEEP``) is on: a prop or part at rest is taken out of the computation
until something touches it (a contact with an awake body), a user force acts on it, or its state is
set; the actuated robot never sleeps.
"""

from __future__ import annotations

import math
from pathlib import Path

import mujoco
import numpy as np
from pxr import Gf, Sdf, Usd, UsdGeom, UsdPhysics

from housebench.robot import fetch
from housebench.robot.model import fetch_spec, manipulation_options
from housebench.sim.mujoco.bodies import AFFINITY, HOUSE, MATTE, PROP, ROBOT, add_box, add_rigid_body, rigid
from housebench.sim.mujoco.joints import add_part, find_joints
from housebench.sim.mujoco.looks import add_ceilings_and_lights, dress_box
from housebench.usd.paths import CAMERAS, HOUSE_ROOT

TIMESTEP = 0.002
HOME_KEY = "home"
_WORLD = np.eye(4)


def _free_damping(prim: Usd.Prim) -> float:
    """A small light prop's damping, authored in PhysX's terms (``physxRigidBody:angularDamping``)."""
    attr = prim.GetAttribute("physxRigidBody:angularDamping")
    return float(attr.Get()) if attr and attr.HasAuthoredValue() else 0.0


def _robot_start(world: Gf.Matrix4d) -> tuple[float, float, float]:
    pos, _, frame = rigid(world)
    return float(pos[0]), float(pos[1]), math.atan2(frame[0, 1], frame[0, 0])


def _name(path: Sdf.Path, under: str) -> str:
    """``path`` relative to the prim ``under`` (e.g. ``/World/House/fridge/door`` -> ``fridge/door``)."""
    return str(path.MakeRelativePath(Sdf.Path(under)))


def _add_camera(spec: mujoco.MjSpec, prim: Usd.Prim, world: Gf.Matrix4d) -> None:
    """A USD camera (looks down its -Z, Y up, like MuJoCo's); apertures are tenths of a metre."""
    cam = UsdGeom.Camera(prim)
    pos, quat, _ = rigid(world)
    aperture = cam.GetVerticalApertureAttr().Get() / 10.0
    if cam.GetProjectionAttr().Get() == UsdGeom.Tokens.orthographic:
        spec.worldbody.add_camera(
            name=_name(prim.GetPath(), CAMERAS),
            pos=pos,
            quat=quat,
            fovy=aperture,
            proj=mujoco.mjtProjection.mjPROJ_ORTHOGRAPHIC,
        )
    else:
        fovy = math.degrees(2 * math.atan(aperture / (2 * cam.GetFocalLengthAttr().Get() / 10.0)))
        spec.worldbody.add_camera(name=_name(prim.GetPath(), CAMERAS), pos=pos, quat=quat, fovy=fovy)


def _scene_spec() -> mujoco.MjSpec:
    spec = mujoco.MjSpec()
    spec.option.timestep = TIMESTEP
    spec.option.integrator = mujoco.mjtIntegrator.mjINT_IMPLICITFAST
    spec.option.enableflags |= mujoco.mjtEnableBit.mjENBL_SLEEP
    manipulation_options(spec.option)
    spec.visual.global_.offwidth, spec.visual.global_.offheight = 1920, 1440
    spec.visual.headlight.ambient, spec.visual.headlight.diffuse = [0.3] * 3, [0.3] * 3
    spec.worldbody.add_light(
        name="sun",
        pos=[0, 0, 5],
        dir=[0.3, 0.2, -1],
        diffuse=[0.45] * 3,
        type=mujoco.mjtLightType.mjLIGHT_DIRECTIONAL,
        castshadow=0,
    )
    spec.add_material(name=MATTE, specular=0.0, shininess=0.0)
    return spec


def _static_body(spec: mujoco.MjSpec, bodies: dict[str, mujoco.MjsBody], path: Sdf.Path) -> mujoco.MjsBody:
    """The static body (at the origin, no joint) of the house piece that ``path`` belongs to."""
    root = Sdf.Path(HOUSE_ROOT)
    if not path.HasPrefix(root) or path.pathElementCount <= root.pathElementCount + 1:
        return spec.worldbody
    owner = _name(path.GetPrefixes()[root.pathElementCount], "/World")
    if owner not in bodies:
        bodies[owner] = spec.worldbody.add_body(name=owner)
    return bodies[owner]


def compile_stage(stage: Usd.Stage) -> mujoco.MjModel:
    """The MuJoCo model of a composed stage; keyframe 0 (``home``) holds the initial state and the
    actuator targets that keep it (props where the stage puts them, parts closed, robot at its
    start pose)."""
    spec, cache, robot_start, statics = _scene_spec(), UsdGeom.XformCache(), None, {}
    joints = find_joints(stage)
    it = iter(stage.Traverse(Usd.TraverseInstanceProxies()))
    for prim in it:
        world = cache.GetLocalToWorldTransform(prim)
        if prim.HasAPI(UsdPhysics.RigidBodyAPI):
            path = str(prim.GetPath())
            if path in joints:
                add_part(spec, prim, joints[path], cache, _name(prim.GetPath(), HOUSE_ROOT))
            else:
                body = add_rigid_body(spec, prim, cache, prim.GetName(), PROP)
                body.add_freejoint(name=prim.GetName()).damping = [_free_damping(prim), 0.0, 0.0]
            it.PruneChildren()
        elif prim.IsA(UsdGeom.Cube) and prim.HasAPI(UsdPhysics.CollisionAPI):
            body = _static_body(spec, statics, prim.GetPath())
            geom = add_box(body, prim, world, _WORLD, HOUSE, _name(prim.GetPath(), "/World"))
            dress_box(spec, body, geom, prim, world)
        elif prim.IsA(UsdGeom.Camera):
            _add_camera(spec, prim, world)
        elif prim.GetAttribute("housebench:robot").Get() == "fetch":
            robot_start = _robot_start(world)
            spec.attach(fetch_spec(ROBOT, AFFINITY[ROBOT]), prefix=fetch.PREFIX, frame=spec.worldbody.add_frame())
            it.PruneChildren()  # the robot's USD articulation: MuJoCo has its own model of it
    add_ceilings_and_lights(spec, stage)
    spec.add_key(name=HOME_KEY)
    model = spec.compile()
    for name, value in (fetch.home_qpos(robot_start) if robot_start else {}).items():
        model.key_qpos[0, model.joint(name).qposadr[0]] = value
    act_joints = model.actuator_trnid[:, 0]
    model.key_ctrl[0] = model.key_qpos[0, model.jnt_qposadr[act_joints]]
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
