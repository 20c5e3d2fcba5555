"""Settling task scenes: rest poses written back as a thin layer, bad props skipped, stability."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from pxr import Sdf, Usd, UsdGeom
from usd_fixtures import REPO, settle_params

from housebench.sim.mujoco import MujocoBackend
from housebench.sim.settle import settle_scene


@pytest.fixture
def backend(tmp_path):
    return MujocoBackend(cache_dir=tmp_path / "cache")


def test_settle_writes_a_layer_over_the_task_with_the_rest_pose(scenes, tmp_path, backend, house):
    task = scenes / "scenes/tasks/drop/table/task.usda"
    out = scenes / "scenes/settled/drop/table"
    out.mkdir(parents=True)
    report = settle_scene(backend, task, out, settle_params())
    assert report["passed"] and report["skipped"] == [] and report["stability"]["passed"]
    layer = Sdf.Layer.FindOrOpen(str(out / "scene.usda"))
    assert list(layer.subLayerPaths) == ["../../../tasks/drop/table/task.usda"]
    stage = Usd.Stage.Open(str(out / "scene.usda"))
    top = next(b for b in house.boxes if b.name == "dining_table/top").bounds[5]
    z = (
        UsdGeom.Xformable(stage.GetPrimAtPath("/World/Props/box"))
        .ComputeLocalToWorldTransform(0)
        .ExtractTranslation()[2]
    )
    assert z == pytest.approx(top, abs=1e-3)
    assert stage.GetPrimAtPath("/World/House/dining_table/top")  # the house still composes through


def test_a_prop_that_falls_is_skipped_and_reported(scenes, backend):
    task = scenes / "scenes/tasks/drop/floor/task.usda"
    out = scenes / "scenes/settled/drop/floor"
    out.mkdir(parents=True)
    report = settle_scene(backend, task, out, settle_params())
    assert report["props"]["stray"]["status"] == "fell" and report["skipped"] == ["stray"]
    assert report["props"]["box"]["status"] == "ok" and not report["passed"]
    stage = Usd.Stage.Open(str(out / "scene.usda"))
    assert not stage.GetPrimAtPath("/World/Props/stray").IsActive()
    assert set(report["stability"]["drift"]) == {"box"}


def test_settle_stage_is_byte_identical_on_rerun(scenes, tmp_path):
    work = tmp_path / "work"
    (work / "scenes").mkdir(parents=True)
    for sub in ("scenes/house", "scenes/tasks", "assets"):
        os.symlink(scenes / sub, work / sub)
    (work / "params.yaml").write_text((REPO / "params.yaml").read_text())
    env = {**os.environ, "PYTHONPATH": str(REPO), "HOUSEBENCH_MJCF_CACHE": str(tmp_path / "c")}
    run = [sys.executable, "-m", "stages.settle"]
    subprocess.run(run, cwd=work, env=env, check=True)
    settled = work / "scenes/settled/drop/table"
    first = {p: (settled / p).read_bytes() for p in ("scene.usda", "check.json")}
    subprocess.run(run, cwd=work, env=env, check=True)
    assert {p: (settled / p).read_bytes() for p in first} == first
    check = json.loads(first["check.json"])
    assert check["scene"] == "drop/table" and check["props"]["box"]["status"] == "ok"
