"""Recordings of short scripted episodes on built scenes, shared by the demos tests (recorded once per
session: a few simulated seconds each, enough for the robot to drive and reach)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from tests.builtdata import built

EPISODES = {  # task/variant -> simulated seconds recorded, head images every N steps (None: no images)
    ("breakfast_setup", "v000"): (6.0, 2),
    ("arrange_drinks", "v000"): (4.0, None),
}


def layout():
    """The tests' small build (tests/builtdata.py): every pair of :data:`EPISODES` is in its ``VARIANTS``."""
    return built()


@pytest.fixture(scope="session")
def recordings(tmp_path_factory, built_layout) -> list[Path]:
    """One recording folder per entry of :data:`EPISODES` (``built_layout``: the small build is made before the
    first test, outside its timeout)."""
    from housebench.demos.generate import make_job
    from housebench.demos.record import record_episode
    from housebench.demos.recorder import ImageOptions
    from housebench.params import load_section
    from housebench.rollout.plan import RolloutParams

    for task, variant in EPISODES:
        built(task, variant)  # a pair missing from VARIANTS is an error that says so
    rollout = load_section("rollout", RolloutParams, layout().at("params.yaml"))
    root = tmp_path_factory.mktemp("recordings")
    out = []
    for (task, variant), (horizon_s, every) in EPISODES.items():
        job = make_job(layout(), task, variant, "scripted", 0, rollout, {"attempts": 3})
        job = dataclasses.replace(job, horizon_s=horizon_s)
        images = ImageOptions(every=every) if every else None
        path = root / task / variant / "scripted-s000000"
        record_episode(job, path, images)
        out.append(path)
    return out
