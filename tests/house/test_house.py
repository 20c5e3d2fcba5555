"""The house generator, its USD layer and its annotations."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from pxr import Usd, UsdGeom, UsdValidation

from housebench.annotations.schema import HouseAnnotations
from housebench.house.annotate import house_annotations
from housebench.house.layout import generate_house
from housebench.usd.house import ROBOT_PATH, read_boxes, write_house_usd

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def params() -> dict:
    return yaml.safe_load((REPO / "params.yaml").read_text())["house"]


def test_house_usd_validates_and_composes(tmp_path, params):
    house = generate_house(params)
    path = tmp_path / "house.usda"
    write_house_usd(house, path)
    stage = Usd.Stage.Open(str(path))
    registry = UsdValidation.ValidationRegistry()
    errors = UsdValidation.ValidationContext(registry.GetOrLoadAllValidators()).Validate(stage)
    assert [e.GetMessage() for e in errors] == []
    assert stage.GetDefaultPrim().GetPath() == "/World"
    assert UsdGeom.GetStageUpAxis(stage) == "Z" and UsdGeom.GetStageMetersPerUnit(stage) == 1.0
    robot = stage.GetPrimAtPath(ROBOT_PATH)
    assert robot.GetAttribute("housebench:robot").Get() == "fetch"
    assert {b.name: b for b in read_boxes(stage)} == {b.name: b for b in house.boxes}


def test_seed_moves_furniture_and_same_seed_same_bytes(tmp_path, params):
    a, b = tmp_path / "a.usda", tmp_path / "b.usda"
    write_house_usd(generate_house(params), a)
    write_house_usd(generate_house(params), b)
    assert a.read_bytes() == b.read_bytes()
    other = generate_house({**params, "seed": params["seed"] + 1})
    assert other.boxes != generate_house(params).boxes


def test_annotations_list_table_top_and_shelf_levels(params):
    house = generate_house(params)
    ann = HouseAnnotations.model_validate(house_annotations(house).model_dump(mode="json"))
    supports = {s.name: s for s in ann.supports}
    assert set(supports) == {"table/top", "shelf/level_1", "shelf/level_2"}
    assert supports["table/top"].height == params["table"]["height"]
    low, high = params["shelf"]["levels"]
    assert supports["shelf/level_1"].clearance == pytest.approx(high - params["shelf"]["board"] - low)
    assert supports["shelf/level_2"].clearance is None
    assert {o.name for o in ann.obstacles} >= {"table/top", "walls/north", "shelf/side_left"}
    assert ann.robot.start == tuple(params["robot_start"])


def test_house_stage_writes_outputs(tmp_path):
    (tmp_path / "params.yaml").write_text((REPO / "params.yaml").read_text())
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    subprocess.run([sys.executable, "-m", "stages.house"], cwd=tmp_path, env=env, check=True)
    first = (tmp_path / "scenes/house/house.usda").read_bytes()
    HouseAnnotations.model_validate_json((tmp_path / "annotations/house.json").read_text())
    subprocess.run([sys.executable, "-m", "stages.house"], cwd=tmp_path, env=env, check=True)
    assert (tmp_path / "scenes/house/house.usda").read_bytes() == first
