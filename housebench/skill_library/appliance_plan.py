"""The appliance plan: from the resolved goal, the order of door, carry, start and wait steps around a fridge
or microwave, and those steps as judged nodes of a subgraph (:func:`subgraph`; no physics:
:mod:`housebench.skill_library.appliance_flow` judges them as the one runtime runs them).

An item *goes into* an appliance when it is ``heated`` (a listed microwave), ``chilled`` (a listed fridge), or
its ``on`` target is an appliance's shelves or floor; it *comes out* when it stands in an appliance and its ``on``
target is elsewhere. One hand does it all, so a door is opened and closed with the hand empty, around the carries:

1. the doors the first carries need are opened;
2. the carries: into the microwave first (it heats while the hand does the rest), then the others; a
   microwave is closed and started (``press``) as soon as its last item is in, every other door as
   soon as no carry needs it;
3. ``wait`` until the items are hot or cold (the budget from the thermal model's inverse);
4. a heated item whose target is outside: its microwave opened, the item carried out, the door closed.

Every door the flow opens is closed behind it (``closed`` goals, ``all`` included).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from housebench.annotations.schema import ApplianceAnnotation, Support
from housebench.skill_library.staging import staging_surface
from housebench.skill_library.subgraph import Block, PlanNode, Rules, Subgraph, chain
from housebench.skills.base import SkillContext
from housebench.skills.front import owner
from housebench.skills.tuning import tuning
from housebench.skills.view import support_of
from housebench.state import Observation, SimState
from housebench.tasks import goal as g
from housebench.tasks import refs
from housebench.tasks.context import Context
from housebench.tasks.geometry import centre, in_box
from housebench.tasks.thermal import ThermalSetup, time_to_chill, time_to_heat


@dataclass
class Step:
    """One step of the flow: ``open`` / ``close`` / ``press`` a part, ``carry`` an object onto one of
    ``supports``, ``wait`` for ``conditions``."""

    verb: str
    target: str = ""
    supports: list[Support] = field(default_factory=list)
    conditions: list[g.Condition] = field(default_factory=list)

    def describe(self) -> str:
        where = "|".join(s.name for s in self.supports)
        return f"{self.verb} {self.target}" + (f" -> {where}" if where else "")


@dataclass
class _Carry:
    obj: str
    supports: list[Support]
    doors: set[str]  # the doors this carry needs open (where it comes from and where it goes)
    into: ApplianceAnnotation | None = None  # the appliance it goes into


def appliance_at(state: SimState, ctx: SkillContext, obj: str) -> ApplianceAnnotation | None:
    """The appliance whose cavity holds ``obj``'s centre now."""
    pose = state.objects.get(obj)
    if pose is None:
        return None
    point = centre(pose, ctx.scene.objects[obj].asset)
    return next((a for a in ctx.scene.house.appliances if a.cavity and in_box(point, a.cavity)), None)


def _inside(app: ApplianceAnnotation, ctx: SkillContext) -> list[Support]:
    """The surfaces inside ``app``, the one nearest ``skills.appliance.reach_z_m`` first."""
    reach = tuning().appliance.reach_z_m
    return sorted(refs.inside_supports(app.name, ctx.scene.house), key=lambda s: abs(s.height - reach))


def plan(ctx: SkillContext, state: SimState) -> list[Step]:
    """The flow's steps for the goal from ``state`` (empty when no appliance takes part)."""
    goal, house = ctx.task.goal, ctx.scene.house
    setup = ctx.task.thermal or ThermalSetup()
    view = Context(goal, state, ctx.scene, ctx.initial)
    listed = [a for a in house.appliances if a.name in setup.appliances and a.cavity is not None]
    kinds = {g.Heated: "microwave", g.Chilled: "fridge"}

    def items(cond) -> list[str]:
        slots = [s for s in cond.items if not s.startswith("$")]  # bound slots: containers, not appliances
        return [cands[0] for slot in slots for cands in view.items(slot) if cands and cands[0] in state.objects]

    thermal: dict[str, tuple[ApplianceAnnotation, g.Condition]] = {}  # item -> (appliance, its condition)
    for _, cond in g.leaves(goal.condition):
        app = next((a for a in listed if a.kind == kinds.get(type(cond))), None)
        for obj in items(cond) if app is not None else []:
            one = cond.model_copy(update={"items": [obj]})
            if not ctx.judge([one], state).success:
                thermal[obj] = (app, one)
    first: list[_Carry] = []  # before the wait
    later: list[_Carry] = []  # heated items carried on, after it
    for obj, (app, _) in thermal.items():
        source = appliance_at(state, ctx, obj)
        if source is None or source.name != app.name:
            first.append(_Carry(obj, _inside(app, ctx), _door_set(app, source), app))
    for _, cond in g.leaves(goal.condition):
        if not isinstance(cond, g.On):
            continue
        supports = refs.supports(cond.support, goal.places, house)
        into = owner(ctx.scene.house, supports)
        if into is not None:
            supports = [s for s in _inside(into, ctx) if s in supports]
        for obj in items(cond):
            if ctx.judge([cond.model_copy(update={"items": [obj]})], state).success:
                continue
            source = thermal[obj][0] if obj in thermal else appliance_at(state, ctx, obj)
            if into is not None or source is not None:  # else an ordinary move: the scripted policy's
                (later if obj in thermal else first).append(_Carry(obj, supports, _door_set(into, source), into))
    first.sort(key=lambda c: not (c.into is not None and c.into.kind == "microwave"))  # heating starts early
    return _order(ctx, state, first, later, thermal)


def _door_set(*apps: ApplianceAnnotation | None) -> set[str]:
    return {a.door for a in apps if a is not None and a.door}


def _order(
    ctx: SkillContext,
    state: SimState,
    first: list[_Carry],
    later: list[_Carry],
    thermal: dict[str, tuple[ApplianceAnnotation, g.Condition]],
) -> list[Step]:
    steps: list[Step] = []
    is_open = {p.name: ctx.judge([g.Open(predicate="open", parts=[p.name])], state).success for p in _doors(ctx)}
    apps = {a.door: a for a in ctx.scene.house.appliances if a.door}

    def open_(door: str) -> None:
        if not is_open.get(door, False):
            steps.append(Step("open", door))
            is_open[door] = True

    def close(door: str) -> None:
        if is_open.get(door, False):
            steps.append(Step("close", door))
            is_open[door] = False

    def start(app: ApplianceAnnotation) -> None:
        close(app.door)
        if app.switch:
            steps.append(Step("press", app.switch))

    for door in sorted({d for c in first for d in c.doors}):
        open_(door)
    heating = {a.name: a for a, _ in thermal.values() if a.kind == "microwave"}
    for k, carry in enumerate(first):
        steps.append(Step("carry", carry.obj, carry.supports))
        rest = first[k + 1 :]
        for door in sorted(carry.doors, key=lambda d: (apps[d].name not in heating, d)):  # a microwave first
            if any(door in c.doors for c in rest):
                continue
            if apps[door].name in heating:
                start(heating.pop(apps[door].name))
            else:
                close(door)
    for app in heating.values():  # items already in a microwave: start it (door shut first)
        start(app)
    for door in sorted(d for d, o in is_open.items() if o):
        close(door)
    if thermal:
        steps.append(Step("wait", conditions=[cond for _, cond in thermal.values()]))
    for door in sorted({d for c in later for d in c.doors}):
        open_(door)
    for carry in later:
        steps.append(Step("carry", carry.obj, carry.supports))
    for door in sorted({d for c in later for d in c.doors}):
        close(door)
    return steps


def subgraph(ctx: SkillContext, steps: list[Step], obs: Observation, attempts: int) -> Subgraph | None:
    """``steps`` as judged nodes (step ``k`` as block ``s<k>``, ``attempts`` tries; the appliance flow's judge
    chooses each way when it runs): the subgraph the one runtime runs (None: no node)."""
    nodes: list[PlanNode] = []
    blocks: list[Block] = []
    for k, step in enumerate(steps, 1):
        more, guard = WRITE[step.verb](ctx, f"s{k}", step, obs)
        nodes += more
        if guard is not None:
            blocks.append(Block(id=f"s{k}", attempts=attempts, when=guard))
    return chain(nodes, blocks=blocks)


def _nodes_open(ctx: SkillContext, s: str, step: Step, obs: Observation):
    door = step.target
    return [
        _node(f"{s}_tuck", "tuck", {}, when=["not side_held"], must=False),
        _node(f"{s}_open", "open", {"part": door}, block=s),
        _node(f"{s}_round", "navigate", {"target": door}, when=[f"ran:{s}", f"outside:{door}"], must=False),
    ], [f"needed:{s}"]


def _nodes_close(ctx: SkillContext, s: str, step: Step, obs: Observation):
    return [
        _node(f"{s}_tuck", "tuck", {}, must=False),
        _node(f"{s}_close", "close", {"part": step.target}, block=s),
    ], []


def _nodes_press(ctx: SkillContext, s: str, step: Step, obs: Observation):
    return [_node(f"{s}_press", "press", {"button": step.target}, block=s)], [f"inside:{s}", f"shut:{s}"]


def _nodes_wait(ctx: SkillContext, s: str, step: Step, obs: Observation):
    planned = wait_budget(step.conditions, obs.temperatures_c, ctx.task.thermal or ThermalSetup())
    seconds = round(planned, 1) if math.isfinite(planned) else 0.0  # as planned; measured again when it runs
    return [_node(f"{s}_wait", "wait", {"seconds": seconds}, must=False)], None


def _nodes_carry(ctx: SkillContext, s: str, step: Step, obs: Observation):
    if not step.supports:
        ctx.log("decision", step=step.describe(), choice="skip: nowhere to set it down")
        return [], None
    o, where = step.target, step.supports[0].name
    came = support_of(ctx, obs, o) or step.supports[0]  # named as planned; measured at the carry's start
    app = owner(ctx.scene.house, step.supports)
    stage = staging_surface(ctx.scene.house, app) if app is not None else None

    def n(kind: str, verb: str, args: dict, **rules) -> PlanNode:
        return _node(f"{s}_{kind}", verb, {"object": o, **args}, block=s, **rules)

    staging = (
        [
            n("stage_pick", "pick", {}, on="fail", when=[f"stage:{s}"]),
            n("stage_place", "place", {"support": stage.name}, on="fail", when=[f"stage:{s}", f"holding:{o}"]),
            n("stage_release", "release", {}, on="fail", when=[f"stage:{s}", "touching"]),
        ]
        if stage is not None
        else []
    )
    return [
        n("release", "release", {}, when=[f"not holding:{o}", "touching"], must=False),
        n("pick", "pick", {}, when=[f"not holding:{o}"], ok_if=f"holding:{o}"),
        *staging,
        _node(f"{s}_front", "navigate", {"target": where}, block=s, must=False),
        _node(f"{s}_legs", "navigate", {"target": where}, block=s, must=False),
        n("place", "place", {"support": where}, done_if=f"placed:{s}"),
        n("put_back", "place", {"support": came.name}, on="give_up", when=[f"holding:{o}", f"origin:{s}"]),
        n("let_go", "release", {}, on="give_up", when=["touching"]),
    ], [f"doors_open:{s}"]


def _node(id: str, verb: str, args: dict, **rules) -> PlanNode:
    return PlanNode(id=id, verb=verb, args=args, rules=Rules(**rules))


WRITE = {"open": _nodes_open, "close": _nodes_close, "press": _nodes_press, "wait": _nodes_wait, "carry": _nodes_carry}


def _doors(ctx: SkillContext):
    names = {a.door for a in ctx.scene.house.appliances if a.door}
    return [p for p in ctx.scene.house.articulated if p.name in names]


def wait_budget(conditions: list[g.Condition], temperatures: dict[str, float], setup: ThermalSetup) -> float:
    """Seconds until ``conditions`` hold under the thermal model (a microwave heating at its rate, the fridge
    relaxing towards ``fridge_c``), plus ``skills.appliance.wait_margin_s``; inf when the fridge cannot get there."""
    need = [0.0]
    for cond in conditions:
        for obj in cond.items:
            t = temperatures.get(obj, setup.ambient_c)
            if isinstance(cond, g.Heated):
                need.append(time_to_heat(t, cond.min_c, setup))
            elif isinstance(cond, g.Chilled):
                need.append(time_to_chill(t, cond.max_c, setup))
    return max(need) + tuning().appliance.wait_margin_s
