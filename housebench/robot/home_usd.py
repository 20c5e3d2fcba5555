"""The robot's home pose authored over a scene's robot reference: its links where the home joint values put them,
and every joint's state (PhysX's ``PhysicsJointStateAPI``, which Isaac Sim and Newton's importer read), so any
UsdPhysics engine starts the robot tucked. pxr only: the house stage imports it before it chooses a GL backend."""

from __future__ import annotations

import math

from pxr import Gf, Sdf, Usd, UsdGeom, UsdPhysics

from housebench.robot.fetch import BASE_JOINTS, HOME, PREFIX

AXES = {"X": Gf.Vec3d.XAxis(), "Y": Gf.Vec3d.YAxis(), "Z": Gf.Vec3d.ZAxis()}


def home_joints() -> dict[str, float]:
    """Every joint of the robot USD at the start of a scene: the base at its prim's origin, the rest at
    :data:`HOME` (radians or metres)."""
    return {**dict.fromkeys(BASE_JOINTS, 0.0), **HOME}


def _frame(pos: Gf.Vec3f, rot: Gf.Quatf) -> Gf.Matrix4d:
    """A joint frame (``localPos``, ``localRot``) in its body's frame (row vectors, as Gf)."""
    return Gf.Matrix4d().SetTransform(Gf.Rotation(Gf.Quatd(rot)), Gf.Vec3d(pos))


def _world(prim: Usd.Prim) -> Gf.Matrix4d:
    return UsdGeom.Xformable(prim).ComputeLocalToWorldTransform(Usd.TimeCode.Default())


def author_home(stage: Usd.Stage, robot: str, joints: dict[str, float] | None = None) -> None:
    """Over the robot referenced at ``robot`` in ``stage``'s edit target: each revolute or prismatic
    joint's child link where the joint at its value in ``joints`` (default :func:`home_joints`) puts it
    (the link's translate and orient ops, relative to its parent prim, found from the joint's own frames
    ``localPos0/1``, ``localRot0/1`` and axis), and the joint's state ``state:<angular|linear>:physics:
    position`` (degrees or metres) and ``velocity`` 0 under ``PhysicsJointStateAPI``. Parents first, so a
    link's pose is taken from its posed parent."""
    values = home_joints() if joints is None else joints
    found = [p for p in Usd.PrimRange(stage.GetPrimAtPath(robot)) if p.IsA(UsdPhysics.Joint)]
    moving = [p for p in found if p.IsA(UsdPhysics.RevoluteJoint) or p.IsA(UsdPhysics.PrismaticJoint)]
    assert {PREFIX + p.GetName() for p in moving} == set(values), f"{robot}: joints differ from {sorted(values)}"
    for prim in sorted(moving, key=lambda p: p.GetPath().pathElementCount):
        joint = UsdPhysics.Joint(prim)
        body0, body1 = (stage.GetPrimAtPath(r.GetTargets()[0]) for r in (joint.GetBody0Rel(), joint.GetBody1Rel()))
        q, angular = values[PREFIX + prim.GetName()], prim.IsA(UsdPhysics.RevoluteJoint)
        axis = AXES[prim.GetAttribute("physics:axis").Get()]
        motion = Gf.Matrix4d()
        if angular:
            motion.SetRotate(Gf.Rotation(axis, math.degrees(q)))
        else:
            motion.SetTranslate(axis * q)
        frame0 = _frame(joint.GetLocalPos0Attr().Get(), joint.GetLocalRot0Attr().Get())
        frame1 = _frame(joint.GetLocalPos1Attr().Get(), joint.GetLocalRot1Attr().Get())
        local = frame1.GetInverse() * motion * frame0 * _world(body0) * _world(body1.GetParent()).GetInverse()
        pose = Gf.Transform(local)
        ops = {op.GetOpType(): op for op in UsdGeom.Xformable(body1).GetOrderedXformOps()}
        ops[UsdGeom.XformOp.TypeTranslate].Set(Gf.Vec3d(*(round(v, 7) for v in pose.GetTranslation())))
        ops[UsdGeom.XformOp.TypeOrient].Set(Gf.Quatf(pose.GetRotation().GetQuat()))
        kind = "angular" if angular else "linear"
        prim.AddAppliedSchema(f"PhysicsJointStateAPI:{kind}")
        state = f"state:{kind}:physics:"
        position = math.degrees(q) if angular else q
        prim.CreateAttribute(state + "position", Sdf.ValueTypeNames.Float, False).Set(position)
        prim.CreateAttribute(state + "velocity", Sdf.ValueTypeNames.Float, False).Set(0.0)
