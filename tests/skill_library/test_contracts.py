"""Contracts grounded in the test world and judged by the evaluator; policy paths chosen by the noun."""

from __future__ import annotations

import pytest

from housebench.skill_library.contracts import ContractError, calls, choose_path, ground, judge, judge_grounded
from housebench.skill_library.library import skills
from housebench.skill_library.relations import edge_rows, relations
from housebench.state import SimState
from housebench.tasks.goal import BaseNear, HandEmpty, Holding, Open

BASE = {"robot0:base_x_joint": 1.0, "robot0:base_y_joint": 1.9, "robot0:base_yaw_joint": 0.0}


def _state(world, **objects) -> SimState:
    poses = {n: {"pos": list(p.pos), "quat": list(p.quat)} for n, p in world.state.objects.items()}
    poses.update({n: {"pos": list(pos), "quat": [1, 0, 0, 0]} for n, pos in objects.items()})
    return SimState.model_validate({"objects": poses, "joints": BASE})


def test_pick_contract_uses_the_evaluators_predicates(world):
    g = ground(skills()["pick"], {"object": "apple"}, world)
    assert [type(c) for c in g.pre] == [BaseNear, HandEmpty]
    assert isinstance(g.post[0], Holding) and g.post[0].items == ["apple"]
    assert g.post[1].predicate == "lifted" and g.post[1].height == 0.02


def test_access_rule_opens_the_fridge_first(world, scene):
    inside = scene.objects["apple"].model_copy(update={"pos": (0.3, 3.3, 0.5)})  # on fridge/shelf_1
    world.scene = scene.model_copy(update={"objects": {**scene.objects, "apple": inside}})
    world.state = world.state.model_copy(update={"objects": {**world.state.objects, "apple": inside}})
    g = ground(skills()["pick"], {"object": "apple"}, world)
    assert g.pre[-1] == Open(predicate="open", parts=["fridge/door"])
    place = ground(skills()["place"], {"object": "apple", "support": "fridge/shelf_1"}, world)
    assert place.pre[-1].parts == ["fridge/door"]
    assert not ground(skills()["place"], {"object": "apple", "support": "table/top"}, world).pre[-1].predicate == "open"


def test_post_measured_on_a_state(world):
    insert = ground(skills()["insert"], {"object": "apple", "container": "bowl"}, world)
    inside = judge(insert.post[:1], world, _state(world, apple=(2.0, 1.9, 0.76)))
    outside = judge(insert.post[:1], world, _state(world))
    assert inside.success and not outside.success
    assert "radius" in outside.conditions[0].items[0].reason


def test_lifted_is_measured_against_the_calls_start(world):
    lift = ground(skills()["lift"], {"object": "apple", "height": 0.1}, world)
    start = _state(world)
    up = judge(lift.post[1:], world, _state(world, apple=(1.8, 1.9, 0.86)), start)
    low = judge(lift.post[1:], world, _state(world, apple=(1.8, 1.9, 0.84)), start)
    assert up.success and not low.success


@pytest.mark.parametrize(
    "verb, args, path, passed",
    [
        ("pick", {"object": "apple"}, "top_pinch", {"floor_pick": "apple rests on a surface"}),
        (
            "pick",
            {"object": "bowl"},
            "rim_pinch",
            {"floor_pick": "bowl has no top_pinch grasp; bowl rests on a surface"},
        ),
        ("open", {"part": "fridge/door"}, "swing_door", {}),
        ("open", {"part": "cabinet/drawer"}, "pull_drawer", {"swing_door": "cabinet/drawer is prismatic"}),
        ("place", {"object": "apple", "support": "shelf/level_1"}, "shelf_level", {}),
        ("place", {"object": "apple", "support": "fridge/shelf_1"}, "into_appliance", {}),
        ("press", {"button": "cabinet/start_button"}, "fingertip_press", {}),
    ],
)
def test_path_chosen_by_the_noun(world, verb, args, path, passed):
    chosen, why = choose_path(skills()[verb], args, world)
    assert chosen.name == path
    assert {k: why[k] for k in passed} == passed


def test_no_path_fits_an_ungraspable_noun(world, scene):
    bare = scene.objects["orange"].model_copy(
        update={"asset": scene.objects["orange"].asset.model_copy(update={"grasps": []})}
    )
    world.scene = scene.model_copy(update={"objects": {**scene.objects, "orange": bare}})
    chosen, why = choose_path(skills()["pick"], {"object": "orange"}, world)
    assert chosen is None and set(why) == {p.name for p in skills()["pick"].paths}


def test_nested_contract_expands_its_calls(world):
    fetch = ground(skills()["fetch"], {"object": "apple", "support": "shelf/level_1"}, world)
    assert [v for v, _ in calls(fetch, world)] == ["navigate", "pick", "navigate", "place"]
    collect = ground(skills()["collect"], {"role": "fruit", "container": "bowl"}, world)
    steps = calls(collect, world)
    assert collect.each == ["apple", "orange"] and len(steps) == 8
    assert steps[3] == ("insert", {"object": "apple", "container": "bowl"})
    assert collect.post[0].items == ["all:fruit"]


def test_grounding_errors_name_the_problem(world):
    with pytest.raises(ContractError, match="argument 'object' is missing"):
        ground(skills()["pick"], {}, world)
    with pytest.raises(ContractError, match="no appliance named 'oven'"):
        ground(skills()["heat"], {"object": "apple", "appliance": "oven"}, world)


def test_relations_generated_from_contracts():
    rows = edge_rows(relations(list(skills().values())))
    verb = {s.id: s.verb for s in skills().values()}
    named = {(verb[r["from"]], r["kind"], verb[r["to"]], r["on"]) for r in rows}
    assert ("pick", "next", "place", "holding") in named
    assert ("place", "previous", "pick", "holding") in named
    assert ("pick", "fallback", "navigate", "base_near") in named  # pick failed on base_near: drive again
    assert ("insert", "alternative", "drop", "hand_empty,inside") in named
    assert ("fetch", "calls", "pick", "") in named
    assert not any(k == "fallback" and a == "pick" and b == "lift" and on == "holding" for a, k, b, on in named)


def test_pick_post_measures_the_fingers(world):
    pick = ground(skills()["pick"], {"object": "apple"}, world)
    start = _state(world)
    lifted = _state(world, apple=(1.8, 1.9, 0.78)).model_copy(
        update={"contacts": {"left": ["apple"], "right": ["apple"]}}
    )
    slipped = lifted.model_copy(update={"contacts": {"left": ["apple"], "right": []}})
    assert judge_grounded(pick, "post", world, lifted, start).success
    failed = judge_grounded(pick, "post", world, slipped, start)
    assert not failed.success and "touched by ['left'] (both needed)" in failed.conditions[0].items[0].reason


def test_fallback_arguments_come_from_the_failed_call():
    from housebench.skill_library.runtime import _fill

    types = {"object": "object", "support": "support"}
    args = {"object": "box", "support": "shelf/level_1", "_target": "shelf/level_1"}
    assert _fill(skills()["navigate"], args, types) == {"target": "shelf/level_1"}
    assert _fill(skills()["insert"], args, types) is None  # an object never stands in for a container
    assert _fill(skills()["pick"], args, types) == {"object": "box"}
    assert _fill(skills()["stack"], args, types) is None  # one object cannot be both object and base


def test_release_needs_no_hold_so_it_frees_a_hand_caught_by_one_finger(world):
    grounded = ground(skills()["release"], {"object": "apple"}, world)
    assert grounded.pre == [] and [c.predicate for c in grounded.post] == ["hand_empty"]
