"""Skill tuning as typed config (housebench/skills/tuning.py): defaults are today's numbers, an override reaches the
skills of an episode (and only that episode) and its events echo it."""

from __future__ import annotations

import dataclasses

import pytest
from pydantic import ValidationError

from housebench.rollout.episode import run_episode
from housebench.skills.navigate import Navigate
from housebench.skills.tuning import DEFAULT, SkillTuning, config_hash, from_overrides, overrides, tuning, using
from tests.conftest import built_job


def test_the_defaults_are_the_numbers_the_skills_had():
    assert tuning() == DEFAULT == SkillTuning() and overrides(DEFAULT) == {}
    assert Navigate((0, 0, 0)).timeout_s == 90.0 and DEFAULT.navigate.open_part == 0.05


def test_every_field_is_documented_with_a_comment():
    import inspect

    import housebench.skills.tuning as module

    source = inspect.getsource(module)
    for family in SkillTuning.model_fields.values():
        for name in family.annotation.model_fields:
            line = next(line for line in source.splitlines() if line.lstrip().startswith(f"{name}:"))
            assert "#" in line, f"{family.annotation.__name__}.{name} has no comment saying what it tunes"


def test_an_override_is_strict_frozen_and_scoped():
    with pytest.raises(ValidationError):
        from_overrides({"navigate": {"timeout": 2.0}})
    config = from_overrides({"navigate": {"timeout_s": 2.0}})
    with pytest.raises(ValidationError):
        config.navigate.timeout_s = 3.0  # frozen
    with using(config):
        assert Navigate((0, 0, 0)).timeout_s == 2.0
    assert Navigate((0, 0, 0)).timeout_s == 90.0  # back to the defaults
    assert overrides(config) == {"navigate": {"timeout_s": 2.0}}
    assert config_hash(config) != config_hash(DEFAULT)


def test_an_episode_echoes_its_tuning():
    job = built_job("put_fruit_in_container", "v000", "noop", horizon_s=0.3)
    kinds = [(kind, detail) for _, kind, detail in run_episode(job).events]
    assert kinds[1] == ("skills_config", {"hash": config_hash(DEFAULT), "overrides": {}})
    tuned = dataclasses.replace(job, skills={"navigate": {"arm_top_m": 1.7}})
    detail = next(d for _, kind, d in run_episode(tuned).events if kind == "skills_config")
    assert detail["overrides"] == {"navigate": {"arm_top_m": 1.7}} and detail["hash"] != config_hash(DEFAULT)
