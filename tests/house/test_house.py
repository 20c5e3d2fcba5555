"""The house generator, its USD layer and its annotations."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml
from PIL import Image
from pxr import Usd, UsdGeom, UsdPhysics, UsdValidation

from housebench.annotations.schema import HouseAnnotations, Obstacle
from housebench.house.annotate import house_annotations
from housebench.house.layout import body_overlaps, generate_house
from housebench.house.query import HouseQuery
from housebench.usd.house import read_boxes, write_house_usd
from housebench.usd.paths import HOUSE_ROOT, ROBOT_PATH

REPO = Path(__file__).resolve().parents[2]
ROOMS = {"kitchen", "living_room", "dining_room", "bedroom", "study", "bathroom"}


@pytest.fixture(scope="module")
def params() -> dict:
    return yaml.safe_load((REPO / "params.yaml").read_text())["house"]


@pytest.fixture(scope="module")
def house(params):
    return generate_house(params)


@pytest.fixture(scope="module")
def ann(house) -> HouseAnnotations:
    return HouseAnnotations.model_validate(house_annotations(house).model_dump(mode="json"))


def test_house_usd_validates_composes_and_has_jointed_parts(tmp_path, house):
    path = tmp_path / "house.usda"
    write_house_usd(house, path)
    stage = Usd.Stage.Open(str(path))
    registry = UsdValidation.ValidationRegistry()
    errors = UsdValidation.ValidationContext(registry.GetOrLoadAllValidators()).Validate(stage)
    assert [e.GetMessage() for e in errors] == []
    assert stage.GetDefaultPrim().GetPath() == "/World"
    assert UsdGeom.GetStageUpAxis(stage) == "Z" and UsdGeom.GetStageMetersPerUnit(stage) == 1.0
    assert stage.GetPrimAtPath(ROBOT_PATH).GetAttribute("housebench:robot").Get() == "fetch"
    expected = {b.name: b for b in [*house.boxes, *(q for p in house.parts for q in p.boxes)]}
    assert {b.name: b for b in read_boxes(stage)} == expected
    house_prims = [p for p in stage.Traverse() if p.GetPath().HasPrefix(HOUSE_ROOT)]
    bodies = [p for p in house_prims if p.HasAPI(UsdPhysics.RigidBodyAPI)]
    assert len(bodies) == len(house.parts)
    paths = [b.GetPath() for b in bodies]  # no rigid body nested in a rigid body
    assert not [(a, b) for a in paths for b in paths if a != b and a.HasPrefix(b)]
    joints = [p for p in house_prims if p.IsA(UsdPhysics.Joint)]
    kinds = {p.GetTypeName() for p in joints}
    assert len(joints) == len(house.parts) and kinds == {"PhysicsRevoluteJoint", "PhysicsPrismaticJoint"}
    for prim in joints:
        joint = UsdPhysics.Joint(prim)
        assert joint.GetBody0Rel().GetTargets() == []
        assert stage.GetPrimAtPath(joint.GetBody1Rel().GetTargets()[0]).HasAPI(UsdPhysics.RigidBodyAPI)


def test_seed_moves_the_house_and_same_seed_same_bytes(tmp_path, params, house):
    a, b = tmp_path / "a.usda", tmp_path / "b.usda"
    write_house_usd(generate_house(params), a)
    write_house_usd(generate_house(params), b)
    assert a.read_bytes() == b.read_bytes()
    other = generate_house({**params, "seed": params["seed"] + 1})
    assert other.boxes != house.boxes and other.rooms != house.rooms


def test_rooms_furniture_parts_and_appliances(house, ann):
    q = HouseQuery(ann)
    assert {r.name for r in ann.rooms} >= ROOMS
    furniture = {b.owner for b in house.boxes} - {"floor", "walls"}
    assert len(furniture) >= 30
    parts = {p.name: p for p in ann.articulated}
    assert len(parts) >= 12 and {p.joint for p in parts.values()} == {"revolute", "prismatic"}
    assert {p.category for p in parts.values()} == {"door", "drawer", "button", "knob"}
    for p in parts.values():
        hx0, hy0, hz0, hx1, hy1, hz1 = p.handle.box
        assert hx0 <= p.handle.center[0] <= hx1 and hz0 <= p.handle.center[2] <= hz1
        assert np.dot(p.handle.normal, p.handle.grasp) == pytest.approx(-1.0)
    assert {"fridge/door", "microwave/door", "microwave/start_button", "stove/power_key"} <= set(parts)
    assert parts["microwave/start_button"].category == "button"
    kinds = {a.kind: a for a in ann.appliances}
    assert kinds["microwave"].door == "microwave/door" and kinds["microwave"].switch == "microwave/start_button"
    assert kinds["stove"].switch == "stove/power_key" and len(kinds["stove"].zones) == 4
    supports = {s.name for s in ann.supports}
    assert {"fridge/shelf_1", "fridge/shelf_2", "microwave/bottom", "stove/burner_1"} <= supports
    part_rooms = {q.room_at(*np.mean(np.reshape(p.box, (2, 3)), axis=0)[:2]) for p in parts.values()}
    assert "bathroom" not in part_rooms and None not in part_rooms  # no cabinet in the bathroom


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_no_moving_part_overlaps_another_body(params, seed):
    """Every pair of separate bodies (each part against the static house and every other part) is
    apart at the closed pose, so an engine that filters nothing sees the same house."""
    assert body_overlaps(generate_house({**params, "seed": seed})) == []


def test_overlap_check_finds_an_overlap(house):
    part = house.parts[0]
    panel = part.boxes[0]
    intruder = type(panel)("intruder/box", panel.center, (0.01, 0.01, 0.01))
    moved = type(house)(**{**house.__dict__, "boxes": (*house.boxes, intruder)})
    assert [(a, b) for a, b, _ in body_overlaps(moved)] == [(panel.name, "intruder/box")]


def test_supports_found_from_geometry(ann, params):
    q = HouseQuery(ann)
    s = {s.name: s for s in ann.supports}
    for name in (
        "dining_table/top",
        "side_table/top",
        "study_desk/top",
        "bedroom_desk/top",
        "tv_stand/top",
        "kitchen_island/top",
        "counter_south/top",
        "bookcase_low/top",
        "bookcase_low/level_1",
        "bookcase_tall/level_3",
        "living_room/floor",
    ):
        assert name in s, name
    assert s["dining_table/top"].owner == "dining_table" and s["dining_table/top"].height == 0.75
    low = params["bookcase_low"]
    assert s["bookcase_low/top"].height == low["height"] and s["bookcase_low/top"].clearance is None
    assert s["bookcase_low/level_1"].clearance == pytest.approx(low["height"] - 0.02 - low["levels"][0])
    assert q.room_at(*np.mean(np.reshape(s["bookcase_low/top"].box, (2, 2)), axis=0)) == "living_room"
    assert q.room_at(*np.mean(np.reshape(s["bookcase_tall/level_1"].box, (2, 2)), axis=0)) == "study"
    counter = s["counter_west/top"].box  # cut around the microwave standing on it
    mw = next(o.box for o in ann.obstacles if o.name == "microwave/bottom")
    assert counter[3] <= mw[1] + 1e-6 or counter[1] >= mw[4] - 1e-6
    x, y = np.mean(np.reshape(s["dining_table/top"].box, (2, 2)), axis=0)
    assert q.support_under(x, y, 1.0).name == "dining_table/top"
    assert q.support_under(x, y, 0.5) is None  # the floor under the table is not free floor


def test_every_room_is_reachable_and_a_blocked_door_is_noticed(ann):
    assert HouseQuery(ann).reachable_rooms() == {r.name for r in ann.rooms}
    study = next(r for r in ann.rooms if r.name == "study")
    sx0, sy0 = study.polygon[0]
    wall = Obstacle(name="blocker/wall", box=(sx0 - 0.2, sy0 - 0.3, 0.0, 12.0, sy0 + 0.2, 2.0))
    blocked = ann.model_copy(update={"obstacles": [*ann.obstacles, wall]})
    assert "study" not in HouseQuery(blocked).reachable_rooms()


def test_handle_pose_follows_the_joint(ann):
    q = HouseQuery(ann)
    door = q.parts["fridge/door"]
    centre, normal, grasp = q.handle_pose("fridge/door", 0.0)
    assert centre == pytest.approx(door.handle.center) and grasp == pytest.approx(-normal)
    turned, n90, _ = q.handle_pose("fridge/door", np.pi / 2)
    radius = np.linalg.norm(np.subtract(door.handle.center, door.pivot)[:2])
    assert np.linalg.norm(np.subtract(turned, door.pivot)[:2]) == pytest.approx(radius)
    assert abs(np.dot(n90, door.handle.normal)) < 1e-9  # a quarter turn
    assert np.dot(np.subtract(turned, door.handle.center), door.handle.normal) > 0.1  # swings out
    drawer = q.parts["dresser/drawer_1"]
    pulled, _, _ = q.handle_pose("dresser/drawer_1", 0.2)
    assert np.subtract(pulled, drawer.handle.center) == pytest.approx(0.2 * np.array(drawer.axis))


def test_house_stage_writes_outputs_byte_identical(tmp_path):
    (tmp_path / "params.yaml").write_text((REPO / "params.yaml").read_text())
    env = {**os.environ, "PYTHONPATH": str(REPO), "HOUSEBENCH_MJCF_CACHE": str(tmp_path / "cache")}
    run = [sys.executable, "-m", "stages.house"]
    files = ("scenes/house/house.usda", "scenes/house/topdown.png", "annotations/house.json")
    subprocess.run(run, cwd=tmp_path, env=env, check=True)
    first = {f: (tmp_path / f).read_bytes() for f in files}
    HouseAnnotations.model_validate_json(first["annotations/house.json"])
    image = np.asarray(Image.open(tmp_path / files[1]))
    assert image.shape == (900, 1200, 3) and image.std() > 20
    subprocess.run(run, cwd=tmp_path, env=env, check=True)
    assert {f: (tmp_path / f).read_bytes() for f in files} == first


def test_topdown_plan_labels_furniture(ann):
    """Each piece of furniture's name is written (in blue) on the plan, over its surfaces."""
    from housebench.house.picture import _footprints, label_rooms, topdown_view

    blank = np.full((600, 800, 3), 255, np.uint8)
    picture = np.asarray(label_rooms(blank, ann)).astype(int)
    blue = (np.abs(picture - (20, 40, 120)).sum(-1) < 40).nonzero()
    assert blue[0].size > 0
    x0, y0, x1, y1 = ann.bounds
    cx, cy, extent = topdown_view(x1 - x0, y1 - y0)
    scale = 600 / extent
    footprints = _footprints(ann)
    assert {"dining_table", "fridge"} <= set(footprints) and not set(footprints) & {r.name for r in ann.rooms}
    b = footprints["dining_table"]
    px = 400 + ((b[0] + b[2]) / 2 - x0 - cx) * scale
    py = 300 - ((b[1] + b[3]) / 2 - y0 - cy) * scale
    near = (np.abs(blue[1] - px) < 40) & (np.abs(blue[0] - py) < 10)
    assert near.any()  # blue text where the dining table stands


def test_robot_footprint_and_reach_are_measured(ann):
    """Fetch's footprint comes from its MJCF: a 0.29 m base disc 0.36 m tall whose column stands back
    far enough that the base slides under a tabletop; reach by height from the IK measurement."""
    fp = ann.robot.footprint
    assert fp.radius == pytest.approx(0.288, abs=0.002) and fp.base_height == pytest.approx(0.364, abs=0.002)
    assert fp.column_radius <= fp.radius and fp.column[2] < fp.radius - 0.1 and fp.height > 1.0
    zs = [b.z for b in ann.robot.reach]
    assert zs == sorted(zs) and all(a[1] <= b[0] for a, b in zip(zs, zs[1:]))
    table = ann.robot.reach_at(0.8)  # issue 12's probe: top-down at table height works 0.45-0.75, fails 0.85
    assert table.min <= 0.45 and 0.75 <= table.max < 0.85
    assert ann.robot.reach_at(2.0) is None


def test_plan_marks_each_prop_where_it_stands(ann):
    from housebench.house.picture import PROP_RED, label_props, plan_pixel

    blank = Image.new("RGB", (800, 600), "white")
    table = next(s for s in ann.supports if s.owner == "dining_table")
    x, y = (table.box[0] + table.box[2]) / 2, (table.box[1] + table.box[3]) / 2
    picture = np.asarray(label_props(blank, ann, {"apple": (x, y)})).astype(int)
    px, py = (round(v) for v in plan_pixel(ann, 800, 600)(x, y))
    assert (picture[py, px] == PROP_RED).all()  # the dot
    red = (np.abs(picture - PROP_RED).sum(-1) < 60).nonzero()
    assert (red[1] > px + 8).any()  # and its name to the right of it
