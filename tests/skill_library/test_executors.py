"""The runtime's executors choose the skills the appliance flow runs: a side pick for an item the plan
sets on a fridge shelf, the arm tucked before a close and for a drive to or from a door, a carry-pose
stance reached facing the way there, the next side pick's own stance driven to as the pick would (on
built chill_drink scenes; no physics is stepped)."""

from __future__ import annotations

import dataclasses
import math

import pytest

from housebench.skill_library.executors import EXECUTORS, Sequence, stance
from housebench.skill_library.planner import world_of
from housebench.skill_library.runtime import bound_for
from housebench.skills.base import Reason, SkillFailure
from housebench.skills.navigate import Navigate
from housebench.skills.pick import Pick
from housebench.skills.side.pick import SidePick
from tests.conftest import built_episode


@pytest.fixture(scope="module")
def chill():
    episode, ctx, obs = built_episode("chill_drink", "v000", horizon_s=10.0)
    world = world_of(episode.task, episode.scene)
    world.state = obs.state
    return world, ctx, obs


def test_bound_for_names_where_each_object_is_set_down_next():
    steps = [
        ("pick", {"object": "can"}),
        ("place", {"object": "can", "support": "microwave/bottom"}),
        ("insert", {"object": "apple", "container": "bowl"}),
        ("place", {"object": "can", "support": "table"}),
    ]
    assert bound_for(steps) == {"can": "microwave/bottom", "apple": "bowl"}
    assert bound_for(steps[2:]) == {"apple": "bowl", "can": "table"}


def test_a_pick_bound_for_a_fridge_shelf_is_a_side_pick(chill):
    world, ctx, obs = chill
    world.bound_for = {}
    assert type(EXECUTORS["pick"]({"object": "juice"}, world, ctx, obs, "top_pinch")) is Pick
    world.bound_for = {"juice": "fridge/shelf_2"}
    assert type(EXECUTORS["pick"]({"object": "juice"}, world, ctx, obs, "top_pinch")) is SidePick


def test_a_close_tucks_the_arm_first(chill):
    world, ctx, obs = chill
    close = EXECUTORS["close"]({"part": "fridge/door"}, world, ctx, obs, "push_door")
    assert isinstance(close, Sequence) and [p.name for p in close.parts] == ["tuck", "close"]


def test_a_carry_navigate_drives_facing_the_way_there_and_turns_at_its_stance(chill):
    world, ctx, obs = chill
    beside = dataclasses.replace(obs, base=(1.72, 3.69, 0.0))
    world.bound_for = {}
    nav = EXECUTORS["navigate"]({"target": "fridge/shelf_2"}, world, ctx, beside, "grid_path")
    pose = stance(world, ctx, beside, "fridge/shelf_2")
    first, last = [p for p in nav.parts if isinstance(p, Navigate)]
    heading = math.atan2(pose[1] - beside.base[1], pose[0] - beside.base[0])
    assert first.pose == (*pose[:2], heading) and last.pose == pose


def test_a_navigate_to_a_door_with_an_empty_hand_drives_tucked(chill):
    world, ctx, obs = chill
    nav = EXECUTORS["navigate"]({"target": "fridge/door"}, world, ctx, obs, "grid_path")
    assert [p.name for p in nav.parts] == ["tuck", "navigate"]


def test_a_stance_from_off_the_free_floor_fails_the_node_not_the_episode(chill):
    world, ctx, obs = chill
    lost = dataclasses.replace(obs, base=(50.0, 50.0, 0.0))
    with pytest.raises(SkillFailure) as failure:
        stance(world, ctx, lost, "juice")
    assert failure.value.reason is Reason.NO_PATH


def test_an_empty_hand_leaves_an_open_door_tucked_and_unfolds_at_the_stance(chill):
    world, ctx, obs = chill
    world.bound_for = {}
    for base, names in (((1.2, 2.6, 0.0), ["tuck", "navigate", "carry"]), ((5.0, 2.0, 0.0), ["carry", "navigate"])):
        there = dataclasses.replace(obs, base=base, parts={**obs.parts, "fridge/door": 1.27})
        nav = EXECUTORS["navigate"]({"target": "juice"}, world, ctx, there, "grid_path")
        assert [p.name for p in nav.parts][: len(names)] == names


def test_a_navigate_before_a_side_pick_drives_to_the_picks_own_stance(chill):
    """Driven to a ring pose first, the pick's own approach swept the carry arm into the fridge's side: the
    navigate goes where the pick stands (carry pose, facing the way there, turned at the stance)."""
    world, ctx, obs = chill
    world.bound_for = {"juice": "fridge/shelf_2"}
    world.next_call = ("pick", {"object": "juice"})
    try:
        nav = EXECUTORS["navigate"]({"target": "juice"}, world, ctx, obs, "grid_path")
        assert [p.name for p in nav.parts] == ["carry", "navigate", "navigate"]
        assert nav.parts[-1].pose == SidePick("juice").stance(ctx, obs)
        world.next_call = ("pick", {"object": "oatmeal"})  # another object's pick: a ring pose round the target
        ring = EXECUTORS["navigate"]({"target": "juice"}, world, ctx, obs, "grid_path")
        assert ring.parts[-1].pose == stance(world, ctx, obs, "juice")
    finally:
        world.next_call, world.bound_for = None, {}
