"""Skill tuning as typed config (housebench/skills/tuning/): defaults are today's numbers, an override reaches the
skills of an episode (and only that episode) and its events echo it."""

from __future__ import annotations

import dataclasses
import math
from types import SimpleNamespace

import numpy as np
import pytest
from pydantic import ValidationError

from housebench.rollout.episode import run_episode
from housebench.skills.carry import Carry, carry_pos
from housebench.skills.navigate import Navigate
from housebench.skills.pick import Pick
from housebench.skills.place import Place, pre_heights
from housebench.skills.tuning import DEFAULT, SkillTuning, config_hash, from_overrides, overrides, tuning, using
from tests.conftest import built_job


def test_the_defaults_are_the_numbers_the_skills_had():
    assert tuning() == DEFAULT == SkillTuning() and overrides(DEFAULT) == {}
    assert pre_heights() == (0.12, 0.06, 0.02)
    assert (Pick("x").timeout_s, Carry().timeout_s, Navigate((0, 0, 0)).timeout_s) == (120.0, 20.0, 90.0)
    assert DEFAULT.place.drop_m == 0.015 and DEFAULT.pick.carry == (0.3, 0.0, 1.15)


def test_every_field_is_documented_with_a_comment():
    import inspect

    for family in SkillTuning.model_fields.values():
        model = family.annotation
        assert model.__doc__ and model.__doc__.startswith("``skills."), model.__name__
        lines = inspect.getsource(model).splitlines()
        for name in model.model_fields:
            line = next(line for line in lines if line.lstrip().startswith(f"{name}:"))
            assert "  # " in line, f"{model.__name__}.{name} has no comment saying what it tunes"


def test_an_override_is_strict_frozen_and_scoped():
    with pytest.raises(ValidationError):
        from_overrides({"place": {"drop_mm": 0.02}})
    config = from_overrides({"pick": {"approach_m": 0.2, "carry": [0.35, 0.0, 1.1]}})
    with pytest.raises(ValidationError):
        config.pick.approach_m = 0.3  # frozen
    obs = SimpleNamespace(base=(1.0, 2.0, math.pi / 2))  # all carry_pos reads
    with using(from_overrides({"navigate": {"timeout_s": 2.0}})):
        assert Navigate((0, 0, 0)).timeout_s == 2.0
    with using(config):
        assert pre_heights()[0] == 0.2 and Place("x", container="c").drop == 0.015
        assert np.allclose(carry_pos(obs), (1.0, 2.35, 1.1))
    assert pre_heights()[0] == 0.12 and np.allclose(carry_pos(obs), (1.0, 2.3, 1.15))  # back to the defaults
    assert overrides(config) == {"pick": {"approach_m": 0.2, "carry": [0.35, 0.0, 1.1]}}
    assert config_hash(config) != config_hash(DEFAULT)


def test_an_episode_echoes_its_tuning():
    job = built_job("put_fruit_in_container", "v000", "noop", horizon_s=0.3)
    _, kind, detail = run_episode(job).events[0]
    assert kind == "episode_start" and detail["skills"] == {"hash": config_hash(DEFAULT), "overrides": {}}
    tuned = dataclasses.replace(job, skills={"place": {"drop_m": 0.02}})
    echo = run_episode(tuned).events[0][2]["skills"]
    assert echo["overrides"] == {"place": {"drop_m": 0.02}} and echo["hash"] != config_hash(DEFAULT)
    bad = run_episode(dataclasses.replace(job, skills={"place": {"drop_mm": 0.02}}))
    assert bad.crash and "drop_mm" in bad.crash and bad.events[0][2]["skills"]["hash"] == ""


def test_an_override_changes_what_the_skills_of_an_episode_do():
    """The scripted policy's first pick, given 2 s instead of 120 s, times out: the override went from the job
    through the episode to the skill."""
    job = built_job("stack_blocks", "v000", "scripted", horizon_s=4.0)
    ends = [d for _, kind, d in run_episode(job).events if kind == "skill_end"]
    assert not any(d.get("reason") == "timeout" for d in ends)
    tuned = run_episode(dataclasses.replace(job, skills={"pick": {"timeout_s": 2.0}}))
    ends = [d for _, kind, d in tuned.events if kind == "skill_end"]
    assert ends and ends[0]["skill"] == "pick" and ends[0]["reason"] == "timeout", ends


def test_the_rollout_passes_the_params_tuning_with_every_job(monkeypatch, tmp_path):
    import housebench.pipeline.rollout as pipeline
    from housebench.params import load_section
    from housebench.rollout.plan import RolloutParams
    from tests.builtdata import built

    ran = []
    monkeypatch.setattr(pipeline, "run_cached", lambda jobs, *a, **k: ran.extend(jobs) or [])
    monkeypatch.setattr(pipeline, "write_run", lambda *a, **k: None)
    layout = built()
    params = load_section("rollout", RolloutParams, layout.at("params.yaml")).model_copy(update={"policies": ["noop"]})
    pipeline.run_rollouts("t", params, layout, tmp_path, skills={"pick": {"lift_m": 0.2}})
    assert ran and all(job.skills == {"pick": {"lift_m": 0.2}} for job in ran)
    ran.clear()
    pipeline.run_rollouts("t", params, layout, tmp_path)
    assert ran and all(job.skills == {} for job in ran)
