"""The regression scenarios (``regressions.yaml``): every rule they name still exists where they say, every pair with
a variant is built for a test or says why it fails today, and (slow) each such pair's episode succeeds under the
policy that showed the rule."""

from __future__ import annotations

import ast
import json
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
import yaml

from tests.builtdata import SLOW_VARIANTS, VARIANTS
from tests.conftest import ROOT

SCENARIOS = ROOT / "tests/skills/regressions.yaml"
FIELDS = {"task", "variant", "policy", "where", "rule", "fails"}
HORIZON_S = 420.0  # for a task whose spec names none (the rollout's default)


@cache
def scenarios() -> list[dict]:
    return yaml.safe_load(SCENARIOS.read_text(encoding="utf-8"))["scenarios"]


def defined(module: Path, qualname: str) -> bool:
    """Whether ``module`` defines ``qualname`` (``Class.method`` or ``function``) at its top level."""
    body = ast.parse(module.read_text(encoding="utf-8")).body
    for name in qualname.split("."):
        found = [n for n in body if isinstance(n, ast.FunctionDef | ast.ClassDef) and n.name == name]
        if not found:
            return False
        body = found[0].body
    return True


def runnable() -> list[dict]:
    return [s for s in scenarios() if s["variant"] and "fails" not in s]


def test_every_scenario_names_an_existing_rule_and_a_known_task():
    assert scenarios(), "no scenario"
    for s in scenarios():
        assert set(s) <= FIELDS and FIELDS - {"fails"} <= set(s), s
        assert (ROOT / "tasks" / f"{s['task']}.json").is_file(), s["task"]
        assert s["policy"] in ("scripted", "planned"), s
        path, qualname = s["where"].split()
        assert defined(ROOT / "housebench" / path, qualname), f"{s['where']}: no such rule any more (move its scenario)"


def test_every_scenario_with_a_variant_is_built_or_says_why_it_fails():
    built = set(VARIANTS) | set(SLOW_VARIANTS)
    for s in scenarios():
        if s["variant"] and "fails" not in s:
            assert (s["task"], s["variant"]) in built, f"{s['task']} {s['variant']}: add it to SLOW_VARIANTS"


@pytest.mark.slow
@pytest.mark.parametrize("scenario", runnable(), ids=lambda s: f"{s['task']}-{s['variant']}-{s['policy']}")
def test_the_scenarios_episode_succeeds(scenario):
    from housebench.rollout.episode import run_episode
    from tests.conftest import built_job

    task, variant = scenario["task"], scenario["variant"]
    job = built_job(task, variant, scenario["policy"], HORIZON_S)
    horizon = json.loads(job.task_file.read_text(encoding="utf-8")).get("horizon_s") or HORIZON_S
    outcome = run_episode(replace(job, horizon_s=horizon))
    assert not outcome.crash, outcome.crash
    assert outcome.verdict is not None and outcome.verdict.success, f"{task} {variant}: {scenario['rule']}"
