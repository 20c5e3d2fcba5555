"""UsdPhysics revolute / prismatic joints -> MuJoCo hinge / slide joints of articulated parts.

body1 is the moving part (a rigid body); body0 is unset (the world) or a static prim. The joint
frame is ``localPos0/localRot0`` in body0's frame; the axis token picks X, Y or Z of that frame.
Revolute limits and drive gains are per degree in USD; MuJoCo takes ranges in the spec's angle
unit (degrees by default) and gains per radian. The drive's
stiffness becomes a joint spring towards q = 0 (``springref``), its damping the joint damping.
"""

from __future__ import annotations

import math

import mujoco
import numpy as np
from pxr import Gf, Sdf, Usd, UsdGeom, UsdPhysics

from housebench.sim.mujoco.bodies import PART, add_rigid_body, rigid
from housebench.sim.mujoco.looks import dress_box
from housebench.usd.paths import ROBOT_PATH

ROBOT = Sdf.Path(ROBOT_PATH)  # the robot's own joints: the backend attaches its own model of the robot
ARMATURE = 0.002  # rotor inertia of a part joint that authors none (``newton:armature``, SI units)
_AXES = {"X": (1.0, 0.0, 0.0), "Y": (0.0, 1.0, 0.0), "Z": (0.0, 0.0, 1.0)}


def find_joints(stage: Usd.Stage) -> dict[str, Usd.Prim]:
    """``{body1 path: joint prim}`` for every revolute or prismatic joint outside the robot; other joints
    fail loudly."""
    joints = {}
    for prim in stage.Traverse():
        if not prim.IsA(UsdPhysics.Joint) or prim.GetPath().HasPrefix(ROBOT):
            continue
        if not (prim.IsA(UsdPhysics.RevoluteJoint) or prim.IsA(UsdPhysics.PrismaticJoint)):
            raise ValueError(f"{prim.GetPath()}: only revolute and prismatic joints are supported")
        targets = UsdPhysics.Joint(prim).GetBody1Rel().GetTargets()
        if len(targets) != 1:
            raise ValueError(f"{prim.GetPath()}: a joint needs exactly one body1")
        joints[str(targets[0])] = prim
    return joints


def _world_frame(joint: UsdPhysics.Joint, cache: UsdGeom.XformCache) -> tuple[np.ndarray, np.ndarray]:
    """The joint's pivot and axis in world coordinates."""
    body0 = joint.GetBody0Rel().GetTargets()
    parent = (
        cache.GetLocalToWorldTransform(joint.GetPrim().GetStage().GetPrimAtPath(body0[0]))
        if body0
        else Gf.Matrix4d(1.0)
    )
    pos = parent.Transform(Gf.Vec3d(joint.GetLocalPos0Attr().Get()))
    rot = Gf.Rotation(Gf.Quatd(joint.GetLocalRot0Attr().Get()))
    axis = parent.TransformDir(rot.TransformDir(Gf.Vec3d(*_AXES[joint.GetAxisAttr().Get()])))
    return np.array(pos), np.array(axis) / np.linalg.norm(axis)


def add_part(spec: mujoco.MjSpec, prim: Usd.Prim, joint_prim: Usd.Prim, cache: UsdGeom.XformCache, name: str) -> None:
    """The part ``prim`` as a body on a hinge or slide joint named ``name``, closed at q = 0."""
    body = add_rigid_body(spec, prim, cache, name, PART, dress_box)
    revolute = joint_prim.IsA(UsdPhysics.RevoluteJoint)
    joint = UsdPhysics.RevoluteJoint(joint_prim) if revolute else UsdPhysics.PrismaticJoint(joint_prim)
    pivot, axis = _world_frame(joint, cache)
    _, _, frame = rigid(cache.GetLocalToWorldTransform(prim))
    inv = np.linalg.inv(frame)
    unit = math.pi / 180.0 if revolute else 1.0
    spec_unit = 1.0 if (spec.compiler.degree or not revolute) else unit  # MjSpec angles: degrees
    stiffness, damping = _drive(joint_prim, "angular" if revolute else "linear")
    body.add_joint(
        name=name,
        type=mujoco.mjtJoint.mjJNT_HINGE if revolute else mujoco.mjtJoint.mjJNT_SLIDE,
        pos=(np.append(pivot, 1.0) @ inv)[:3],
        axis=axis @ inv[:3, :3],
        range=[joint.GetLowerLimitAttr().Get() * spec_unit, joint.GetUpperLimitAttr().Get() * spec_unit],
        limited=mujoco.mjtLimited.mjLIMITED_TRUE,
        armature=_armature(joint_prim),
        stiffness=[stiffness / unit, 0.0, 0.0],
        damping=[damping / unit, 0.0, 0.0],
    )


def _armature(prim: Usd.Prim) -> float:
    attr = prim.GetAttribute("newton:armature")
    return float(attr.Get()) if attr and attr.HasAuthoredValue() else ARMATURE


def _drive(prim: Usd.Prim, kind: str) -> tuple[float, float]:
    """(stiffness, damping) of the joint's drive, zeros without one."""
    if not prim.HasAPI(UsdPhysics.DriveAPI, kind):
        return 0.0, 0.0
    drive = UsdPhysics.DriveAPI.Get(prim, kind)
    return float(drive.GetStiffnessAttr().Get() or 0.0), float(drive.GetDampingAttr().Get() or 0.0)
