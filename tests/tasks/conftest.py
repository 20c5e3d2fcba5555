"""A small hand-made world for the task tests: one room with a table, a shelf, a fridge (one shelf,
a door) and a cabinet (a door, a drawer, a start button), four assets, and (for the USD tests) a
minimal house layer and asset layers built to DESIGN.md's contract."""

from __future__ import annotations

from pathlib import Path

import pytest
from pxr import Gf, Sdf, Usd, UsdGeom, UsdPhysics
from task_world import TABLE_TOP

from housebench.annotations.schema import (
    ApplianceAnnotation,
    ArticulatedPart,
    AssetAnnotation,
    AssetsFile,
    ContainerProfile,
    Footprint,
    Handle,
    HouseAnnotations,
    Obstacle,
    PlacedObject,
    ReachBand,
    RobotAnnotation,
    Room,
    SceneAnnotations,
    Support,
)

FOOTPRINT = Footprint(radius=0.29, base_height=0.36, column_radius=0.28, column=(-0.27, -0.21, 0.16, 0.23), height=1.15)


def _part(name: str, category: str, joint: str, limits: tuple[float, float], open_: float) -> ArticulatedPart:
    """A part at the room's west wall; only its name, kind and limits matter to the tests."""
    handle = Handle(center=(0.6, 3.3, 1.0), normal=(1, 0, 0), grasp=(-1, 0, 0), box=(0.6, 3.2, 0.9, 0.62, 3.4, 1.1))
    axis = (0.0, 0.0, 1.0) if joint == "revolute" else (1.0, 0.0, 0.0)
    return ArticulatedPart(
        name=name,
        owner=name.split("/")[0],
        category=category,
        joint=joint,
        axis=axis,
        pivot=(0.6, 3.0, 0.0),
        limits=limits,
        closed=0.0,
        open=open_,
        box=(0.58, 3.0, 0.0, 0.6, 3.6, 1.8),
        handle=handle,
    )


@pytest.fixture
def house() -> HouseAnnotations:
    walls = [
        Obstacle(name=f"wall_{i}", box=b)
        for i, b in enumerate(
            [(-0.1, -0.1, 0, 4.1, 0, 2.5), (-0.1, 4, 0, 4.1, 4.1, 2.5), (-0.1, 0, 0, 0, 4, 2.5), (4, 0, 0, 4.1, 4, 2.5)]
        )
    ]
    return HouseAnnotations(
        rooms=[Room(name="room", polygon=[(0, 0), (4, 0), (4, 4), (0, 4)])],
        supports=[
            TABLE_TOP,
            Support(name="shelf/level_1", owner="shelf", height=0.4, box=(3.6, 0.5, 3.95, 1.5), clearance=0.3),
            Support(name="fridge/shelf_1", owner="fridge", height=0.5, box=(0.02, 3.02, 0.56, 3.58), clearance=0.35),
            Support(name="fridge/top", owner="fridge", height=1.8, box=(0.0, 3.0, 0.6, 3.6)),
        ],
        obstacles=[
            *walls,
            Obstacle(name="floor", box=(0, 0, -0.05, 4, 4, 0)),
            Obstacle(name="table", box=(1.5, 1.5, 0, 2.5, 2.3, 0.75)),
            Obstacle(name="shelf/base", box=(3.6, 0.5, 0, 4.0, 1.5, 0.4)),
            Obstacle(name="shelf/top", box=(3.6, 0.5, 0.7, 4.0, 1.5, 0.72)),
            Obstacle(name="fridge/shelf_1", box=(0.02, 3.02, 0.48, 0.56, 3.58, 0.5)),
            Obstacle(name="fridge/door", box=(0.58, 3.0, 0.0, 0.6, 3.6, 1.8)),
        ],
        robot=RobotAnnotation(
            start=(0.8, 0.8, 0.0),
            gripper_opening=0.1,
            footprint=FOOTPRINT,
            reach=[ReachBand(z=(0.0, 2.0), min=0.4, max=0.9)],
        ),
        articulated=[
            _part("fridge/door", "door", "revolute", (0.0, 1.9), 1.4),
            _part("cabinet/door", "door", "revolute", (-1.9, 1.9), 1.4),
            _part("cabinet/drawer", "drawer", "prismatic", (0.0, 0.4), 0.4),
            _part("cabinet/start_button", "button", "prismatic", (0.0, 0.008), 0.008),
        ],
        appliances=[
            ApplianceAnnotation(
                name="fridge", kind="fridge", cavity=(0.02, 3.02, 0.05, 0.58, 3.58, 1.78), door="fridge/door"
            )
        ],
    )


@pytest.fixture
def assets() -> AssetsFile:
    bowl = ContainerProfile(shape="round", inner_half_extents=(0.08, 0.08), floor_z=0.01, rim_z=0.07)
    return AssetsFile(
        assets={
            "apple": AssetAnnotation(name="apple", category="fruit", size=(0.08, 0.08, 0.08), mass=0.2),
            "orange": AssetAnnotation(name="orange", category="fruit", size=(0.08, 0.08, 0.08), mass=0.2),
            "bowl": AssetAnnotation(
                name="bowl", category="container", size=(0.18, 0.18, 0.07), mass=0.3, container=bowl
            ),
            "book": AssetAnnotation(name="book", category="flat", size=(0.15, 0.22, 0.03), mass=0.4),
        }
    )


@pytest.fixture
def scene(house, assets) -> SceneAnnotations:
    """The table scene: apple, orange and bowl resting on the table top, side by side."""
    return SceneAnnotations(
        scene="put_fruit_in_container/v000",
        house=house,
        objects={
            "apple": PlacedObject(
                asset=assets.assets["apple"], pos=(1.8, 1.9, 0.75), quat=(1, 0, 0, 0), support="table/top"
            ),
            "orange": PlacedObject(
                asset=assets.assets["orange"], pos=(1.7, 2.1, 0.75), quat=(1, 0, 0, 0), support="table/top"
            ),
            "bowl": PlacedObject(
                asset=assets.assets["bowl"], pos=(2.0, 1.9, 0.75), quat=(1, 0, 0, 0), support="table/top"
            ),
        },
    )


def _box(stage: Usd.Stage, path: str, centre, half) -> None:
    cube = UsdGeom.Cube.Define(stage, path)
    cube.AddTranslateOp().Set(Gf.Vec3d(*centre))
    cube.AddScaleOp().Set(Gf.Vec3f(*half))
    UsdPhysics.CollisionAPI.Apply(cube.GetPrim())


def _new_stage(path: Path, default: str) -> Usd.Stage:
    stage = Usd.Stage.CreateNew(str(path))
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.z)
    UsdGeom.SetStageMetersPerUnit(stage, 1.0)
    stage.SetDefaultPrim(UsdGeom.Xform.Define(stage, default).GetPrim())
    return stage


@pytest.fixture
def usd_world(tmp_path) -> Path:
    """``<root>/scenes/house/house.usda`` and ``<root>/assets_built/sim/<asset>/asset.usda``."""
    house_path = tmp_path / "scenes" / "house" / "house.usda"
    house_path.parent.mkdir(parents=True)
    stage = _new_stage(house_path, "/World")
    _box(stage, "/World/House/floor", (2, 2, -0.025), (2, 2, 0.025))
    _box(stage, "/World/House/table", (2, 1.9, 0.375), (0.5, 0.4, 0.375))
    robot = UsdGeom.Xform.Define(stage, "/World/Robot")
    robot.AddTranslateOp().Set(Gf.Vec3d(0.8, 0.8, 0))
    robot.AddRotateZOp().Set(0.0)
    robot.GetPrim().CreateAttribute("housebench:robot", Sdf.ValueTypeNames.String, custom=True).Set("fetch")
    stage.Save()
    for name in ("apple", "orange", "bowl", "book"):
        asset_path = tmp_path / "assets_built" / "sim" / name / "asset.usda"
        asset_path.parent.mkdir(parents=True)
        stage = _new_stage(asset_path, "/Asset")
        prim = stage.GetPrimAtPath("/Asset")
        UsdPhysics.RigidBodyAPI.Apply(prim)
        UsdPhysics.MassAPI.Apply(prim).CreateMassAttr(0.2)
        UsdGeom.Cube.Define(stage, "/Asset/Visual").GetSizeAttr().Set(0.08)
        UsdGeom.Scope.Define(stage, "/Asset/Collision")
        hull = UsdGeom.Mesh.Define(stage, "/Asset/Collision/hull_000")
        hull.CreatePointsAttr([(-0.04, -0.04, 0), (0.04, -0.04, 0), (0, 0.04, 0), (0, 0, 0.08)])
        hull.CreateFaceVertexCountsAttr([3, 3, 3, 3])
        hull.CreateFaceVertexIndicesAttr([0, 2, 1, 0, 1, 3, 1, 2, 3, 2, 0, 3])
        UsdPhysics.CollisionAPI.Apply(hull.GetPrim())
        UsdPhysics.MeshCollisionAPI.Apply(hull.GetPrim()).CreateApproximationAttr("convexHull")
        stage.Save()
    return tmp_path
