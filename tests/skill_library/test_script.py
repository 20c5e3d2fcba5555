"""The scripted brain's decisions, each on a scene of the small build with its skills played (no physics): the
first container alternative, the nearest surface, a pick tried again after a miss, a place tried again on the
next surface, a given-up move, and every skill through the choice table's way."""

from __future__ import annotations

import dataclasses

from housebench.rollout.env import Episode
from housebench.skill_library.moves import Move, choose_surface, plan_moves
from housebench.skill_library.script import Script
from housebench.skills.base import Reason, SkillContext, SkillFailure
from housebench.tasks import goal as g
from tests.builtdata import built
from tests.conftest import Played


def _start(task: str):
    layout = built(task, "v000")
    files = (
        layout.settled_scene(task, "v000"),
        layout.task_dir(task, "v000") / "task.json",
        layout.scene_annotations(task, "v000"),
    )
    episode = Episode(*files, horizon_s=1.0)
    obs = episode.reset(0)
    return SkillContext(episode.task, episode.scene, 0.1, initial=obs.state), obs


def _with_container(ctx: SkillContext, container: str) -> SkillContext:
    """``ctx`` with the goal's ``inside`` conditions asking for ``container`` (alternatives: ``a|b``)."""

    def swap(node):
        if isinstance(node, g.Inside):
            return node.model_copy(update={"container": container})
        if isinstance(node, g.AllOf):
            return node.model_copy(update={"all_of": [swap(c) for c in node.all_of]})
        return node

    goal = ctx.task.goal.model_copy(update={"condition": swap(ctx.task.goal.condition)})
    return dataclasses.replace(ctx, task=ctx.task.model_copy(update={"goal": goal}))


def test_the_first_container_alternative_is_taken():
    ctx, obs = _start("sort_items")
    for first, second in (("toybox", "basket"), ("basket", "toybox")):
        moves = plan_moves(_with_container(ctx, f"{first}|{second}"), obs)
        assert {m.container for m in moves if m.container} == {first}


def test_the_surface_nearest_the_robot_is_chosen_among_those_it_reaches():
    ctx, obs = _start("shelve_books")
    tops = [s for s in ctx.scene.house.supports if s.name in ("dining_table/top", "coffee_table/top")]
    move = Move("book", supports=tops)
    for name in ("dining_table/top", "coffee_table/top"):
        s = next(t for t in tops if t.name == name)
        x, y = (s.box[0] + s.box[2]) / 2, (s.box[1] + s.box[3]) / 2
        at = dataclasses.replace(obs, base=(x, y, 0.0))
        assert choose_surface(ctx, at, move, None).name == name
    move.failed.add("coffee_table/top")  # a place found it out of reach: the other one next
    assert choose_surface(ctx, at, move, None).name == "dining_table/top"


def _played(task: str, outcome) -> list:
    ctx, obs = _start(task)
    script = Script(ctx, attempts=3)
    script.skill = Played(outcome)
    return [(type(s).__name__, s.target()) for s in script.skill.play(script, obs)]


def test_a_missed_pick_is_tried_again_then_placed():
    missed = []

    def outcome(skill, obs):
        if type(skill).__name__ == "Pick" and not missed:
            missed.append(skill)
            return SkillFailure("pick", Reason.MISSED), obs
        return None, obs

    skills = _played("put_fruit_in_container", outcome)
    assert skills[:3] == [("Pick", "apple"), ("Pick", "apple"), ("Place", "apple -> bowl")], skills


def test_a_move_gives_up_after_its_attempts_and_the_script_goes_on():
    def outcome(skill, obs):
        return (SkillFailure("pick", Reason.MISSED), obs) if skill.target() == "apple" else (None, obs)

    skills = _played("collect_fruits", outcome)
    assert [s for s in skills if s[1] == "apple"] == [("Pick", "apple")] * 3
    assert ("Pick", "orange") in skills, "the next move still runs"


def test_a_place_out_of_reach_is_tried_on_the_next_surface():
    def outcome(skill, obs):
        if type(skill).__name__ in ("PlaceAtEdge", "Place", "SidePlace") and skill.support.name.startswith(
            "bookcase_low"
        ):
            return SkillFailure("place", Reason.UNREACHABLE), obs
        return None, obs

    ctx, obs = _start("shelve_books")
    held = dataclasses.replace(obs, finger_contacts={"left": ("book",), "right": ("book",)})
    script = Script(ctx, attempts=3)
    script.skill = Played(outcome)
    shelves = [s for s in ctx.scene.house.supports if s.owner in ("bookcase_low", "bookcase_tall")]
    move = Move("book", supports=shelves, check=[g.On(predicate="on", items=["book"], support="bookcase")])
    for _ in script.run_moves([move], held):
        raise AssertionError("a played move asked for an action")
    places = [s.support.name for s in script.skill.skills if hasattr(s, "support")]
    assert len(set(places)) == len(places), f"a surface tried again after it was out of reach: {places}"
    assert places[0].startswith("bookcase_low") and places[-1].startswith("bookcase_tall"), places
    assert move.failed == {p for p in places if p.startswith("bookcase_low")}


def test_every_pick_and_place_is_the_choice_tables_way():
    skills = _played("shelve_books", lambda skill, obs: (None, obs))
    assert ("PushToEdge", "book") in skills and ("PickOverhang", "book") in skills  # a flat book: slide and pinch
    assert not any(name in ("Pick", "SidePick") for name, _ in skills)
