"""The evaluator on hand-written states of the first task: verdict, progress, bindings, reasons."""

from __future__ import annotations

import pytest
from task_world import SPEC, state_of

from housebench.tasks.evaluator import GoalError, evaluate
from housebench.tasks.goal import Goal
from housebench.tasks.spec import load_spec

GOAL = Goal(roles={"apple": "fruit", "bowl": "container"}, condition=load_spec(SPEC).goal)
IN_BOWL = {"apple": {"pos": [2.0, 1.9, 0.76]}}


def test_apple_in_bowl_on_table_succeeds(scene):
    verdict = evaluate(GOAL, state_of(scene, IN_BOWL), scene)
    assert verdict.success and verdict.progress == 1.0 and verdict.bindings == {"container": "bowl"}
    assert [c.predicate for c in verdict.conditions] == ["inside", "on", "not_dropped"]
    assert [c.index for c in verdict.conditions] == [0, 1, 2]
    assert [i.item for i in verdict.conditions[2].items] == ["apple", "bowl"]
    assert "in bowl" in verdict.conditions[2].items[0].reason


def test_initial_scene_fails_with_partial_progress(scene):
    verdict = evaluate(GOAL, state_of(scene), scene)
    assert not verdict.success and verdict.progress == 2 / 3  # inside fails; on and not_dropped hold
    inside = verdict.conditions[0].items[0]
    assert inside.item == "apple" and not inside.ok and "radius 0.200000 (max 0.08) FAIL" in inside.reason


def test_bowl_on_its_side_fails_on_upright(scene):
    tipped = {**IN_BOWL, "bowl": {"pos": [2.0, 1.9, 0.84], "quat": [0.70710678, 0.70710678, 0, 0]}}
    verdict = evaluate(GOAL, state_of(scene, tipped), scene)
    on = verdict.conditions[1].items[0]
    assert not verdict.success and not on.ok and "tilt 90.000 deg (max 20.0) FAIL" in on.reason


def test_fruit_on_the_floor_is_dropped(scene):
    verdict = evaluate(GOAL, state_of(scene, {"apple": {"pos": [1.0, 1.0, 0.0]}}), scene)
    dropped = verdict.conditions[2].items[0]
    assert not verdict.success and dropped.item == "apple" and not dropped.ok
    assert dropped.reason == "bottom 0.750000 -> 0.000000 m, outside every container"


def test_explicit_initial_state_overrides_the_annotations(scene):
    start = state_of(scene, {"apple": {"pos": [1.0, 1.0, 0.0]}})
    verdict = evaluate(GOAL, state_of(scene, {"apple": {"pos": [1.0, 1.0, 0.0]}}), scene, start)
    assert verdict.conditions[2].ok  # it started on the floor: not dropped


def test_absent_optional_object_is_not_required(scene):
    goal = Goal(roles={"bowl": "container"}, absent={"apple": "fruit"}, condition=GOAL.condition)
    verdict = evaluate(goal, state_of(scene, {"apple": None}), scene)
    assert verdict.success and verdict.conditions[0].items == []


def test_missing_object_in_state_is_an_error(scene):
    with pytest.raises(GoalError, match="'apple' is missing from the state"):
        evaluate(GOAL, state_of(scene, {"apple": None}), scene)


def test_all_role_judges_every_instance_even_one_named_like_the_role(scene):
    """`all:apple` means every object whose role is `apple`, the object named `apple` and the others."""
    goal = Goal(
        roles={"apple": "apple", "orange": "apple", "bowl": "container"},
        condition={"predicate": "on", "items": ["all:apple"], "support": "table"},
    )
    on_table = evaluate(goal, state_of(scene), scene)
    assert on_table.success and [i.item for i in on_table.conditions[0].items] == ["apple", "orange"]
    dropped = evaluate(goal, state_of(scene, {"orange": {"pos": [1.7, 2.1, 0.0]}}), scene)
    assert not dropped.success and [i.ok for i in dropped.conditions[0].items] == [True, False]
