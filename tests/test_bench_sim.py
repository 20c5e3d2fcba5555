"""The simulation benchmark's baseline (``bench/bench_sim.py``): Fetch on a bare floor, not in it."""

import importlib.util
from pathlib import Path

import pytest

from housebench.robot import fetch
from housebench.sim.mujoco import MujocoBackend

SPEC = importlib.util.spec_from_file_location("bench_sim", Path(__file__).parents[1] / "bench" / "bench_sim.py")
bench = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(bench)


def test_the_bare_floor_has_its_top_at_zero_and_never_touches_the_robot(tmp_path):
    scene = bench.bare_floor(tmp_path / "bare.usda", (2.0, 3.0, 90.0))
    assert bench.robot_start(scene) == pytest.approx((2.0, 3.0, 90.0))
    sim = MujocoBackend(cache_dir=tmp_path / "cache").load(scene)
    slab = sim.model.geom("House/floor/slab").id
    assert sim.data.geom_xpos[slab][2] + sim.model.geom_size[slab][2] == pytest.approx(0.0, abs=1e-9)
    for moving in (False, True):
        bench.run_phase(sim, 0.5, moving)
        assert sim.data.ncon == 0
    assert sim.get_state().joints[fetch.BASE_JOINTS[2]] == pytest.approx(1.5708, abs=1e-3)
