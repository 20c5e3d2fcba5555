"""The appliance flow: its order from the goals of the built appliance tasks (no physics), the thermal
wait budget, and the microwave door opened and closed around a place in contact physics (slow: needs
the built scenes)."""

from __future__ import annotations

import dataclasses
import math

import pytest

from housebench.annotations.schema import SceneAnnotations
from housebench.robot.kinematics import side
from housebench.skill_library.appliance_flow import ApplianceFlow
from housebench.skill_library.appliance_plan import Step, plan, wait_budget
from housebench.skills.base import SkillContext
from housebench.skills.drive import Stepper, tried
from housebench.skills.front import lead_in
from housebench.skills.motion import ready_arm
from housebench.skills.navigate import part_box
from housebench.skills.side import SidePlace
from housebench.skills.view import ik, side_held, support_of
from housebench.state import ObjectState, Observation, SimState
from housebench.tasks import goal as g
from housebench.tasks.geometry import centre, in_box
from housebench.tasks.spec import TaskVariant
from housebench.tasks.thermal import ThermalSetup
from tests.builtdata import built
from tests.conftest import Played, built_job


def _ctx_state(task: str, variant: str = "v000", opened: tuple[str, ...] = ()) -> tuple[SkillContext, SimState]:
    """The task's built variant as it starts: objects where the annotations put them, doors shut (or
    ``opened`` to 1.2 rad), temperatures as the thermal setup starts them."""
    layout = built(task, variant)
    ann, spec = layout.scene_annotations(task, variant), layout.task_dir(task, variant) / "task.json"
    scene = SceneAnnotations.model_validate_json(ann.read_text())
    variant_ = TaskVariant.model_validate_json(spec.read_text())
    objects = {n: ObjectState(pos=o.pos, quat=o.quat) for n, o in scene.objects.items()}
    joints = {p.name: (1.2 if p.name in opened else p.closed) for p in scene.house.articulated}
    setup = variant_.thermal or ThermalSetup()
    temps = {n: setup.initial_c.get(n, setup.ambient_c) for n in objects}
    state = SimState(objects=objects, joints=joints, temperatures_c=temps)
    return SkillContext(task=variant_, scene=scene, control_dt=0.1, initial=state), state


def _steps(task: str, **kw) -> list[str]:
    ctx, state = _ctx_state(task, **kw)
    return [f"{s.verb} {s.target}".strip() for s in plan(ctx, state)]


def test_heat_soda_can_opens_puts_in_closes_starts_and_waits():
    assert _steps("heat_soda_can") == [
        "open microwave/door",
        "carry can",
        "close microwave/door",
        "press microwave/start_button",
        "wait",
    ]


def test_heat_breakfast_takes_the_oatmeal_from_the_fridge_heats_it_and_serves_it():
    assert _steps("heat_breakfast") == [
        "open fridge/door",
        "open microwave/door",
        "carry oatmeal",  # fridge -> microwave, one hand: both doors opened first
        "close microwave/door",
        "press microwave/start_button",
        "close fridge/door",
        "wait",
        "open microwave/door",
        "carry oatmeal",  # microwave -> dining table
        "close microwave/door",
    ]
    ctx, state = _ctx_state("heat_breakfast")
    steps = plan(ctx, state)
    assert [s.name for s in steps[2].supports] == ["microwave/bottom"]
    assert [s.name for s in steps[-2].supports] == ["dining_table/top"]


def test_heat_breakfast_combo_heats_while_the_milk_goes_to_the_table():
    assert _steps("heat_breakfast_combo") == [
        "open fridge/door",
        "open microwave/door",
        "carry oatmeal",
        "close microwave/door",
        "press microwave/start_button",
        "carry milk",  # the fridge stays open for it
        "close fridge/door",
        "wait",  # the oatmeal only has to be hot: it stays in the microwave
    ]


def test_chill_drink_and_restock_fridge_close_the_fridge_behind_the_carries():
    assert _steps("chill_drink") == ["open fridge/door", "carry juice", "close fridge/door", "wait"]
    steps = _steps("restock_fridge")
    assert steps[0] == "open fridge/door" and steps[-1] == "close fridge/door"
    assert sorted(steps[1:-1]) == ["carry juice", "carry milk"]
    ctx, state = _ctx_state("restock_fridge")
    shelves = plan(ctx, state)[1].supports
    assert {s.name for s in shelves} == {"fridge/bottom", "fridge/shelf_1", "fridge/shelf_2", "fridge/shelf_3"}
    assert shelves[0].name == "fridge/shelf_2"  # the one nearest the arm's comfortable height first


def test_preloaded_only_presses_and_waits_and_an_open_door_is_shut_first():
    assert _steps("heat_breakfast_preloaded") == ["press microwave/start_button", "wait"]
    assert _steps("heat_breakfast_preloaded", opened=("microwave/door",)) == [
        "close microwave/door",
        "press microwave/start_button",
        "wait",
    ]


def test_what_already_holds_is_not_done_again():
    ctx, state = _ctx_state("heat_soda_can")
    hot = state.model_copy(update={"temperatures_c": {**state.temperatures_c, "can": 45.0}})
    assert plan(ctx, hot) == []
    ctx, state = _ctx_state("put_fruit_in_container")  # no appliance in the goal: the flow has nothing
    assert plan(ctx, state) == []


def test_the_wait_budget_follows_the_thermal_model():
    setup = ThermalSetup(fridge_rate=0.02, microwave_c_per_s=1.0)
    heated = g.Heated(predicate="heated", items=["a"], min_c=60.0)
    chilled = g.Chilled(predicate="chilled", items=["b"], max_c=8.0)
    assert wait_budget([heated], {"a": 4.0}, setup) == pytest.approx(56.0 + 10.0)
    # Newton cooling from 21 C towards 4 C reaches 8 C after ln(17 / 4) / 0.02 s
    assert wait_budget([chilled], {"b": 21.0}, setup) == pytest.approx(math.log(17 / 4) / 0.02 + 10.0)
    too_cold = g.Chilled(predicate="chilled", items=["b"], max_c=3.0)  # under the fridge's own 4 C
    assert math.isinf(wait_budget([too_cold], {"b": 21.0}, setup))


@pytest.mark.slow
def test_the_flow_opens_the_microwave_for_the_place_and_shuts_it_behind():
    job = built_job("heat_soda_can", "v000", "noop", horizon_s=600.0, pose_noise_m=0.0)
    episode = job.open()
    obs = episode.reset(0)
    events = []
    ctx = SkillContext(
        task=episode.task,
        scene=episode.scene,
        control_dt=0.1,
        initial=obs.state,
        log=lambda kind, **d: events.append((kind, d)),
    )
    door = []

    def run(skill, obs):
        failure, obs = yield from tried(skill, ctx, obs)
        door.append((skill.name, skill.target(), failure is None, round(obs.parts["microwave/door"], 3)))
        return failure, obs

    stepper = Stepper(ApplianceFlow(ctx, obs, attempts=2, skill=run).run(obs))
    while (action := stepper.step(obs)) is not None:
        obs = episode.step(action)
        assert not episode.done, "the flow ran past the horizon"
    names = [name for name, *_ in door]
    first = names.index("open")
    assert names[:first] in ([], ["tuck"]), door
    assert door[first][2] and door[first][3] >= 0.8 * 1.4, door  # open, measured on the hinge
    assert "place" in names, door
    place = names.index("place")
    assert all(q >= 0.5 for *_, q in door[first:place]), door  # still open when the can goes in (the pick
    # may knock it back a little: measured 1.40 -> 1.07 rad)
    close = names.index("close", place)
    assert door[close][2] and abs(door[close][3]) <= 0.05, door  # shut behind it
    microwave = next(a for a in episode.scene.house.appliances if a.name == "microwave")
    can = centre(obs.objects["can"], episode.scene.objects["can"].asset)
    assert in_box(can, microwave.cavity), can  # the place put it in, and the close did not knock it out


def _obs(state: SimState) -> Observation:
    """An observation of ``state`` with the robot at rest, hand empty (what the staging choice reads)."""
    return Observation(
        time=0.0,
        joints={},
        joint_velocities={},
        base=(0.0, 0.0, 0.0),
        ee_pos=(0.0, 0.0, 0.0),
        ee_quat=(1.0, 0.0, 0.0, 0.0),
        gripper_opening=0.1,
        finger_contacts={},
        objects=state.objects,
        parts=state.joints,
        temperatures_c=state.temperatures_c,
        state=state,
    )


def test_an_item_is_staged_on_the_open_top_nearest_the_appliance():
    ctx, state = _ctx_state("heat_soda_can", "v001")  # the can on the south counter, far from the microwave
    flow = ApplianceFlow(ctx, _obs(state), attempts=1, skill=Played())
    carry = next(s for s in flow.steps if s.verb == "carry")
    assert ctx.scene.objects["can"].support == "counter_south/top"
    assert flow._staging("can", carry, _obs(state)).name == "counter_west/top"  # the microwave's counter
    west = state.model_copy(deep=True)
    top = next(s for s in ctx.scene.house.supports if s.name == "counter_west/top")
    x0, y0, x1, y1 = top.box
    west.objects["can"].pos = ((x0 + x1) / 2, (y0 + y1) / 2, top.height)  # already there: staging is no help
    assert support_of(ctx, _obs(west), "can").name == "counter_west/top"
    assert flow._staging("can", carry, _obs(west)) is None


def _level_hand(task: str, variant: str) -> tuple[SkillContext, Observation, tuple[float, float, float]]:
    """The built variant at its start with the hand level (a side grasp's) 0.6 m ahead at 1 m: (context,
    observation, pad position)."""
    episode = built_job(task, variant, "noop", horizon_s=400.0, pose_noise_m=0.0).open()
    obs = episode.reset(0)
    ctx = SkillContext(task=episode.task, scene=episode.scene, control_dt=0.1, initial=obs.state)
    x, y, yaw = obs.base
    pad = (x + 0.6 * math.cos(yaw), y + 0.6 * math.sin(yaw), 1.0)
    level = ik(ctx).solve({**obs.joints, **ready_arm(ctx)}, pad, side(yaw))
    assert level.ok(0.01, 0.05)
    return ctx, dataclasses.replace(obs, joints=level.joints), pad


def test_every_close_starts_tucked_an_open_only_from_a_hand_pointing_down():
    """A level empty hand (a side place's, or a dropped item's) carried round an open door to the close's
    stance shoved the fridge door open (restock_fridge v007: 1.27 -> 1.78 rad): a close starts tucked."""
    ctx, obs, _ = _level_hand("heat_breakfast_preloaded", "v000")
    assert side_held(ctx, obs)
    played = Played()
    flow = ApplianceFlow(ctx, obs, attempts=1, skill=played)
    flow.steps = [Step("close", "microwave/door")]
    assert [type(s).__name__ for s in played.play(flow, obs)] == ["Pose", "Close"]
    assert played.skills[0].name == "tuck"
    cavity = [s for s in ctx.scene.house.supports if s.name == "microwave/bottom"]
    played = Played(until="Open")
    flow = ApplianceFlow(ctx, obs, attempts=1, skill=played)
    flow.steps = [Step("open", "microwave/door"), Step("carry", "oatmeal", cavity)]
    assert [type(s).__name__ for s in played.play(flow, obs)] == ["Open"]  # the level hand opens as it is


def test_a_pull_that_leaves_the_robot_behind_the_door_tucks_and_goes_round_to_the_opening():
    """The handle pull leaves the robot on the microwave door's outer side; its carry arm, driven round the
    door's free edge to the pick, swung the door shut (heat_soda_can v003: 1.38 -> 0.25 rad): the flow
    tucks and drives round to the opening first. From in front of the opening it goes on to the carry."""
    job = built_job("heat_soda_can", "v003", "noop", horizon_s=400.0, pose_noise_m=0.0)
    episode = job.open()
    obs = episode.reset(0)
    ctx = SkillContext(task=episode.task, scene=episode.scene, control_dt=0.1, initial=obs.state)
    cavity = [s for s in ctx.scene.house.supports if s.name == "microwave/bottom"]
    opened = {**obs.parts, "microwave/door": 1.395}
    state = obs.state.model_copy(update={"joints": {**obs.state.joints, "microwave/door": 1.395}})

    def at(base):
        return dataclasses.replace(obs, base=base, parts=opened, state=state)

    def after_open(base, until):
        """The skills after the open, the open leaving the base at ``base``, up to one of type ``until``."""
        played = Played(lambda skill, o: (None, at(base) if type(skill).__name__ == "Open" else o), until)
        flow = ApplianceFlow(ctx, obs, attempts=1, skill=played)
        flow.steps = [Step("open", "microwave/door"), Step("carry", "can", cavity)]
        skills = played.play(flow, obs)
        return skills[[type(s).__name__ for s in skills].index("Open") + 1 :]

    behind = (1.118, 2.023, -2.443)  # the pull's stance, measured
    tuck, go = after_open(behind, until="Navigate")
    assert tuck.name == "tuck"
    assert type(go).__name__ == "Navigate"
    x, y, yaw = go.pose
    door = next(p for p in ctx.scene.house.articulated if p.name == "microwave/door")
    assert x == pytest.approx(cavity[0].box[2] + 0.8) and abs(abs(yaw) - math.pi) < 1e-6  # square to the opening
    assert cavity[0].box[1] < y < part_box(door, 1.395)[1]  # beside the open door, not behind it
    assert [type(s).__name__ for s in after_open((x, y, yaw), until="SidePick")] == ["SidePick"]  # on to the carry


def test_a_carry_into_the_microwave_comes_in_square_to_its_opening_not_the_fridge():
    """Driven straight from the fridge to the place's stance, the carried hand shoved the open microwave
    door (1.77 -> 1.0 rad) and the place stalled against it: the base first stops in front of the opening,
    where that pose stands clear of the door; the fridge's own door leaves no such pose."""
    ctx, state = _ctx_state("heat_breakfast", "v000")
    supports = {s.name: s for s in ctx.scene.house.supports}
    opened = state.model_copy(deep=True)
    opened.joints.update({"microwave/door": 1.77, "fridge/door": 1.27})
    x, y, yaw = lead_in(ctx, _obs(opened), supports["microwave/bottom"])
    assert x == pytest.approx(supports["microwave/bottom"].box[2] + 0.8) and abs(abs(yaw) - math.pi) < 1e-6
    assert lead_in(ctx, _obs(opened), supports["fridge/shelf_2"]) is None  # 0.27 m from the door's edge
    assert lead_in(ctx, _obs(state), supports["microwave/bottom"]) is None  # shut: no door to keep off


def _carry_skills(task: str, item: str, door: str, q: float, support: str) -> tuple:
    """The skills the flow runs to carry ``item``, held level, onto ``support`` with ``door`` open to ``q``, up to
    its side place: (those skills, that place, the observation, the context)."""
    ctx, obs, pad = _level_hand(task, "v001")
    item_at = ObjectState(pos=(pad[0], pad[1], pad[2] - 0.08), quat=(1.0, 0.0, 0.0, 0.0))
    state = obs.state.model_copy(update={"joints": {**obs.state.joints, door: q}})
    held = dataclasses.replace(
        obs,
        parts={**obs.parts, door: q},
        state=state,
        objects={**obs.objects, item: item_at},
        finger_contacts={"left": (item,), "right": (item,)},
    )
    target = next(s for s in ctx.scene.house.supports if s.name == support)
    played = Played(until="SidePlace")
    flow = ApplianceFlow(ctx, held, attempts=1, skill=played)
    flow.steps = [Step("carry", item, [target])]
    return played.play(flow, held), SidePlace(item, target), held, ctx


def test_a_carry_into_the_fridge_drives_to_the_places_own_stance_as_the_planned_navigate_does():
    """Driven and turned by the side place's own approach, the carried juice swung the open fridge door shut
    and the place stalled on it (restock_fridge v001): the flow brings the arm to the carry pose and drives
    to the place's stance facing the way there, turning at the stance, then places. Into the microwave it
    stops in front of the opening and the place does the rest (driven on to the stance, the place stalled)."""
    skills, place, held, ctx = _carry_skills("restock_fridge", "juice", "fridge/door", 1.27, "fridge/shelf_2")
    assert [s.name for s in skills[:2]] == ["carry", "navigate"]
    assert skills[-2].pose == place.stance(ctx, held)  # turned at the place's own stance
    skills, _, _, ctx = _carry_skills("heat_soda_can", "can", "microwave/door", 1.46, "microwave/bottom")
    assert [s.name for s in skills] == ["navigate", "place"]  # in front of the opening, then the place
