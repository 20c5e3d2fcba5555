"""The scene file says where the robot starts (issue 31 item 4): in a settled scene of the small build, read
with pxr alone, every link of ``/World/Robot`` sits where the MuJoCo kinematic model's forward kinematics at
the home pose puts it (the base at the scene's start pose), and every joint carries its home value as PhysX's
joint state (``PhysicsJointStateAPI``: degrees or metres), which Isaac Sim and Newton's importer read. So an
engine that reads the scene alone starts the arm tucked, as the MuJoCo backend's keyframe does. Newton's
importer itself on the same scene: ``tests/sim/test_newton_home.py`` (where newton is installed)."""

from __future__ import annotations

import math

import mujoco
import numpy as np
import pytest
from pxr import Gf, Usd, UsdGeom, UsdPhysics

from housebench.robot.fetch import BASE_JOINTS, HOME, PREFIX, home_qpos
from housebench.robot.model import fetch_spec
from housebench.sim.mujoco import MujocoBackend
from housebench.usd.paths import ROBOT_PATH

PAIR = ("put_fruit_in_container", "v000")
CARRIERS = {"base_x", "base_y"}  # the planar base's carrier bodies: the USD's only, MuJoCo has joints there


@pytest.fixture(scope="module")
def scene(built_layout):
    return built_layout.settled_scene(*PAIR)


@pytest.fixture(scope="module")
def stage(scene) -> Usd.Stage:
    return Usd.Stage.Open(str(scene))


def _start(stage: Usd.Stage) -> tuple[float, float, float]:
    xf = Gf.Transform(UsdGeom.Xformable(stage.GetPrimAtPath(ROBOT_PATH)).ComputeLocalToWorldTransform(0))
    quat = xf.GetRotation().GetQuat()
    return xf.GetTranslation()[0], xf.GetTranslation()[1], 2 * math.atan2(quat.GetImaginary()[2], quat.GetReal())


def _joints(stage: Usd.Stage) -> dict[str, Usd.Prim]:
    return {
        PREFIX + p.GetName(): p
        for p in Usd.PrimRange(stage.GetPrimAtPath(ROBOT_PATH))
        if p.IsA(UsdPhysics.RevoluteJoint) or p.IsA(UsdPhysics.PrismaticJoint)
    }


def test_every_link_sits_where_the_kinematic_model_puts_it_at_home(stage):
    model = fetch_spec().compile()
    data = mujoco.MjData(model)
    for name, value in home_qpos(_start(stage)).items():
        data.qpos[model.joint(name.removeprefix(PREFIX)).qposadr[0]] = value
    mujoco.mj_kinematics(model, data)
    links = [p for p in Usd.PrimRange(stage.GetPrimAtPath(ROBOT_PATH)) if p.HasAPI(UsdPhysics.RigidBodyAPI)]
    assert len(links) == 19
    checked = set()
    for link in links:
        if link.GetName() in CARRIERS:
            continue
        body = model.body(link.GetName()).id
        world = Gf.Transform(UsdGeom.Xformable(link).ComputeLocalToWorldTransform(0))
        quat = world.GetRotation().GetQuat()
        assert np.array(world.GetTranslation()) == pytest.approx(data.xpos[body], abs=1e-6), link.GetName()
        dot = abs(np.dot([quat.GetReal(), *quat.GetImaginary()], data.xquat[body]))
        assert dot == pytest.approx(1.0, abs=1e-9), link.GetName()  # the same rotation (1e-9: 0.005 deg)
        checked.add(link.GetName())
    assert {"gripper_link", "wrist_roll_link", "head_tilt_link", "l_gripper_finger_link"} <= checked
    # the tuck: the gripper within the base's footprint, not 1 m ahead of it
    x, y, yaw = _start(stage)
    grip = data.xpos[model.body("gripper_link").id]
    ahead = math.cos(yaw) * (grip[0] - x) + math.sin(yaw) * (grip[1] - y)
    assert ahead < 0.35, ahead


def test_every_joint_carries_its_home_value_as_physx_joint_state(stage):
    joints = _joints(stage)
    expected = {**dict.fromkeys(BASE_JOINTS, 0.0), **HOME}  # the base joints move in /World/Robot's frame
    assert set(joints) == set(expected)
    for name, prim in joints.items():
        kind = "angular" if prim.IsA(UsdPhysics.RevoluteJoint) else "linear"
        # PhysX's schema, not registered in usd-core: GetAppliedSchemas() leaves it out, the prim's type info not
        assert f"PhysicsJointStateAPI:{kind}" in prim.GetPrimTypeInfo().GetAppliedAPISchemas(), name
        value = expected[name] * (180.0 / math.pi if kind == "angular" else 1.0)
        assert prim.GetAttribute(f"state:{kind}:physics:position").Get() == pytest.approx(value, abs=1e-4), name
        assert prim.GetAttribute(f"state:{kind}:physics:velocity").Get() == 0.0, name
        drive = UsdPhysics.DriveAPI.Get(prim, kind)  # the drive holds what the state says
        assert drive.GetTargetPositionAttr().Get() == pytest.approx(value, abs=1e-4), name


def test_the_mujoco_backend_still_starts_from_its_keyframe(scene, stage):
    """MuJoCo reads none of it (it attaches its own Fetch): its start is the home keyframe, as before."""
    sim = MujocoBackend().load(scene)
    joints = sim.get_state().joints
    for name, value in home_qpos(_start(stage)).items():
        assert joints[name] == pytest.approx(value, abs=1e-9), name
