"""The compiled-model cache: keyed by the compiler's own source, bounded, least recently used first."""

from __future__ import annotations

import os
from pathlib import Path

from usd_fixtures import settle_params

from housebench.hashing import PACKAGE_ROOT, code_hash, module_files, prune_cache
from housebench.sim.mujoco import MujocoBackend
from housebench.sim.registry import make_backend


def _package(root: Path) -> Path:
    """A package ``housebench`` under ``root``: ``compile`` imports ``helper`` inside a function."""
    pkg = root / "housebench"
    (pkg / "sim").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sim" / "__init__.py").write_text("")
    (pkg / "sim" / "compile.py").write_text("import numpy\n\n\ndef f():\n    from housebench.sim import helper\n")
    (pkg / "sim" / "helper.py").write_text("X = 1\n")
    (pkg / "unrelated.py").write_text("Y = 2\n")
    return pkg


def test_the_compiler_closure_is_what_builds_the_model():
    files = {p.relative_to(PACKAGE_ROOT).as_posix() for p in module_files("housebench.sim.mujoco.compile")}
    assert {"sim/mujoco/compile.py", "sim/mujoco/bodies.py", "sim/mujoco/joints.py", "robot/fetch.py"} <= files
    assert "sim/mujoco/cache.py" not in files and "tasks/evaluator.py" not in files


def test_code_hash_follows_imports_inside_functions_and_ignores_the_rest(tmp_path):
    pkg = _package(tmp_path)
    assert [p.name for p in module_files("housebench.sim.compile", pkg)] == ["__init__.py", "compile.py", "helper.py"]
    before = code_hash("housebench.sim.compile", pkg)
    (pkg / "unrelated.py").write_text("Y = 3\n")
    assert code_hash("housebench.sim.compile", pkg) == before
    (pkg / "sim" / "helper.py").write_text("X = 2\n")
    assert code_hash("housebench.sim.compile", pkg) != before


def test_prune_removes_least_recently_used_first(tmp_path):
    files = []
    for i in range(4):
        path = tmp_path / f"{i}.mjb"
        path.write_bytes(b"x" * 100)
        os.utime(path, (1000 + i, 1000 + i))
        files.append(path)
    os.utime(files[0], (2000, 2000))  # used last
    removed = prune_cache(tmp_path, "*.mjb", 250, keep=files[1])
    assert removed == [files[2], files[3]]
    assert sorted(tmp_path.glob("*.mjb")) == [files[0], files[1]]


def test_the_cache_is_bounded_and_a_hit_counts_as_a_use(scenes, tmp_path):
    table, floor = (scenes / f"scenes/tasks/drop/{v}/task.usda" for v in ("table", "floor"))
    house = scenes / "scenes/house/house.usda"
    probe = MujocoBackend(cache_dir=tmp_path / "probe")
    total = sum(probe.load(scene).cache_file.stat().st_size for scene in (table, floor, house))
    backend = MujocoBackend(cache_dir=tmp_path / "cache", cache_max_mb=(total - 1) / 2**20)
    old_table, old_floor = backend.load(table).cache_file, backend.load(floor).cache_file
    os.utime(old_table, (1000, 1000))
    os.utime(old_floor, (2000, 2000))
    assert backend.load(table).cache_hit  # the hit makes the table scene the most recently used
    assert not backend.load(house).cache_hit  # over the bound: the floor scene, least recently used, goes
    assert old_table.exists() and not old_floor.exists()
    assert not backend.load(floor).cache_hit


def test_the_settle_params_bound_the_cache():
    backend = make_backend("mujoco", cache_max_mb=settle_params()["mjcf_cache_mb"])
    assert backend.cache_max_bytes == settle_params()["mjcf_cache_mb"] * 2**20
