"""What a Ray worker node gets of a job (housebench.rollout.cluster): every file the episode reads, by content, laid
out so the scene's layers still find each other; the job's paths rewritten onto that copy. Ray's object store is
stood in for by the bytes themselves here (the multi-node test, tests/rollout/test_cluster.py, uses the real one)."""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path

import pytest

from housebench.rollout import cluster
from housebench.rollout.cluster import PACKAGE, Packer, unpack
from tests.conftest import built_job

ray = pytest.importorskip("ray")


@pytest.fixture
def packer(monkeypatch) -> Packer:
    monkeypatch.setattr(ray, "get", lambda refs: list(refs))  # an "object ref" is the bytes
    packer = Packer()
    packer.ray = type("Store", (), {"put": staticmethod(lambda data: data)})
    return packer


def test_a_job_is_shipped_with_its_scene_closure_and_runs_on_the_copy(packer, tmp_path):
    job = built_job("chill_drink", "v000", "noop", horizon_s=1.0)
    parcel = packer.parcel(job)
    names = {Path(rel).name for rel, _, _ in parcel.files}
    assert {"scene.usda", "task.usda", "house.usda", "fetch.usda", "asset.usda", "task.json"} <= names
    assert job.annotations.name in names
    for rel, sha, data in parcel.files:
        assert hashlib.sha256(data).hexdigest() == sha and not Path(rel).is_absolute() and ".." not in rel
    tree = unpack(parcel, tmp_path / "store")
    assert unpack(parcel, tmp_path / "store") == tree  # a second job of the same files: nothing fetched again
    fields = {name: tree / rel for name, base, rel in parcel.fields if base == "tree"}
    assert set(fields) == {"scene", "task_file", "annotations"}
    for name, path in fields.items():
        assert path.read_bytes() == getattr(job, name).read_bytes()
    here = dataclasses.replace(job, **fields)
    episode, original = here.open(), job.open()
    assert episode.reset(0) is not None and episode.state() == original.reset(0).state


def test_a_file_inside_the_package_is_read_from_the_shipped_package(packer):
    scenario = next((PACKAGE / "components" / "scenarios").glob("*.yaml"))
    job = built_job("chill_drink", "v000", "noop", horizon_s=1.0)
    parcel = packer.parcel(dataclasses.replace(job, task_file=scenario))
    assert ("task_file", "package", scenario.relative_to(PACKAGE).as_posix()) in parcel.fields
    assert scenario.name not in {Path(rel).name for rel, _, _ in parcel.files}


def test_a_missing_file_keeps_its_place_so_the_episode_names_it(packer, tmp_path):
    job = dataclasses.replace(built_job("chill_drink", "v000", "noop", horizon_s=1.0), task_file=tmp_path / "gone.json")
    parcel = packer.parcel(job)
    tree = unpack(parcel, tmp_path / "store")
    where = dict((name, rel) for name, _, rel in parcel.fields)["task_file"]
    assert where.endswith("gone.json") and not (tree / where).exists()
    assert cluster.files_dir().name == cluster.FILES_DIR
