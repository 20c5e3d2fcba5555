"""The scripted brain's remaining decisions, each on a scene of the small build (pure, or its skills played without
physics): which surfaces a place may use and in which order, containers before what goes into them, clearing the
way, a surface marked failed only when out of reach or full, a failed place that did the job, a release before a
re-pick, toppled items stood up (before their move and at the end), a place near the item placed first, and the
appliance flow's items left to it."""

from __future__ import annotations

import dataclasses
import math

from housebench.annotations.schema import Support
from housebench.skill_library import moves as moves_module
from housebench.skill_library.moves import Move, choose_surface, clear_the_way, placeable, plan_moves
from housebench.skill_library.script import Script
from housebench.skills.base import Reason, SkillFailure
from housebench.state import ObjectState
from housebench.tasks import goal as g
from tests.conftest import Played
from tests.skill_library.test_script import _start

BOX = (0.0, 0.0, 0.5, 0.5)


def _at(obs, support: Support):
    x0, y0, x1, y1 = support.box
    return dataclasses.replace(obs, base=((x0 + x1) / 2, (y0 + y1) / 2, 0.0))


def test_a_top_down_place_reaches_1_25_m_one_from_the_side_1_35_m():
    book = 0.03  # tall: a 5 cm ceiling is too low for a hand from above
    assert placeable(Support(name="a", owner="a", height=1.2, box=BOX), book)
    assert not placeable(Support(name="a", owner="a", height=1.3, box=BOX), book)
    assert placeable(Support(name="a", owner="a", height=1.3, box=BOX, clearance=0.05), book)
    assert not placeable(Support(name="a", owner="a", height=1.4, box=BOX, clearance=0.05), book)


def test_room_for_a_hand_from_above_first_then_open_tops_however_far():
    ctx, obs = _start("shelve_books")
    s = {t.name: t for t in ctx.scene.house.supports}
    low, covered, open_top = s["bookcase_low/level_1"], s["bookcase_tall/level_3"], s["bookcase_low/top"]
    move = Move("book", supports=[low, covered])  # a 0.38 m level is too low for the book from above; 0.58 m is not
    assert choose_surface(ctx, _at(obs, low), move, None).name == covered.name
    move = Move("book", supports=[covered, open_top])
    assert choose_surface(ctx, _at(obs, covered), move, None).name == open_top.name


def test_a_container_that_moves_goes_before_what_goes_into_it():
    ctx, obs = _start("bring_fruit_bowl")
    apple = obs.objects["apple"]
    out = ObjectState(pos=(apple.pos[0] + 2.0, apple.pos[1], apple.pos[2]), quat=apple.quat)  # out of the bowl
    objects = {**obs.objects, "apple": out}
    moved = dataclasses.replace(obs, objects=objects, state=obs.state.model_copy(update={"objects": objects}))
    goal = ctx.task.goal
    inside_first = goal.condition.model_copy(update={"all_of": goal.condition.all_of[::-1]})  # the goal lists it first
    ctx = dataclasses.replace(
        ctx, task=ctx.task.model_copy(update={"goal": goal.model_copy(update={"condition": inside_first})})
    )
    assert [m.obj for m in plan_moves(ctx, moved)] == ["bowl", "apple"]


def _reach(blocker: str, blocked: str, blocker_reaches: bool):
    """An ``in_reach`` stand-in: ``blocked``'s surfaces are in reach only with ``blocker`` out of the way; the
    blocker's own ones are as asked."""

    def in_reach(ctx, obs, supports, skip):
        if supports and supports[0].name == f"{blocked}/top":
            return blocker in skip
        return blocker_reaches

    return in_reach


def test_an_item_in_the_way_is_moved_first_when_its_own_place_is_in_reach(monkeypatch):
    ctx, obs = _start("tidy_toys")
    car = Move("car", supports=[Support(name="bed/top", owner="bed", height=0.5, box=BOX)])
    duck = Move("duck", supports=[Support(name="toybox/top", owner="toybox", height=0.5, box=BOX)])
    monkeypatch.setattr(moves_module, "in_reach", _reach("duck", "bed", blocker_reaches=True))
    assert [m.obj for m in clear_the_way(ctx, obs, [car, duck])] == ["duck", "car"]
    monkeypatch.setattr(moves_module, "in_reach", _reach("duck", "bed", blocker_reaches=False))
    assert [m.obj for m in clear_the_way(ctx, obs, [car, duck])] == ["car", "duck"]  # moving it would not help


def _script(task: str, outcome, attempts: int = 2, obs_change=None):
    ctx, obs = _start(task)
    events = []
    ctx = dataclasses.replace(ctx, log=lambda kind, **d: events.append((kind, d)))
    obs = obs_change(obs) if obs_change else obs
    script = Script(ctx, attempts=attempts)
    script.skill = Played(outcome)
    return script, obs, events


def _holding(obs, obj: str, fingers=("left", "right")):
    return dataclasses.replace(obs, finger_contacts={f: (obj,) for f in fingers})


def _shelves(script) -> list[Support]:
    return [s for s in script.ctx.scene.house.supports if s.owner in ("bookcase_low", "bookcase_tall")]


def test_a_place_that_stalls_keeps_its_surface():
    """Only out of reach or full marks a surface failed; a stall is tried again on the same one."""
    script, obs, _ = _script("shelve_books", lambda s, o: (SkillFailure("place", Reason.STALLED), o), attempts=3)
    move = Move("book", supports=_shelves(script), check=[g.On(predicate="on", items=["book"], support="bookcase")])
    for _ in script.run_moves([move], _holding(obs, "book")):
        raise AssertionError("a played move asked for an action")
    places = [s.support.name for s in script.skill.skills if hasattr(s, "support")]
    assert len(places) == 3 and len(set(places)) == 1 and not move.failed, places


def test_a_place_that_failed_after_it_was_done_is_not_tried_again():
    script, obs, _ = _script("shelve_books", lambda s, o: (SkillFailure("place", Reason.STALLED), o), attempts=3)
    under = script.ctx.scene.objects["book"].support
    done = [g.On(predicate="on", items=["book"], support=under)]  # where it already lies
    move = Move("book", supports=[s for s in script.ctx.scene.house.supports if s.name == under], check=done)
    for _ in script.run_moves([move], _holding(obs, "book")):
        raise AssertionError("a played move asked for an action")
    assert len([s for s in script.skill.skills if hasattr(s, "support")]) == 1, script.skill.skills


def test_a_hand_caught_on_a_missed_item_lets_go_before_the_next_pick():
    def outcome(skill, obs):
        name = type(skill).__name__
        if name == "Pick" and not any(type(s).__name__ == "Release" for s in played):
            return SkillFailure("pick", Reason.MISSED), _holding(obs, "apple", fingers=("left",))
        return None, dataclasses.replace(obs, finger_contacts={}) if name == "Release" else obs

    script, obs, _ = _script("put_fruit_in_container", outcome)
    played = script.skill.skills
    names = [type(s).__name__ for s in script.skill.play(script, obs)]
    assert names[:4] == ["Pick", "Release", "Pick", "Place"], names


def _toppled_can(obs):
    can = obs.objects["can"]
    lying = ObjectState(pos=can.pos, quat=(math.cos(math.pi / 4), math.sin(math.pi / 4), 0.0, 0.0))  # 90 deg on x
    objects = {**obs.objects, "can": lying}
    return dataclasses.replace(obs, objects=objects, state=obs.state.model_copy(update={"objects": objects}))


def test_a_toppled_item_is_stood_up_before_its_move_and_an_upright_goal_at_the_end():
    def outcome(skill, obs):  # every upright fails: the can stays on its side
        return (SkillFailure("upright", Reason.STALLED) if type(skill).__name__ == "Upright" else None), obs

    script, obs, _ = _script("arrange_drinks", outcome, attempts=2, obs_change=_toppled_can)
    skills = [(type(s).__name__, s.target()) for s in script.skill.play(script, obs)]
    assert skills[0] == ("Upright", "can"), skills
    assert skills[-3:] == [("Place", "milk -> dining_table/top"), ("Upright", "can"), ("Upright", "can")], skills


def test_an_upright_that_reports_a_failure_but_stood_the_item_up_is_not_tried_again():
    ctx, standing = _start("arrange_drinks")
    lying = _toppled_can(standing)
    uprights = []

    def outcome(skill, obs):  # the first upright does nothing; the next one stalls, yet the can stands
        if type(skill).__name__ != "Upright":
            return None, obs
        uprights.append(skill)
        return (None, obs) if len(uprights) == 1 else (SkillFailure("upright", Reason.STALLED), standing)

    script = Script(ctx, attempts=2)
    script.skill = Played(outcome)
    skills = [type(s).__name__ for s in script.skill.play(script, lying)]
    assert skills[0] == "Upright" and skills[-2:] == ["Place", "Upright"], skills  # once at the end: it stands


def test_an_item_near_another_is_placed_near_where_that_one_was_set_down():
    script, obs, _ = _script("arrange_drinks", None)
    places = {s.obj: s for s in script.skill.play(script, obs) if type(s).__name__ in ("Place", "SidePlace")}
    assert places["can"].near is None
    assert places["juice"].near == places["milk"].near == obs.objects["can"].pos[:2]


def test_what_the_appliance_flow_carries_is_no_move_of_the_script():
    script, obs, events = _script("heat_breakfast_combo", None)
    script.skill.play(script, obs)
    planned = next(d["moves"] for kind, d in events if kind == "plan")
    flow = next(d["appliance_flow"] for kind, d in events if kind == "decision" and "appliance_flow" in d)
    carried = {step.split()[1] for step in flow if step.startswith("carry")}
    assert carried and not any(m.split(" -> ")[0] in carried for m in planned), (carried, planned)


def test_a_pick_is_chosen_for_where_the_move_sets_the_item_down():
    """A can bound for a level too low for a hand from above is picked from the side (a place from the side needs
    the level hand); bound for the table, from above."""
    script, obs, _ = _script("arrange_drinks", lambda s, o: (SkillFailure("pick", Reason.MISSED), o), attempts=1)
    level = next(s for s in script.ctx.scene.house.supports if s.name == "bookcase_low/level_1")  # 0.38 m high
    table = next(s for s in script.ctx.scene.house.supports if s.name == "dining_table/top")
    for support, way in ((level, "SidePick"), (table, "Pick")):
        script.skill.skills.clear()
        for _ in script.run_moves([Move("can", supports=[support], where=support.name)], obs):
            raise AssertionError("a played move asked for an action")
        assert [type(s).__name__ for s in script.skill.skills] == [way], (support.name, script.skill.skills)
