"""Recordings of short scripted episodes on built scenes, shared by the demos tests (recorded once per
session: a few simulated seconds each, enough for the robot to drive and reach)."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from tests.conftest import ROOT

# Where the built data is (scenes/, annotations/, params.yaml): the repository, or another checkout's.
DATA = Path(os.environ.get("HOUSEBENCH_DATA", ROOT))
EPISODES = {  # task/variant -> simulated seconds recorded, head images every N steps (None: no images)
    ("breakfast_setup", "v000"): (6.0, 2),
    ("arrange_drinks", "v000"): (4.0, None),
}


def layout():
    from housebench.paths import Layout

    return Layout(root=DATA)


@pytest.fixture(scope="session")
def recordings(tmp_path_factory) -> list[Path]:
    """One recording folder per entry of :data:`EPISODES` (the tests skip, saying so, without the scenes)."""
    from housebench.demos.generate import make_job
    from housebench.demos.record import record_episode
    from housebench.demos.recorder import ImageOptions
    from housebench.params import load_section
    from housebench.rollout.plan import RolloutParams

    missing = [f"{t}/{v}" for t, v in EPISODES if not layout().settled_scene(t, v).is_file()]
    if missing:
        pytest.skip(f"built scenes missing ({', '.join(missing)}): dvc repro annotate")
    rollout = load_section("rollout", RolloutParams, DATA / "params.yaml")
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
