"""The house as a USD layer: static ``UsdGeom.Cube`` colliders under ``/World/House`` and the robot.

Z-up, metres, defaultPrim ``/World``. Each :class:`~housebench.house.layout.Box` becomes the Cube
``/World/House/<owner>/<part>`` (size 1, ``translate`` + ``scale`` ops, ``PhysicsCollisionAPI``, no
rigid body). ``/World/Robot`` is an Xform with ``translate`` + ``rotateZ`` ops and the attribute
``housebench:robot = "fetch"`` that a backend resolves to its own robot model.
"""

from __future__ import annotations

import math
from pathlib import Path

from pxr import Gf, Sdf, Usd, UsdGeom, UsdPhysics

from housebench.house.layout import Box, House

HOUSE_ROOT = "/World/House"
ROBOT_PATH = "/World/Robot"
_COLORS = {"floor": (0.55, 0.5, 0.45), "walls": (0.9, 0.9, 0.88),
           "table": (0.6, 0.4, 0.25), "shelf": (0.45, 0.3, 0.2)}


def _cube(stage: Usd.Stage, box: Box) -> None:
    cube = UsdGeom.Cube.Define(stage, f"{HOUSE_ROOT}/{box.name}")
    cube.CreateSizeAttr(1.0)
    cube.AddTranslateOp().Set(Gf.Vec3d(*box.center))
    cube.AddScaleOp().Set(Gf.Vec3f(*box.size))
    cube.CreateDisplayColorAttr([Gf.Vec3f(*_COLORS.get(box.owner, (0.7, 0.7, 0.7)))])
    UsdPhysics.CollisionAPI.Apply(cube.GetPrim())


def write_house_usd(house: House, path: Path) -> None:
    """Write ``house`` to ``path`` (a new ``.usda`` file; same house, same bytes)."""
    stage = Usd.Stage.CreateNew(str(path))
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.z)
    UsdGeom.SetStageMetersPerUnit(stage, 1.0)
    UsdPhysics.SetStageKilogramsPerUnit(stage, 1.0)
    world = UsdGeom.Xform.Define(stage, "/World")
    stage.SetDefaultPrim(world.GetPrim())
    scene = UsdPhysics.Scene.Define(stage, "/World/PhysicsScene")
    scene.CreateGravityDirectionAttr(Gf.Vec3f(0, 0, -1))
    scene.CreateGravityMagnitudeAttr(9.81)
    UsdGeom.Scope.Define(stage, HOUSE_ROOT)
    for owner in sorted({b.owner for b in house.boxes}):
        UsdGeom.Xform.Define(stage, f"{HOUSE_ROOT}/{owner}")
    for box in house.boxes:
        _cube(stage, box)
    robot = UsdGeom.Xform.Define(stage, ROBOT_PATH)
    x, y, yaw = house.robot_start
    robot.AddTranslateOp().Set(Gf.Vec3d(x, y, 0.0))
    robot.AddRotateZOp().Set(math.degrees(yaw))
    robot.GetPrim().CreateAttribute("housebench:robot", Sdf.ValueTypeNames.String).Set("fetch")
    stage.GetRootLayer().Save()


def read_boxes(stage: Usd.Stage) -> list[Box]:
    """The house's static Cube colliders back as boxes (world-aligned bounds of each Cube)."""
    cache = UsdGeom.XformCache()
    boxes = []
    root = Sdf.Path(HOUSE_ROOT)
    for prim in stage.Traverse():
        if not (prim.IsA(UsdGeom.Cube) and prim.GetPath().HasPrefix(root)):
            continue
        bound = Gf.BBox3d(Gf.Range3d(Gf.Vec3d(-0.5), Gf.Vec3d(0.5)),
                          Gf.Matrix4d().SetScale(UsdGeom.Cube(prim).GetSizeAttr().Get())
                          * cache.GetLocalToWorldTransform(prim)).ComputeAlignedRange()
        lo, hi = bound.GetMin(), bound.GetMax()
        boxes.append(Box(str(prim.GetPath().MakeRelativePath(root)),
                         tuple(round((lo[i] + hi[i]) / 2, 6) for i in range(3)),
                         tuple(round(hi[i] - lo[i], 6) for i in range(3))))
    return boxes
