"""What the MuJoCo backend does in code is written in the house layer, for any UsdPhysics engine:
collision filtering, physics materials, part articulations with drives and armature, MuJoCo's contact options."""

from __future__ import annotations

import itertools
from pathlib import Path

import mujoco
import pytest
import yaml
from pxr import Sdf, Usd, UsdGeom, UsdPhysics, UsdShade

from housebench.house.layout import generate_house
from housebench.robot.model import manipulation_options
from housebench.sim.mujoco.bodies import AFFINITY, HOUSE, PART, PROP, ROBOT
from housebench.sim.mujoco.compile import TIMESTEP
from housebench.sim.mujoco.joints import ARMATURE, find_joints
from housebench.usd.house import write_house_usd
from housebench.usd.paths import COLLISION_GROUPS, HOUSE_ROOT, PROPS_PATH, ROBOT_PATH

REPO = Path(__file__).resolve().parents[2]
CLASSES = {"house": HOUSE, "robot": ROBOT, "props": PROP, "parts": PART}


@pytest.fixture(scope="module")
def stage(tmp_path_factory) -> Usd.Stage:
    params = yaml.safe_load((REPO / "params.yaml").read_text())["house"]
    path = tmp_path_factory.mktemp("house") / "house.usda"
    write_house_usd(generate_house(params), path)
    stage = Usd.Stage.Open(str(path))
    prop = UsdGeom.Cube.Define(stage, f"{PROPS_PATH}/box/Collision/hull_000")  # a prop, as a task layer adds
    UsdPhysics.CollisionAPI.Apply(prop.GetPrim())
    return stage


def _groups(stage: Usd.Stage) -> dict[str, UsdPhysics.CollisionGroup]:
    return {p.GetName(): UsdPhysics.CollisionGroup(p) for p in stage.GetPrimAtPath(COLLISION_GROUPS).GetChildren()}


def test_collision_groups_match_the_mujoco_backends_classes(stage):
    groups = _groups(stage)
    assert set(groups) == set(CLASSES)
    filtered = {n: {str(t.name) for t in g.GetFilteredGroupsRel().GetTargets()} for n, g in groups.items()}
    for a, b in itertools.product(CLASSES, repeat=2):
        ca, cb = CLASSES[a], CLASSES[b]
        mujoco_touches = bool(ca & AFFINITY[cb] or cb & AFFINITY[ca])
        usd_touches = b not in filtered[a] and a not in filtered[b]
        assert usd_touches == mujoco_touches, (a, b)
        assert (b in filtered[a]) == (a in filtered[b]), (a, b)  # written on both sides


def test_every_collider_is_in_exactly_one_group_and_has_a_physics_material(stage):
    queries = {n: g.GetCollidersCollectionAPI().ComputeMembershipQuery() for n, g in _groups(stage).items()}
    parts = set(find_joints(stage))
    colliders = [p for p in stage.Traverse() if p.HasAPI(UsdPhysics.CollisionAPI)]
    assert len(colliders) > 300 and any(p.GetPath().HasPrefix(ROBOT_PATH) for p in colliders)
    for prim in colliders:
        path = prim.GetPath()
        member = [n for n, q in queries.items() if q.IsPathIncluded(path)]
        expected = (
            "robot"
            if path.HasPrefix(ROBOT_PATH)
            else "props"
            if path.HasPrefix(PROPS_PATH)
            else "parts"
            if any(path.HasPrefix(Sdf.Path(b)) for b in parts)
            else "house"
        )
        assert member == [expected], path
        if expected != "props":
            assert UsdShade.MaterialBindingAPI(prim).ComputeBoundMaterial("physics")[0], path


def test_part_joints_are_articulations_with_drives_and_armature(stage):
    joints = find_joints(stage)
    assert len(joints) == 33
    for prim in joints.values():
        assert prim.GetPath().HasPrefix(HOUSE_ROOT)
        assert prim.HasAPI(UsdPhysics.ArticulationRootAPI)
        kind = "angular" if prim.IsA(UsdPhysics.RevoluteJoint) else "linear"
        assert prim.HasAPI(UsdPhysics.DriveAPI, kind)
        assert UsdPhysics.DriveAPI.Get(prim, kind).GetDampingAttr().Get() > 0
        assert prim.GetAttribute("newton:armature").Get() == pytest.approx(ARMATURE)
        assert prim.GetAttribute("physxJoint:armature").Get() == pytest.approx(ARMATURE)


def test_the_physics_scene_steps_as_the_mujoco_backend(stage):
    scene = stage.GetPrimAtPath("/World/PhysicsScene")
    for attr in ("physxScene:timeStepsPerSecond", "newton:timeStepsPerSecond"):
        assert scene.GetAttribute(attr).Get() * TIMESTEP == pytest.approx(1.0)
    option = mujoco.MjOption()
    manipulation_options(option)  # the MuJoCo backend's contact options, in MuJoCo's schema for Newton
    cone = {mujoco.mjtCone.mjCONE_ELLIPTIC: "elliptic", mujoco.mjtCone.mjCONE_PYRAMIDAL: "pyramidal"}[option.cone]
    assert scene.GetAttribute("mjc:option:cone").Get() == cone
    assert scene.GetAttribute("mjc:option:impratio").Get() == pytest.approx(option.impratio)
