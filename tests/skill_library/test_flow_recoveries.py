"""The appliance flow's recoveries, each on a built appliance task with its skills played (no physics): staging an
item no side grasp reaches (once), the next surface after one out of reach, putting a given-up item back, and the
skips (a carry behind a shut door, a start with the door open or nothing inside, a wait for an item not shut in)."""

from __future__ import annotations

import dataclasses

from housebench.skill_library.appliance_flow import ApplianceFlow
from housebench.skill_library.appliance_plan import Step
from housebench.skills.base import Reason, SkillFailure
from housebench.tasks import goal as g
from tests.conftest import Played, built_episode
from tests.skills.test_appliance_flow import _ctx_state, _obs, _steps


def _held(obs, obj: str):
    return dataclasses.replace(obs, finger_contacts={"left": (obj,), "right": (obj,)})


def _empty(obs):
    return dataclasses.replace(obs, finger_contacts={})


def _flow(task: str, steps, outcome, opened=(), attempts: int = 2, variant: str = "v000"):
    """``steps`` run by the flow on ``task``'s start with ``opened`` doors open: (played skills, decision events)."""
    ctx, state = _ctx_state(task, variant, opened=opened)
    decisions = []
    ctx = dataclasses.replace(ctx, log=lambda kind, **d: decisions.append(d) if kind == "decision" else None)
    obs = _obs(state)
    supports = {s.name: s for s in ctx.scene.house.supports}
    played = Played(outcome)
    flow = ApplianceFlow(ctx, obs, attempts=attempts, skill=played)
    flow.steps = steps(supports)
    played.play(flow, obs)
    return [(type(s).__name__, getattr(getattr(s, "support", None), "name", None)) for s in played.skills], decisions


def test_an_item_no_side_grasp_reaches_is_staged_once_then_picked_from_the_side():
    """The can on the south counter: the side pick fails, so it is picked from above and set down on the microwave's
    counter, then picked from the side again; a second miss is a re-pick, not a second staging."""

    def outcome(skill, obs):
        name = type(skill).__name__
        if name == "SidePick":
            return SkillFailure("side_pick", Reason.UNREACHABLE), _empty(obs)
        return None, _held(obs, "can") if name == "Pick" else _empty(obs)

    skills, decisions = _flow(
        "heat_soda_can",
        lambda s: [Step("carry", "can", [s["microwave/bottom"]])],
        outcome,
        opened=("microwave/door",),
        attempts=3,
        variant="v001",  # the can on the south counter, far from the microwave
    )
    # the stage's place is the table's way for the hand as played (no joints: read as level, so from the side)
    assert [(name.replace("Side", ""), where) for name, where in skills] == [
        ("Pick", None),
        ("Pick", None),
        ("Place", "counter_west/top"),
        ("Pick", None),
        ("Pick", None),
    ], skills
    assert [name for name, _ in skills if name.endswith("Pick")] == ["SidePick", "Pick", "SidePick", "SidePick"]
    # the missed pick's recovery stages it once; the next miss is only a re-pick (the block again)
    assert [d["choice"] for d in decisions if "choice" in d][:3] == ["again", "stage", "again"]


def _unreachable_places(skill, obs):
    """Every pick holds the juice; every place from the side finds its surface out of reach, the juice still held."""
    if type(skill).__name__ == "SidePlace":
        return SkillFailure("side_place", Reason.UNREACHABLE), obs
    return None, _held(obs, "juice") if type(skill).__name__ == "SidePick" else obs


def _juice_to_the_fridge(outcome) -> tuple[list, list, str]:
    """The juice carried onto the fridge's two shelves, the door open, two tries: (the side places' surfaces, the
    decisions' last two choices, where the juice started)."""
    skills, decisions = _flow(
        "chill_drink",
        lambda s: [Step("carry", "juice", [s["fridge/shelf_1"], s["fridge/shelf_2"]])],
        outcome,
        opened=("fridge/door",),
        attempts=2,
    )
    ctx, _ = _ctx_state("chill_drink")
    places = [where for name, where in skills if name == "SidePlace"]
    return places, [d["choice"] for d in decisions if "choice" in d][-2:], ctx.scene.objects["juice"].support


def test_a_place_out_of_reach_goes_to_the_next_surface_then_the_item_goes_back_where_it_was():
    places, last, origin = _juice_to_the_fridge(_unreachable_places)
    assert places == ["fridge/shelf_1", "fridge/shelf_2", origin], places
    assert last == ["give up", "put back"]


def test_a_place_that_says_done_with_the_item_still_held_is_tried_again_then_put_back():
    """A carry is done when the item lies on the surface inside the cavity, whatever the place reported."""

    def outcome(skill, obs):
        return None, _held(obs, "juice") if type(skill).__name__ in ("SidePick", "SidePlace") else obs

    places, last, origin = _juice_to_the_fridge(outcome)
    assert places == ["fridge/shelf_1", "fridge/shelf_1", origin], places
    assert last == ["give up", "put back"]


def test_a_failure_that_is_no_reach_or_room_keeps_the_surface():
    def outcome(skill, obs):
        if type(skill).__name__ == "SidePlace":
            return SkillFailure("side_place", Reason.STALLED), obs
        return None, _held(obs, "juice") if type(skill).__name__ == "SidePick" else obs

    skills, _ = _flow(
        "chill_drink",
        lambda s: [Step("carry", "juice", [s["fridge/shelf_1"], s["fridge/shelf_2"]])],
        outcome,
        opened=("fridge/door",),
    )
    assert [where for name, where in skills if name == "SidePlace"][:2] == ["fridge/shelf_1", "fridge/shelf_1"]


def test_a_carry_behind_a_shut_door_is_skipped():
    skills, decisions = _flow(
        "chill_drink", lambda s: [Step("carry", "juice", [s["fridge/shelf_1"]])], _unreachable_places
    )
    assert skills == []
    assert decisions[-1]["choice"] == "skip: door shut" and decisions[-1]["doors"] == ["fridge/door"]


def test_a_start_is_pressed_only_with_something_inside_and_the_door_shut():
    def skipped(opened):
        skills, decisions = _flow(
            "heat_breakfast_preloaded", lambda s: [Step("press", "microwave/start_button")], None, opened=opened
        )
        return [name for name, _ in skills], [d["choice"] for d in decisions if "choice" in d]

    assert skipped(()) == (["Press"], [])  # the oatmeal starts inside, the door shut: pressed
    missed, decisions = _flow(
        "heat_breakfast_preloaded",
        lambda s: [Step("press", "microwave/start_button")],
        lambda skill, obs: (SkillFailure("press", Reason.STALLED), obs),
    )
    assert [name for name, _ in missed] == ["Press", "Press"]  # a press that failed is tried again, ``attempts``
    assert [d["choice"] for d in decisions if "choice" in d] == ["again", "again", "give up"]
    assert skipped(("microwave/door",)) == ([], ["skip: door open (it would not run)"])
    skills, decisions = _flow("heat_soda_can", lambda s: [Step("press", "microwave/start_button")], None)
    assert skills == [] and decisions[-1]["choice"] == "skip: nothing inside"  # the can is still on the counter


def test_a_door_no_carry_needs_is_not_opened():
    skills, decisions = _flow("heat_soda_can", lambda s: [Step("open", "microwave/door")], None)
    assert skills == [] and decisions[-1]["choice"] == "skip: no carry needs it"


def test_the_wait_is_only_for_items_shut_in_their_appliance():
    heated = g.Heated(predicate="heated", items=["oatmeal"], min_c=60.0)

    def waits(opened):
        wait = [Step("wait", conditions=[heated])]
        skills, decisions = _flow("heat_breakfast_preloaded", lambda _: wait, None, opened=opened)
        return [name for name, _ in skills], decisions

    names, decisions = waits(())
    assert names == ["WaitUntil"] and decisions[-1]["items"] == ["oatmeal"]
    names, decisions = waits(("microwave/door",))  # an open microwave does not heat
    assert names == [] and [d["choice"] for d in decisions if "choice" in d] == [
        "skip: not in it, or open",
        "skip",
    ]


def test_a_carry_through_a_door_picks_and_places_from_the_side_even_on_an_open_top():
    """The arm reaches through the open door level, so the flow asks the choice table for the through-a-door way;
    the same juice, held by a hand pointing down, would be picked and placed on the counter from above."""
    _, ctx, obs = built_episode("restock_fridge", "v000", horizon_s=5.0)
    counter = [s for s in ctx.scene.house.supports if s.name == "counter_south/top"]
    flow = ApplianceFlow(ctx, obs, attempts=1, skill=Played())
    pick, place = (
        flow._way("pick", obs, "juice", supports=counter),
        flow._way("place", obs, "juice", support=counter[0]),
    )
    assert (type(pick).__name__, type(place).__name__) == ("SidePick", "SidePlace")


def test_a_door_found_open_is_shut_before_the_wait():
    """The fridge left open (no carry needs it): shut with the others, so it neither warms nor blocks the way."""
    assert _steps("heat_soda_can", opened=("fridge/door",)) == [
        "open microwave/door",
        "carry can",
        "close microwave/door",
        "press microwave/start_button",
        "close fridge/door",
        "wait",
    ]
