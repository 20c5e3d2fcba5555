"""Fetch as a ``mujoco.MjSpec``, from gymnasium-robotics' ``fetch/pick_and_place.xml`` (no gym): the one
robot model that the MuJoCo backend attaches to a scene and that planning code (IK, collision checks) loads
alone through :func:`kinematic_model`, without touching the physics that runs an episode.

The scene parts (floor, table, object, mocap body and weld, lights, textures incl. the skybox,
gripper actuators) are deleted; the base's x/y/z slides become a planar base (slide x, slide y, hinge yaw; the base
body at the world origin, so joint values are world coordinates). Every joint gets a position actuator named
after it; robot bodies are gravity-compensated, so at rest the actuators hold the initial targets.
Robot geoms get the caller's collision class (``contype``, ``conaffinity``) and never touch each other.
Element names lose the ``robot0:`` prefix in :func:`fetch_spec`; a scene attaches it with ``prefix=PREFIX``.

Set for manipulation (each measured in ``tests/robot/test_grasp_physics.py``): the fingers push at most
``FINGER_FORCE`` newtons (upstream's unlimited kp 3e4 squeezes ~950 N and sinks the pads into what they
hold); the head tilt moves as fast as the pan (upstream damps it 20 times as much); the forearm roll loses
upstream's spring (stiffness 10 pulls it off its target); the roll joints get limits (unlimited, the IK
wanders); a ``pad`` site marks the centre of the finger pads, the grasp frame;
the finger geoms' contacts take their own stiff solver settings (upstream's solimp 0.99, solref 0.01) by
``FINGER_PRIORITY`` rather than their mean with a prop's default (0.9-0.95, 0.02), under which a held
load crept out of the pinch (a bowl with an apple, held by its rim, fell after 40-85 s).
A scene sets an elliptic friction cone with ``IMPRATIO`` (:func:`manipulation_options`).
"""

from __future__ import annotations

import mujoco

from housebench.robot.fetch import (
    BASE_CLEARANCE,
    BASE_JOINTS,
    FINGER_BODIES,
    FINGER_JOINTS,
    HEAD_JOINTS,
    IMPRATIO,
    PREFIX,
    TORSO_JOINT,
    model_dir,
)

# Position gains per joint: (kp, damping ratio or None for no actuator damping).
_GAINS = {
    "base": (2e4, 1.0),
    "yaw": (3e3, 1.0),
    "torso": (1e4, 1.0),
    "arm": (500.0, 1.0),
    "finger": (3e4, None),
    "head": (100.0, 1.0),
}


FINGER_FORCE = 60.0  # newtons, each finger
# N m s/rad of the head tilt: the pan's (Fetch's default class). Upstream's 1000 against the head's gain of 100
# took 10 s per radian (time constant), so a head aimed at what a skill works on lagged it by seconds
HEAD_TILT_DAMPING = 50.0
ROLL_RANGE = 3.1  # rad: limits of the upperarm, forearm and wrist roll joints (unlimited upstream)
PAD = "pad"  # site at the centre of the finger pads (gripper_link origin; the fingertips are 38.5 mm further)
FINGER_PRIORITY = 1  # contact priority of the finger geoms over the props' (0)


def manipulation_options(option: mujoco.MjOption | object) -> None:
    """The scene-wide contact options grasping needs: elliptic friction cone and ``IMPRATIO``."""
    option.cone = mujoco.mjtCone.mjCONE_ELLIPTIC
    option.impratio = IMPRATIO


def _group(joint: str) -> str:
    groups = {
        BASE_JOINTS[0]: "base",
        BASE_JOINTS[1]: "base",
        BASE_JOINTS[2]: "yaw",
        TORSO_JOINT: "torso",
        **dict.fromkeys(FINGER_JOINTS, "finger"),
        **dict.fromkeys(HEAD_JOINTS, "head"),
    }
    return groups.get(joint, "arm")


def _short(name: str) -> str:
    return name[len(PREFIX) :] if name.startswith(PREFIX) else name


def _strip_scene(spec: mujoco.MjSpec) -> None:
    for eq in list(spec.equalities):
        spec.delete(eq)
    for name in ("floor0", "table0", "object0", "robot0:mocap"):
        spec.delete(spec.body(name))
    for item in [*spec.worldbody.geoms, *spec.actuators, *spec.lights, *spec.textures]:
        spec.delete(item)


def _planar_base(spec: mujoco.MjSpec) -> mujoco.MjsBody:
    base = spec.body(f"{PREFIX}base_link")
    for joint in list(base.joints):
        spec.delete(joint)
    base.pos = [0.0, 0.0, BASE_CLEARANCE]
    kinds = (mujoco.mjtJoint.mjJNT_SLIDE, mujoco.mjtJoint.mjJNT_SLIDE, mujoco.mjtJoint.mjJNT_HINGE)
    for name, kind, axis in zip(BASE_JOINTS, kinds, ([1, 0, 0], [0, 1, 0], [0, 0, 1])):
        base.add_joint(name=name, type=kind, axis=axis, armature=1.0)
    return base


def fetch_spec(contype: int = 0, conaffinity: int = 0) -> mujoco.MjSpec:
    """The robot alone: planar base at the origin, a position actuator on every joint; its geoms get
    the collision class ``contype``/``conaffinity`` (no self-contact as long as ``contype & conaffinity``
    is 0)."""
    spec = mujoco.MjSpec.from_file(str(model_dir() / "pick_and_place.xml"))
    _strip_scene(spec)
    base = _planar_base(spec)
    # upstream damping 1e7 freezes the lift under any sane gain
    spec.joint(TORSO_JOINT).damping = [100.0, 0.0, 0.0]
    spec.joint(f"{PREFIX}forearm_roll_joint").stiffness = [0.0, 0.0, 0.0]
    spec.joint(HEAD_JOINTS[1]).damping = [HEAD_TILT_DAMPING, 0.0, 0.0]
    for roll in ("upperarm_roll", "forearm_roll", "wrist_roll"):
        joint = spec.joint(f"{PREFIX}{roll}_joint")
        joint.limited, joint.range = mujoco.mjtLimited.mjLIMITED_TRUE, [-ROLL_RANGE, ROLL_RANGE]
    spec.body(f"{PREFIX}gripper_link").add_site(
        name=PAD, pos=[0.0, 0.0, 0.0], size=[0.01, 0.01, 0.01], rgba=[0, 0, 0, 0]
    )
    for body in [base, *base.find_all(mujoco.mjtObj.mjOBJ_BODY)]:
        body.gravcomp = 1.0
    for geom in base.find_all(mujoco.mjtObj.mjOBJ_GEOM):
        geom.contype, geom.conaffinity = contype, conaffinity
    for finger in FINGER_BODIES.values():
        for geom in spec.body(finger).geoms:
            geom.priority = FINGER_PRIORITY
    for joint in spec.joints:
        kp, ratio = _GAINS[_group(joint.name)]
        act = spec.add_actuator(name=_short(joint.name), target=_short(joint.name), trntype=mujoco.mjtTrn.mjTRN_JOINT)
        act.set_to_position(kp=kp, dampratio=ratio) if ratio else act.set_to_position(kp=kp)
        if joint.name in FINGER_JOINTS:
            act.forcerange, act.forcelimited = [-FINGER_FORCE, FINGER_FORCE], mujoco.mjtLimited.mjLIMITED_TRUE
        if joint.limited == mujoco.mjtLimited.mjLIMITED_TRUE:
            act.ctrlrange = list(joint.range)
            act.ctrllimited = mujoco.mjtLimited.mjLIMITED_TRUE
    for item in [*spec.bodies, *spec.joints, *spec.geoms, *spec.sites, *spec.cameras]:
        item.name = _short(item.name)
    for pair in spec.excludes:
        pair.bodyname1, pair.bodyname2 = _short(pair.bodyname1), _short(pair.bodyname2)
    return spec


def kinematic_model() -> mujoco.MjModel:
    """Fetch alone, compiled, with the simulator's joint names (``robot0:`` prefix) and limits: the model
    an IK library (mink) or a collision checker works on. Robot geoms have ``contype`` 1 and
    ``conaffinity`` 0, so they never touch each other; an obstacle added with ``conaffinity`` 1 touches them."""
    spec = mujoco.MjSpec()
    spec.attach(fetch_spec(contype=1, conaffinity=0), prefix=PREFIX, frame=spec.worldbody.add_frame())
    return spec.compile()
