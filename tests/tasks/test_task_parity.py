"""The parity table (parity.json): predicate x state -> verdict, boundary rows and rows that raise."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError
from task_world import ROLES, state_of

from housebench.tasks.evaluator import GoalError, evaluate
from housebench.tasks.goal import LEAVES, Goal
from housebench.tasks.predicates import PREDICATES

CASES = json.loads((Path(__file__).parent / "parity.json").read_text())["cases"]
ERRORS = {"GoalError": GoalError, "ValidationError": ValidationError}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_parity(case, scene):
    def run():
        goal = Goal(roles=ROLES, places=case.get("places", {}), condition=case["condition"])
        state = state_of(
            scene,
            case.get("objects"),
            temperatures_c=case.get("temperatures_c", {}),
            joints=case.get("joints", {}),
            contacts=case.get("contacts", {}),
        )
        initial = state_of(scene, case.get("initial"))
        return evaluate(goal, state, scene, initial)

    if "raises" in case:
        with pytest.raises(ERRORS[case["raises"]]):
            run()
        return
    verdict = run()
    assert verdict.success is case["ok"], verdict.model_dump_json(indent=1)
    if "progress" in case:
        assert verdict.progress == case["progress"]


def test_table_covers_every_predicate():
    assert set(PREDICATES) == set(LEAVES)
    covered = {c["id"].split("/")[0] for c in CASES}
    assert set(LEAVES) | {"all_of", "any_of"} <= covered
