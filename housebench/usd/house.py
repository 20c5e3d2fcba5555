"""The house as a USD layer: static colliders, articulated parts on UsdPhysics joints, the robot.

Z-up, metres, kilograms, defaultPrim ``/World``.

- Each static :class:`~housebench.house.geometry.Box` becomes the Cube ``/World/House/<owner>/<part>``
  (size 1, ``translate`` + ``scale`` ops, ``PhysicsCollisionAPI``, no rigid body).
- Each articulated part ``<owner>/<part>`` is the Xform ``/World/House/<owner>/<part>`` with
  ``PhysicsRigidBodyAPI`` and ``PhysicsMassAPI`` (density), its origin at the joint pivot, its boxes as
  Cube children. Its joint ``/World/House/<owner>/<part>_joint`` (``PhysicsRevoluteJoint`` or
  ``PhysicsPrismaticJoint``) has axis X turned onto the part's axis by ``localRot0/1``, body0 unset
  (the world), body1 the part, limits (degrees or metres) closed at 0, and a drive (stiffness, damping,
  target 0) that holds it closed. No rigid body is nested in another.
  The joint is its own fixed-base articulation (``PhysicsArticulationRootAPI`` on the joint) and carries
  the armature every engine should add (``newton:armature``, ``physxJoint:armature``) and MuJoCo's limit
  softness (``mjc:solreflimit``, the MuJoCo backend's default, for Newton's MuJoCo solver).
- ``/World/PhysicsScene``: gravity, and 500 steps per second for PhysX and Newton (the MuJoCo backend's 2 ms);
  MuJoCo's contact options that grasping needs (``mjc:option:cone`` elliptic, ``mjc:option:impratio``: the
  MuJoCo backend's :func:`housebench.robot.model.manipulation_options`), read by Newton's MuJoCo solver.
- Every collider is bound (purpose ``physics``) to ``/World/Looks/HousePhysicsMaterial`` (friction 1.0,
  MuJoCo's and Newton's default, which PhysX does not share).
- ``/World/CollisionGroups`` says who touches whom (the MuJoCo backend's contype / conaffinity): the
  static house and the moving parts never touch each other (a part sits in its frame), parts never touch
  parts, the robot never touches itself; props touch everything.
- With :class:`~housebench.usd.looks.Looks`, the house's materials, textures (``textures/`` beside the layer),
  ceilings and room lights (:mod:`housebench.usd.looks`); without, every box shows its display colour.
- ``/World/Cameras/topdown`` is an orthographic camera over the whole house, below the lintels.
- ``/World/Robot`` references the robot asset (:data:`housebench.robot.fetch.USD_ASSET`, copied beside the
  layer as ``fetch.usda``: a UsdPhysics articulation) with ``translate`` + ``rotateZ`` ops (its start pose)
  and ``housebench:robot = "fetch"``, which the MuJoCo backend resolves to its own model of the same robot
  (started from its keyframe). Over the asset's zero pose, the layer puts the robot in its home pose
  (:func:`housebench.robot.home_usd.author_home`: each joint's child link posed, each joint's
  ``state:<angular|linear>:physics:position``), so any UsdPhysics engine starts the arm tucked.
"""

from __future__ import annotations

import math
import shutil
from pathlib import Path

from pxr import Gf, Sdf, Usd, UsdGeom, UsdPhysics, UsdShade

from housebench.house.geometry import Box
from housebench.house.layout import House
from housebench.house.parts import Part
from housebench.house.picture import ASPECT, topdown_view
from housebench.io import r6
from housebench.robot.fetch import IMPRATIO, USD_ASSET
from housebench.robot.home_usd import author_home
from housebench.usd.looks import Looks, write_looks
from housebench.usd.paths import COLLISION_GROUPS, HOUSE_ROOT, PROPS_PATH, ROBOT_PATH, TOPDOWN_CAMERA

PART_DENSITY = 400.0  # kg/m^3 of doors, drawers, buttons and keys
PART_ARMATURE = 0.002  # rotor inertia of every part joint (kg m^2 or kg, SI as MuJoCo; keeps buttons stable)
LIMIT_SOLREF = (0.02, 1.0)  # MuJoCo's default joint-limit softness (time constant s, damping ratio): the MuJoCo
# backend's part joints keep it; Newton's MuJoCo solver would otherwise make its own, much bouncier limits
HOUSE_FRICTION = 1.0
STEPS_PER_S = 500  # physics steps per second (the MuJoCo backend's 2 ms), for PhysX and Newton
PHYSICS_MATERIAL = "/World/Looks/HousePhysicsMaterial"
ROBOT_FILE = "fetch.usda"  # the robot asset, beside the house layer
# group -> the groups it never touches (symmetric), as the MuJoCo backend's collision classes
FILTERS = {"house": ("house",), "parts": (), "robot": ("robot",), "props": ()}
_PALETTE = {
    "floor": (0.62, 0.58, 0.52),
    "walls": (0.92, 0.92, 0.9),
    "fridge": (0.93, 0.93, 0.95),
    "microwave": (0.3, 0.3, 0.32),
    "stove": (0.2, 0.2, 0.22),
    "counter": (0.72, 0.68, 0.6),
    "sofa": (0.35, 0.45, 0.6),
    "armchair": (0.35, 0.45, 0.6),
    "bed": (0.55, 0.6, 0.75),
    "bathtub": (0.97, 0.97, 0.97),
    "toilet": (0.97, 0.97, 0.97),
    "sink": (0.97, 0.97, 0.97),
    "tv": (0.1, 0.1, 0.1),
}
WOOD, HANDLE = (0.6, 0.42, 0.26), (0.25, 0.25, 0.27)


def color(name: str) -> tuple[float, float, float]:
    """Display colour of a box by its owner (and handles darker)."""
    if name.endswith("/handle"):
        return HANDLE
    owner = name.split("/")[0]
    return next((c for key, c in _PALETTE.items() if owner.startswith(key)), WOOD)


def _cube(stage: Usd.Stage, path: str, box: Box, origin: tuple[float, float, float]) -> None:
    cube = UsdGeom.Cube.Define(stage, path)
    cube.CreateSizeAttr(1.0)
    cube.AddTranslateOp().Set(Gf.Vec3d(*(r6(c - o) for c, o in zip(box.center, origin))))
    cube.AddScaleOp().Set(Gf.Vec3f(*box.size))
    cube.CreateDisplayColorAttr([Gf.Vec3f(*color(box.name))])
    UsdPhysics.CollisionAPI.Apply(cube.GetPrim())
    material = UsdShade.Material(stage.GetPrimAtPath(PHYSICS_MATERIAL))
    UsdShade.MaterialBindingAPI.Apply(cube.GetPrim()).Bind(material, UsdShade.Tokens.weakerThanDescendants, "physics")


def _axis_rotation(axis: tuple[float, float, float]) -> Gf.Quatf:
    """The rotation that turns the joint's X axis onto ``axis`` (rounded, for stable bytes)."""
    q = Gf.Rotation(Gf.Vec3d(1, 0, 0), Gf.Vec3d(*axis)).GetQuat()
    return Gf.Quatf(r6(q.GetReal()), *(r6(v) for v in q.GetImaginary()))


def _part(stage: Usd.Stage, part: Part) -> None:
    path = f"{HOUSE_ROOT}/{part.name}"
    body = UsdGeom.Xform.Define(stage, path)
    body.AddTranslateOp().Set(Gf.Vec3d(*part.pivot))
    UsdPhysics.RigidBodyAPI.Apply(body.GetPrim())
    UsdPhysics.MassAPI.Apply(body.GetPrim()).CreateDensityAttr(PART_DENSITY)
    for box in part.boxes:
        _cube(stage, f"{HOUSE_ROOT}/{box.name}", box, part.pivot)
    revolute = part.kind == "revolute"
    joint_type = UsdPhysics.RevoluteJoint if revolute else UsdPhysics.PrismaticJoint
    joint = joint_type.Define(stage, f"{path}_joint")
    joint.CreateAxisAttr("X")
    joint.CreateBody1Rel().SetTargets([Sdf.Path(path)])
    rot = _axis_rotation(part.axis)
    joint.CreateLocalPos0Attr(Gf.Vec3f(*part.pivot))
    joint.CreateLocalRot0Attr(rot)
    joint.CreateLocalPos1Attr(Gf.Vec3f(0, 0, 0))
    joint.CreateLocalRot1Attr(rot)
    unit = 180.0 / math.pi if revolute else 1.0  # revolute limits in degrees, drives per degree
    joint.CreateLowerLimitAttr(r6(part.limits[0] * unit))
    joint.CreateUpperLimitAttr(r6(part.limits[1] * unit))
    drive = UsdPhysics.DriveAPI.Apply(joint.GetPrim(), "angular" if revolute else "linear")
    drive.CreateTypeAttr("force")
    drive.CreateTargetPositionAttr(0.0)
    drive.CreateStiffnessAttr(r6(part.stiffness / unit))
    drive.CreateDampingAttr(r6(part.damping / unit))
    prim = joint.GetPrim()
    UsdPhysics.ArticulationRootAPI.Apply(prim)
    for attr in ("newton:armature", "physxJoint:armature"):
        prim.CreateAttribute(attr, Sdf.ValueTypeNames.Float, True).Set(PART_ARMATURE)
    prim.CreateAttribute("mjc:solreflimit", Sdf.ValueTypeNames.DoubleArray, False).Set(list(LIMIT_SOLREF))


def _physics_material(stage: Usd.Stage) -> None:
    UsdGeom.Scope.Define(stage, str(Sdf.Path(PHYSICS_MATERIAL).GetParentPath()))
    api = UsdPhysics.MaterialAPI.Apply(UsdShade.Material.Define(stage, PHYSICS_MATERIAL).GetPrim())
    api.CreateStaticFrictionAttr(HOUSE_FRICTION)
    api.CreateDynamicFrictionAttr(HOUSE_FRICTION)
    api.CreateRestitutionAttr(0.0)


def _collision_groups(stage: Usd.Stage, house: House) -> None:
    UsdGeom.Scope.Define(stage, COLLISION_GROUPS)
    members = {
        "house": ([HOUSE_ROOT], [f"{HOUSE_ROOT}/{p.name}" for p in house.parts]),
        "parts": ([f"{HOUSE_ROOT}/{p.name}" for p in house.parts], []),
        "robot": ([ROBOT_PATH], []),
        "props": ([PROPS_PATH], []),
    }
    for name, filtered in FILTERS.items():
        group = UsdPhysics.CollisionGroup.Define(stage, f"{COLLISION_GROUPS}/{name}")
        group.CreateFilteredGroupsRel().SetTargets([Sdf.Path(f"{COLLISION_GROUPS}/{f}") for f in filtered])
        collection = group.GetCollidersCollectionAPI()
        includes, excludes = members[name]
        collection.CreateIncludesRel().SetTargets([Sdf.Path(p) for p in includes])
        collection.CreateExcludesRel().SetTargets([Sdf.Path(p) for p in excludes])


def _topdown_camera(stage: Usd.Stage, house: House) -> None:
    """Orthographic, looking down from just under the lintels (a plan cut: doorways show)."""
    cx, cy, extent = topdown_view(house.width, house.depth)
    cam = UsdGeom.Camera.Define(stage, TOPDOWN_CAMERA)
    cam.AddTranslateOp().Set(Gf.Vec3d(r6(cx), r6(cy), r6(house.door_height - 0.01)))
    cam.CreateProjectionAttr(UsdGeom.Tokens.orthographic)
    cam.CreateHorizontalApertureAttr(r6(extent * ASPECT * 10))  # tenths of a scene unit
    cam.CreateVerticalApertureAttr(r6(extent * 10))
    cam.CreateClippingRangeAttr(Gf.Vec2f(0.05, 10.0))


def write_house_usd(house: House, path: Path, looks: Looks | None = None) -> None:
    """Write ``house`` to ``path`` (a new ``.usda`` file; same house, same bytes) and the robot asset beside it;
    with ``looks``, its textures too."""
    stage = Usd.Stage.CreateNew(str(path))
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.z)
    UsdGeom.SetStageMetersPerUnit(stage, 1.0)
    UsdPhysics.SetStageKilogramsPerUnit(stage, 1.0)
    world = UsdGeom.Xform.Define(stage, "/World")
    stage.SetDefaultPrim(world.GetPrim())
    scene = UsdPhysics.Scene.Define(stage, "/World/PhysicsScene")
    scene.CreateGravityDirectionAttr(Gf.Vec3f(0, 0, -1))
    scene.CreateGravityMagnitudeAttr(9.81)
    for schema, attr in (("PhysxSceneAPI", "physxScene"), ("NewtonSceneAPI", "newton")):
        scene.GetPrim().AddAppliedSchema(schema)
        scene.GetPrim().CreateAttribute(f"{attr}:timeStepsPerSecond", Sdf.ValueTypeNames.Int, False).Set(STEPS_PER_S)
    scene.GetPrim().AddAppliedSchema("MjcSceneAPI")
    scene.GetPrim().CreateAttribute("mjc:option:cone", Sdf.ValueTypeNames.Token, False).Set("elliptic")
    scene.GetPrim().CreateAttribute("mjc:option:impratio", Sdf.ValueTypeNames.Double, False).Set(IMPRATIO)
    _physics_material(stage)
    UsdGeom.Scope.Define(stage, HOUSE_ROOT)
    for owner in sorted({b.owner for b in house.boxes} | {p.owner for p in house.parts}):
        UsdGeom.Xform.Define(stage, f"{HOUSE_ROOT}/{owner}")
    for box in house.boxes:
        _cube(stage, f"{HOUSE_ROOT}/{box.name}", box, (0.0, 0.0, 0.0))
    for part in house.parts:
        _part(stage, part)
    if looks is not None:
        write_looks(stage, house, looks, Path(path).parent)
    _collision_groups(stage, house)
    _topdown_camera(stage, house)
    shutil.copyfile(USD_ASSET, Path(path).parent / ROBOT_FILE)
    robot = UsdGeom.Xform.Define(stage, ROBOT_PATH)
    robot.GetPrim().GetReferences().AddReference(f"./{ROBOT_FILE}")
    x, y, yaw = house.robot_start
    robot.AddTranslateOp().Set(Gf.Vec3d(x, y, 0.0))
    robot.AddRotateZOp().Set(math.degrees(yaw))
    robot.GetPrim().CreateAttribute("housebench:robot", Sdf.ValueTypeNames.String).Set("fetch")
    author_home(stage, ROBOT_PATH)
    stage.GetRootLayer().Save()


def read_boxes(stage: Usd.Stage) -> list[Box]:
    """The house's Cube colliders back as world-aligned boxes named by their path under the house."""
    cache = UsdGeom.XformCache()
    boxes = []
    root = Sdf.Path(HOUSE_ROOT)
    for prim in stage.Traverse():
        if not (prim.IsA(UsdGeom.Cube) and prim.GetPath().HasPrefix(root)):
            continue
        bound = Gf.BBox3d(
            Gf.Range3d(Gf.Vec3d(-0.5), Gf.Vec3d(0.5)),
            Gf.Matrix4d().SetScale(UsdGeom.Cube(prim).GetSizeAttr().Get()) * cache.GetLocalToWorldTransform(prim),
        ).ComputeAlignedRange()
        lo, hi = bound.GetMin(), bound.GetMax()
        boxes.append(
            Box(
                str(prim.GetPath().MakeRelativePath(root)),
                tuple(r6((lo[i] + hi[i]) / 2) for i in range(3)),
                tuple(r6(hi[i] - lo[i]) for i in range(3)),
            )
        )
    return boxes
