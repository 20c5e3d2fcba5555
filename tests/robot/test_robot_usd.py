"""The committed robot USD (``housebench/robot/fetch.usda``) against the MuJoCo backend's Fetch: same
joints, types, limits, drive gains and armature; a real articulation with drives, cameras and materials."""

from __future__ import annotations

import math

import mujoco
import pytest
from pxr import Usd, UsdGeom, UsdPhysics, UsdShade

from housebench.robot.fetch import BASE_JOINTS, HOME, PREFIX, USD_ASSET
from housebench.robot.model import fetch_spec
from housebench.robot.usd_asset import actuator_gains


@pytest.fixture(scope="module")
def stage() -> Usd.Stage:
    return Usd.Stage.Open(str(USD_ASSET))


@pytest.fixture(scope="module")
def model() -> mujoco.MjModel:
    return fetch_spec().compile()


def _joints(stage: Usd.Stage) -> dict[str, Usd.Prim]:
    return {
        PREFIX + p.GetName(): p
        for p in stage.Traverse()
        if p.IsA(UsdPhysics.RevoluteJoint) or p.IsA(UsdPhysics.PrismaticJoint)
    }


def test_same_joints_types_limits_damping_and_armature(stage, model):
    joints = _joints(stage)
    assert set(joints) == {PREFIX + model.joint(j).name for j in range(model.njnt)}
    for j in range(model.njnt):
        name, prim = PREFIX + model.joint(j).name, joints[PREFIX + model.joint(j).name]
        hinge = model.jnt_type[j] == mujoco.mjtJoint.mjJNT_HINGE
        assert prim.IsA(UsdPhysics.RevoluteJoint) == hinge, name
        joint = UsdPhysics.RevoluteJoint(prim) if hinge else UsdPhysics.PrismaticJoint(prim)
        lo, hi = joint.GetLowerLimitAttr().Get(), joint.GetUpperLimitAttr().Get()
        if model.jnt_limited[j]:
            unit = 180.0 / math.pi if hinge else 1.0
            assert (lo, hi) == pytest.approx(tuple(model.jnt_range[j] * unit), rel=1e-5, abs=1e-6), name
        else:
            assert lo is None or math.isinf(lo), name
        dof = model.jnt_dofadr[j]
        assert prim.GetAttribute("newton:armature").Get() == pytest.approx(model.dof_armature[dof], rel=1e-6), name
        damping = model.dof_damping[dof] * (math.pi / 180.0 if hinge else 1.0)  # per degree
        assert prim.GetAttribute("newton:damping").Get() == pytest.approx(damping, rel=1e-6), name


def test_a_drive_on_every_actuated_joint_with_the_backends_gains(stage, model):
    joints = _joints(stage)
    gains = actuator_gains()
    assert set(gains) == {PREFIX + model.joint(model.actuator_trnid[a, 0]).name for a in range(model.nu)}
    assert set(gains) == set(joints)  # every joint is actuated
    targets = {**dict.fromkeys(BASE_JOINTS, 0.0), **HOME}
    for name, (kp, kv, max_force) in gains.items():
        angular = joints[name].IsA(UsdPhysics.RevoluteJoint)
        unit = math.pi / 180.0 if angular else 1.0
        drive = UsdPhysics.DriveAPI.Get(joints[name], "angular" if angular else "linear")
        assert drive.GetStiffnessAttr().Get() == pytest.approx(kp * unit, rel=1e-5), name
        assert drive.GetDampingAttr().Get() == pytest.approx(kv * unit, rel=1e-5), name
        assert drive.GetTargetPositionAttr().Get() == pytest.approx(targets[name] / unit, abs=1e-5), name
        assert (drive.GetMaxForceAttr().Get() or math.inf) == pytest.approx(max_force), name  # unset: no limit
        a = model.actuator(name.removeprefix(PREFIX)).id
        assert (kp, kv) == (model.actuator_gainprm[a, 0], -model.actuator_biasprm[a, 2])
    assert any(math.isfinite(f) for _, _, f in gains.values())  # the arm's torque limits


def test_planar_base_articulation_cameras_gravity_and_materials(stage):
    joints = _joints(stage)
    axes = {n: joints[n].GetAttribute("physics:axis").Get() for n in BASE_JOINTS}
    kinds = {n: joints[n].GetTypeName() for n in BASE_JOINTS}
    assert list(axes.values()) == ["X", "Y", "Z"]
    assert list(kinds.values()) == ["PhysicsPrismaticJoint", "PhysicsPrismaticJoint", "PhysicsRevoluteJoint"]
    roots = [p for p in stage.Traverse() if p.HasAPI(UsdPhysics.ArticulationRootAPI)]
    assert [r.GetName() for r in roots] == ["base_x"]
    base_x = UsdPhysics.Joint(joints[BASE_JOINTS[0]])
    assert base_x.GetBody0Rel().GetTargets() == [stage.GetDefaultPrim().GetPath()]  # the robot's frame: world
    links = [p for p in stage.Traverse() if p.HasAPI(UsdPhysics.RigidBodyAPI)]
    assert len(links) == 19 and all(p.GetAttribute("physxRigidBody:disableGravity").Get() for p in links)
    assert all(UsdPhysics.MassAPI(p).GetMassAttr().Get() > 0 for p in links)  # no massless body
    cameras = {p.GetName() for p in stage.Traverse() if p.IsA(UsdGeom.Camera)}
    assert cameras == {"head", "third"}
    colliders = [p for p in stage.Traverse() if p.HasAPI(UsdPhysics.CollisionAPI)]
    assert colliders and all(UsdShade.MaterialBindingAPI(p).ComputeBoundMaterial("physics")[0] for p in colliders)
