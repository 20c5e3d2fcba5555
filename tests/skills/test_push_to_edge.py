"""The push of a flat item to its support's edge, in physics on a built scene (skipped without the
scenes of ``dvc repro annotate``): a stroke that leaves the item short of the overhang is followed by
another from behind it, and the item ends overhanging by the push's postcondition."""

from __future__ import annotations

import pytest

from housebench.skills.base import SkillContext, SkillRunner
from housebench.skills.edge import OVERHANG, PushToEdge, overhanging
from tests.conftest import built_job


@pytest.mark.slow
def test_a_short_first_stroke_is_followed_by_another_until_the_item_overhangs():
    # shelve_books v001: the book on nightstand_right ended 0.0348 m over the edge after one stroke (0.035 needed)
    episode = built_job("shelve_books", "v001", "noop", horizon_s=200.0).open()
    obs = episode.reset(0)
    logged = []

    def log(kind, **detail):
        logged.append((kind, detail))

    ctx = SkillContext(task=episode.task, scene=episode.scene, control_dt=0.1, initial=obs.state, log=log)
    runner = SkillRunner(PushToEdge("book"), ctx, obs)
    while (action := runner.step(obs)) is not None and not episode.done:
        obs = episode.step(action)
    assert runner.failure is None, runner.failure
    assert overhanging(ctx, obs, "book", OVERHANG - 0.025) is not None
    assert any("stroke_again" in d for kind, d in logged if kind == "decision"), logged
