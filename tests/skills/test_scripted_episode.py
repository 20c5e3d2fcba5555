"""The scripted policy in contact physics, through the rollout's own episode loop (slow: needs the
built scenes of ``dvc repro annotate``)."""

from __future__ import annotations

import pytest

from housebench.rollout.episode import run_episode
from tests.conftest import built_job

TASK, VARIANT = "put_fruit_in_container", "v000"


@pytest.mark.slow
def test_scripted_puts_the_apple_in_the_bowl_by_contact():
    job = built_job(TASK, VARIANT, "scripted", horizon_s=200.0)
    out = run_episode(job)
    assert out.crash is None, out.crash
    assert out.verdict.success, [c.items for c in out.verdict.conditions if not c.ok]
    kinds = [(kind, d.get("skill"), d.get("ok")) for _, kind, d in out.events if kind == "skill_end"]
    assert ("skill_end", "pick", True) in kinds and ("skill_end", "place", True) in kinds
    assert out.sim_s < 200.0  # the policy said stop before the horizon
