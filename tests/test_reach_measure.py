"""The reach bands in ``housebench.robot.fetch.REACH`` are what ``bench/measure_reach.py`` measures."""

import importlib.util
from pathlib import Path

import pytest

from housebench.robot import fetch

SPEC = importlib.util.spec_from_file_location("measure_reach", Path(__file__).parents[1] / "bench" / "measure_reach.py")
bench = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(bench)


def _band(bands, z):
    return next(((lo, hi) for (z0, z1), lo, hi in bands if z0 <= z <= z1), None)


@pytest.mark.slow
def test_the_annotated_reach_is_the_measured_reach():
    measured = bench.bands(bench.measure(), margin=0.05)
    for (z0, z1), lo, hi in measured:
        assert _band(fetch.REACH, (z0 + z1) / 2) == (lo, hi), (z0, z1)
    assert {_band(fetch.REACH, (z0 + z1) / 2) for (z0, z1), _, _ in fetch.REACH} <= {(lo, hi) for _, lo, hi in measured}
