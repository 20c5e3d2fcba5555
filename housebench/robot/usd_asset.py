"""Fetch as a UsdPhysics articulation, from the same MjSpec the MuJoCo backend attaches.

``python -m housebench.robot.usd_asset`` rebuilds the committed ``housebench/robot/fetch.usda`` in three steps:

1. :func:`source_mjcf`: ``fetch_spec()`` written as MJCF, the planar base split into a chain of bodies
   (``base_x`` slide -> ``base_y`` slide -> ``base_link`` yaw hinge, the two carriers 10 g each), since a
   UsdPhysics joint joins exactly two bodies;
2. mujoco-usd-converter (it pins its own mujoco, so it runs in its own environment: the Python named by
   ``HOUSEBENCH_USD_CONVERTER``, e.g. ``/work/venv-conv/bin/python``) turns it into links, meshes, joints
   with limits, ``newton:armature`` / ``newton:damping`` and ``MjcActuator`` prims;
3. :func:`finish` flattens that into one layer, turns the massless camera frames into plain Xforms of
   their links, and adds what the converter leaves out: a UsdPhysics drive on every actuated joint
   (stiffness, damping and force limit of the compiled MuJoCo position actuators, target the home pose),
   gravity compensated on every link (``physxRigidBody:disableGravity``, ``mjc:gravcomp``), no
   self-collision, and the cameras ``head`` (Fetch's head camera) and ``third`` (behind-and-above view).

The base joints move the robot in its prim's frame: ``/World/Robot``'s translate and rotateZ are the start
pose, so ``q = 0`` on the base joints is the start, unlike MuJoCo's world-coordinate base joints.
Angular limits, targets and gains are per degree, as UsdPhysics wants.

The asset itself is the converter's zero pose (every joint at 0: the arm straight out). A scene that
references it says where the robot starts with :func:`author_home`: each joint's child link at the home
pose (:data:`housebench.robot.fetch.HOME`) and each joint's state (``PhysicsJointStateAPI``, PhysX's schema,
which Isaac Sim and Newton's PhysX resolver read), so an engine that reads the scene alone starts the arm
tucked, as the MuJoCo backend's keyframe does.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

from pxr import Gf, Sdf, Usd, UsdGeom, UsdPhysics

from housebench.robot.fetch import PREFIX, USD_ASSET, model_dir
from housebench.robot.home_usd import AXES, home_joints
from housebench.robot.model import fetch_spec

ROOT = "/fetch"  # the asset's default prim (the converter names it after the model)
CARRIER_MASS = 0.01  # kg of each planar-base carrier body
CAMERAS = {"head": ("head_camera_rgb_optical_frame", "head_camera_rgb"), "third": ("base_link", "external_camera_0")}
_APERTURE = 20.955  # mm (USD's default vertical aperture); the focal length sets the field of view


def source_mjcf(out: Path) -> Path:
    """``fetch_spec()`` as ``out/fetch.xml`` (absolute mesh paths), the planar base as a body chain."""
    spec = fetch_spec(1, 1)  # MuJoCo's default class: the USD's collision groups say who touches whom
    spec.meshdir = str((model_dir().parent / "stls" / "fetch").resolve())
    spec.modelname = "fetch"
    root = ET.fromstring(spec.to_xml())
    world = root.find("worldbody")
    base = world.find("body[@name='base_link']")
    parent, index = world, list(world).index(base)
    for joint in base.findall("joint")[:2]:  # x and y slides; the yaw hinge stays on base_link
        name = joint.get("name").removesuffix("_joint")
        carrier = ET.Element("body", name=name, childclass=base.get("childclass"), gravcomp="1")  # joint defaults
        if parent is world:
            carrier.set("pos", base.attrib.pop("pos"))
        ET.SubElement(carrier, "inertial", pos="0 0 0", mass=str(CARRIER_MASS), diaginertia="1e-5 1e-5 1e-5")
        base.remove(joint)
        carrier.append(joint)
        world.insert(index, carrier) if parent is world else parent.append(carrier)
        parent = carrier
    world.remove(base)
    parent.append(base)
    path = out / "fetch.xml"
    ET.ElementTree(root).write(path)
    return path


def convert(mjcf: Path, out: Path) -> Path:
    """Run mujoco-usd-converter in its own environment; the converted asset's root layer."""
    python = os.environ.get("HOUSEBENCH_USD_CONVERTER")
    if not python:
        raise RuntimeError("HOUSEBENCH_USD_CONVERTER: set it to a Python with mujoco-usd-converter installed")
    cmd = [python, "-m", "mujoco_usd_converter", str(mjcf), str(out), "--no-physics-scene"]
    subprocess.run(cmd, check=True, capture_output=True)
    return out / "fetch.usda"


def actuator_gains() -> dict[str, tuple[float, float, float]]:
    """``{joint: (kp, kv, max force)}`` of the compiled MuJoCo position actuators (per radian or metre;
    the force or torque limit, ``inf`` where the actuator has none)."""
    model = fetch_spec().compile()
    return {
        PREFIX + model.joint(model.actuator_trnid[a, 0]).name: (
            float(model.actuator_gainprm[a, 0]),
            float(-model.actuator_biasprm[a, 2]),
            float(model.actuator_forcerange[a, 1]) if model.actuator_forcelimited[a] else math.inf,
        )
        for a in range(model.nu)
    }


def _prims(stage: Usd.Stage) -> dict[str, Usd.Prim]:
    return {p.GetName(): p for p in stage.Traverse()}


def _drives(stage: Usd.Stage) -> None:
    joints = {PREFIX + p.GetName(): p for p in stage.Traverse() if p.IsA(UsdPhysics.Joint)}
    targets = home_joints()
    for name, (kp, kv, max_force) in actuator_gains().items():
        prim = joints[name]
        angular = prim.IsA(UsdPhysics.RevoluteJoint)
        unit = math.pi / 180.0 if angular else 1.0  # gains per degree, targets in degrees
        drive = UsdPhysics.DriveAPI.Apply(prim, "angular" if angular else "linear")
        drive.CreateTypeAttr("force")
        drive.CreateStiffnessAttr(round(kp * unit, 6))
        drive.CreateDampingAttr(round(kv * unit, 6))
        drive.CreateTargetPositionAttr(round(targets[name] / unit, 6))
        if math.isfinite(max_force):
            drive.CreateMaxForceAttr(max_force)


def _cameras(stage: Usd.Stage, prims: dict[str, Usd.Prim]) -> None:
    spec = fetch_spec()
    for name, (body, source) in CAMERAS.items():
        cam_spec = spec.camera(source)
        cam = UsdGeom.Camera.Define(stage, prims[body].GetPath().AppendChild(name))
        cam.AddTranslateOp().Set(Gf.Vec3d(*map(float, cam_spec.pos)))
        cam.AddOrientOp().Set(Gf.Quatf(*map(float, cam_spec.quat)))
        cam.CreateVerticalApertureAttr(_APERTURE)
        cam.CreateHorizontalApertureAttr(round(_APERTURE * 4 / 3, 6))
        cam.CreateFocalLengthAttr(round(_APERTURE / (2 * math.tan(math.radians(cam_spec.fovy) / 2)), 6))
        cam.CreateClippingRangeAttr(Gf.Vec2f(0.01, 20.0))


def _massless_frames(stage: Usd.Stage) -> None:
    """Camera frames (massless bodies welded to a link) become plain Xforms inside that link: a massless
    rigid body is invalid to PhysX and Newton, and MuJoCo merges them anyway."""
    frames = [
        p
        for p in stage.Traverse()
        if p.HasAPI(UsdPhysics.RigidBodyAPI) and not UsdPhysics.MassAPI(p).GetMassAttr().Get()
    ]
    for prim in frames:
        fixed = [c for c in prim.GetChildren() if c.IsA(UsdPhysics.FixedJoint)]
        assert len(fixed) == 1, f"{prim.GetPath()}: a massless body that is not welded to its parent"
        stage.RemovePrim(fixed[0].GetPath())
        for schema in [s for s in prim.GetAppliedSchemas() if "Mass" in s or s == "PhysicsRigidBodyAPI"]:
            prim.RemoveAppliedSchema(schema)
        for attr in prim.GetAuthoredAttributes():
            if attr.GetName().startswith(("physics:", "mjc:body:", "newton:")):
                prim.RemoveProperty(attr.GetName())


def _joint_refs(stage: Usd.Stage) -> None:
    """MuJoCo's joint reference (``ref``: the joint value at which the child sits in its MJCF frame; Fetch's
    head tilt has 0.06 rad), which the converter leaves out, turned into the joint's frame in the child
    (``localRot1`` turned by ``ref`` about the axis), so a USD joint position is MuJoCo's joint value: limits,
    drive targets and the scene's joint state mean the same pose in both (idempotent)."""
    spec = fetch_spec()
    for prim in stage.Traverse():
        if not (prim.IsA(UsdPhysics.RevoluteJoint) or prim.IsA(UsdPhysics.PrismaticJoint)):
            continue
        ref = float(spec.joint(prim.GetName()).ref)
        if ref == 0.0:
            continue
        assert prim.IsA(UsdPhysics.RevoluteJoint), f"{prim.GetPath()}: a slide's ref is not handled"
        rot1 = UsdPhysics.Joint(prim).GetLocalRot1Attr()
        turned = Gf.Quatf(Gf.Rotation(AXES[prim.GetAttribute("physics:axis").Get()], math.degrees(ref)).GetQuat())
        assert rot1.Get() in (Gf.Quatf(1.0), turned), f"{prim.GetPath()}: localRot1 {rot1.Get()}"
        rot1.Set(turned)


def finish(converted: Path, out: Path) -> None:
    """Flatten the converter's asset into ``out`` with drives, gravity compensation and cameras."""
    stage = Usd.Stage.Open(str(converted))
    stage.SetEditTarget(stage.GetSessionLayer())
    for prim in stage.Traverse(Usd.TraverseInstanceProxies()):
        if prim.IsInstance():  # the converter instances shared materials; flatten them in place
            prim.SetInstanceable(False)
    layer = stage.Flatten()
    stage = Usd.Stage.Open(layer)
    for prim in stage.Traverse():
        if prim.GetTypeName() == "PhysicsScene":
            stage.RemovePrim(prim.GetPath())
        elif prim.HasAPI(UsdPhysics.RigidBodyAPI):  # gravity compensation: PhysX's and MuJoCo's (Newton's solver)
            prim.CreateAttribute("physxRigidBody:disableGravity", Sdf.ValueTypeNames.Bool, False).Set(True)
            prim.CreateAttribute("mjc:gravcomp", Sdf.ValueTypeNames.Double, False).Set(1.0)
        if prim.HasAPI(UsdPhysics.ArticulationRootAPI):
            prim.CreateAttribute("physxArticulation:enabledSelfCollisions", Sdf.ValueTypeNames.Bool, False).Set(False)
    _massless_frames(stage)
    _joint_refs(stage)
    _drives(stage)
    _cameras(stage, _prims(stage))
    stage.GetRootLayer().documentation = "Fetch (gymnasium-robotics MJCF, MIT) as a UsdPhysics articulation"
    stage.GetRootLayer().customLayerData = {"housebench:source": "housebench.robot.usd_asset (fetch_spec)"}
    out.write_text(stage.GetRootLayer().ExportToString())


def build(out: Path = USD_ASSET) -> None:
    """All three steps into ``out``."""
    with tempfile.TemporaryDirectory() as tmp:
        converted = convert(source_mjcf(Path(tmp)), Path(tmp) / "usd")
        finish(converted, out)


if __name__ == "__main__":
    build(Path(sys.argv[1]) if len(sys.argv) > 1 else USD_ASSET)
