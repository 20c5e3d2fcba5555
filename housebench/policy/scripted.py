"""``scripted``: a goal-driven baseline on ground-truth annotations, built from skills.

It reads the resolved goal, turns its conditions into *moves* (put an object into a container, or
on a support, near another), orders them (a container that must itself be moved goes first, and an
object lying in the way to another's surfaces before that one), and runs pick and place for each,
choosing among alternatives (which container, which surface). A failed or missed grasp is re-picked,
a drop re-picked from where it fell, up to ``attempts`` times.
``stacked`` items are stacked on their base after every other move, ``lying`` items laid on their
support; a toppled object is stood up before its move, and the items of ``upright`` goals at the end.
What goes into or out of a fridge or microwave (heat, chill, a fridge shelf) is the appliance flow's
(:mod:`housebench.policy.appliances`), run first. Every decision and skill outcome is an event (``ctx.log``).
"""

from __future__ import annotations

import math
from collections.abc import Generator
from dataclasses import dataclass, field

import numpy as np
from pydantic import Field

from housebench.annotations.schema import Support
from housebench.policy.appliances import ApplianceFlow
from housebench.policy.base import PolicyContext, PolicyParams, require_state
from housebench.skill_library.choose import Noun, choose
from housebench.skill_library.runtime import MAX_ATTEMPTS
from housebench.skills.base import Reason, Skill, SkillContext, SkillFailure
from housebench.skills.drive import Stepper, tried
from housebench.skills.hand import Stack
from housebench.skills.lay import Lay, Upright
from housebench.skills.navigate import planner
from housebench.skills.place import Release
from housebench.skills.side import low_ceiling
from housebench.skills.tuning import tuning
from housebench.skills.view import support_of
from housebench.state import Action, Observation
from housebench.tasks import goal as g
from housebench.tasks import refs
from housebench.tasks.context import Context
from housebench.tasks.evaluator import evaluate
from housebench.tasks.geometry import rotation


@dataclass
class Move:
    """Bring ``obj`` into ``container``, or onto one of ``supports`` (near ``near`` when given)."""

    obj: str
    container: str | None = None
    supports: list[Support] = field(default_factory=list)
    near: str | None = None
    check: list[g.Condition] = field(default_factory=list)  # done when these hold
    failed: set[str] = field(default_factory=set)  # surfaces a place found unreachable or full
    base: str | None = None  # stack on this object (``stacked``) instead of a support
    lay: bool = False  # lay it on its side on the support (``lying``)

    def describe(self) -> str:
        where = self.container or self.base or "|".join(s.name for s in self.supports)
        where += " (lying)" if self.lay else ""
        return f"{self.obj} -> {where}" + (f" near {self.near}" if self.near else "")


def plan_moves(ctx: SkillContext, obs: Observation) -> list[Move]:
    """The moves the goal asks for, in order, skipping what already holds."""
    goal = ctx.task.goal
    view = Context(goal, obs.state, ctx.scene, ctx.initial)
    moves: dict[str, Move] = {}
    bound: dict[str, str] = {}

    def first(slot: str) -> list[str]:
        if slot.startswith("$"):
            return [bound[slot[1:]]] if slot[1:] in bound else []
        return [cands[0] for cands in view.items(slot) if cands]

    for _, cond in g.leaves(goal.condition):
        if isinstance(cond, g.Inside):
            container = _choose_container(view, cond)
            if cond.bind:
                bound[cond.bind] = container
            for obj in (o for slot in cond.items for o in first(slot)):
                check = g.Inside(predicate="inside", items=[obj], container=container)
                moves.setdefault(obj, Move(obj, container=container, check=[check]))
        elif isinstance(cond, (g.On, g.Near)):
            supports = refs.supports(cond.support, goal.places, ctx.scene.house)
            objs = [o for slot in cond.items for o in first(slot)]
            for k, obj in enumerate(objs):
                check = g.On(predicate="on", items=[obj], support=cond.support)
                near = objs[0] if isinstance(cond, g.Near) and k > 0 else None
                move = moves.setdefault(obj, Move(obj, supports=supports, near=near))
                move.supports = move.supports or supports
                move.check.append(check)
    todo = [m for m in moves.values() if not ctx.judge(m.check, obs.state).success]
    containers = {m.container for m in todo if m.container}
    return sorted(todo, key=lambda m: m.obj not in containers)  # containers that move go first


WAY = 1.0  # m: a surface is within the robot's reach when the floor it can drive on comes this near it


def in_reach(ctx: SkillContext, obs: Observation, supports: list[Support], skip: tuple[str, ...]) -> bool:
    """Whether the floor's largest free piece, with the props but ``skip`` in the way, comes within
    ``WAY`` of one of ``supports``."""
    base = planner(ctx, obs, skip)
    rows, cols = np.nonzero(base.main)
    xs = base.grid.x0 + cols * base.grid.resolution
    ys = base.grid.y0 + rows * base.grid.resolution
    for support in supports:
        xmin, ymin, xmax, ymax = support.box
        dx, dy = np.maximum(np.maximum(xmin - xs, xs - xmax), 0.0), np.maximum(np.maximum(ymin - ys, ys - ymax), 0.0)
        if (np.hypot(dx, dy) <= WAY).any():
            return True
    return False


def clear_the_way(ctx: SkillContext, obs: Observation, moves: list[Move]) -> list[Move]:
    """``moves`` with an object that lies in the way to another move's surfaces (out of reach with it
    there, within reach without it: a toy in the only passage to the bed) moved before that move, where
    its own surfaces are within reach."""
    order = list(moves)
    for move in moves:
        if not move.supports or in_reach(ctx, obs, move.supports, (move.obj,)):
            continue
        for other in list(order):
            if other is move or order.index(other) < order.index(move):
                continue
            frees = in_reach(ctx, obs, move.supports, (move.obj, other.obj))
            if frees and (not other.supports or in_reach(ctx, obs, other.supports, (other.obj,))):
                order.remove(other)
                order.insert(order.index(move), other)
                ctx.log("decision", move=other.describe(), why=f"in the way to {move.describe()}")
    return order


def shape_moves(ctx: SkillContext, obs: Observation, moves: list[Move]) -> list[Move]:
    """``moves`` with the goal's ``stacked`` and ``lying`` conditions added: stacking moves go after
    every other (their base may have to move first); a ``lying`` item is laid on the support its move
    (or, when it already holds, the one it rests on) names."""
    goal = ctx.task.goal
    view = Context(goal, obs.state, ctx.scene, ctx.initial)
    by_obj = {m.obj: m for m in moves}
    stacks = []
    for _, cond in g.leaves(goal.condition):
        if not isinstance(cond, (g.Stacked, g.Lying)):
            continue
        for obj in (cands[0] for slot in cond.items for cands in view.items(slot) if cands):
            if isinstance(cond, g.Stacked):
                base = view.items(cond.base)[0][0]
                check = g.Stacked(predicate="stacked", items=[obj], base=base)
                if not ctx.judge([check], obs.state).success:
                    stacks.append(Move(obj, base=base, check=[check]))
                continue
            check = g.Lying(predicate="lying", items=[obj])
            if ctx.judge([check], obs.state).success:
                continue
            if obj not in by_obj:
                under = support_of(ctx, obs, obj)
                by_obj[obj] = Move(obj, supports=[under] if under else [])
                moves = [*moves, by_obj[obj]]
            by_obj[obj].lay = True
            by_obj[obj].check.append(check)
    return [*moves, *stacks]


def toppled(ctx: SkillContext, obs: Observation) -> list[str]:
    """The items of the goal's ``upright`` conditions measured tilted past their limit now."""
    goal = ctx.task.goal
    verdict = evaluate(goal, obs.state, ctx.scene, initial=ctx.initial)
    return [i.item for c in verdict.conditions if c.predicate == "upright" for i in c.items if not i.ok]


def _choose_container(view: Context, cond: g.Inside) -> str:
    """The first container candidate (the goal lists alternatives in order of preference)."""
    return view.items(cond.container)[0][0]


class ScriptedPolicy:
    name = "scripted"
    tracks = ("state",)  # a script on ground truth

    class Params(PolicyParams):
        attempts: int = Field(default=3, ge=1, le=MAX_ATTEMPTS)  # pick-and-place tries per move
        look: bool = True  # the head aimed at what each skill works on (housebench/skills/look.py); false: fixed

    def __init__(self, params: Params) -> None:
        self.params = params

    def reset(self, ctx: PolicyContext, obs: Observation) -> None:
        task, scene = require_state(ctx, self.name)
        self.ctx = SkillContext(
            task=task, scene=scene, control_dt=ctx.control_dt, log=ctx.log, initial=obs.state, look=self.params.look
        )
        self.stepper = Stepper(self._run(obs))

    def act(self, obs: Observation) -> Action | None:
        return self.stepper.step(obs) or Action(stop=True)

    def _run(self, obs: Observation) -> Generator[Action, Observation, None]:
        """The script's skills, each driven to its end (events ``skill_start`` and ``skill_end``)."""
        script, outcome = self._script(obs), None
        while True:
            try:
                skill = next(script) if outcome is None else script.send(outcome)
            except StopIteration:
                return
            self.ctx.log("skill_start", skill=skill.name, target=skill.target())
            failure, obs = yield from tried(skill, self.ctx, obs)
            self.ctx.log(
                "skill_end",
                skill=skill.name,
                target=skill.target(),
                ok=failure is None,
                reason=failure.reason.value if failure else "",
                detail=failure.detail if failure else {},
            )
            outcome = (failure, obs)

    def _script(self, obs: Observation) -> Generator[Skill, tuple[SkillFailure | None, Observation], None]:
        flow = ApplianceFlow(self.ctx, obs, self.params.attempts)  # into and out of the fridge and microwave
        obs = yield from flow.run(obs)
        moves = [m for m in shape_moves(self.ctx, obs, plan_moves(self.ctx, obs)) if m.obj not in flow.objects]
        moves = clear_the_way(self.ctx, obs, moves)
        self.ctx.log("plan", moves=[m.describe() for m in moves])
        placed: dict[str, tuple[float, float]] = {}
        for move in moves:
            obs = yield from self._stand_up(move.obj, obs)
            for attempt in range(1, self.params.attempts + 1):
                if not obs.holding(move.obj):
                    if obs.touching():
                        failure, obs = yield Release()
                    _, skills = choose("pick", Noun(self.ctx, obs, move.obj, supports=move.supports))
                    for skill in skills:
                        failure, obs = yield skill
                    if failure is not None and not obs.holding(move.obj):
                        self.ctx.log("decision", move=move.describe(), attempt=attempt, choice="re-pick")
                        continue
                place = self._place(move, obs, placed)
                if place is None:
                    self.ctx.log("decision", move=move.describe(), choice="no free spot")
                    break
                failure, obs = yield place
                surface = getattr(place, "support", None)  # a stack's target is an object, not a surface
                if failure is not None and failure.reason in (Reason.UNREACHABLE, Reason.NO_SPACE) and surface:
                    move.failed.add(surface.name)  # another surface next time
                if failure is None or self.ctx.judge(move.check, obs.state).success:  # failed after it was done
                    placed[move.obj] = obs.objects[move.obj].pos[:2]
                    break
                choice = "place again" if obs.holding(move.obj) else "re-pick"
                self.ctx.log(
                    "decision", move=move.describe(), attempt=attempt, choice=choice, after=failure.reason.value
                )
            else:
                self.ctx.log("decision", move=move.describe(), choice="give up")
        if obs.touching():
            failure, obs = yield Release()
        yield from self._upright(obs)

    def _upright(self, obs: Observation) -> Generator[Skill, tuple[SkillFailure | None, Observation], None]:
        """Stand up every item an ``upright`` goal condition measures as toppled, ``attempts`` tries each."""
        for obj in toppled(self.ctx, obs):
            for attempt in range(1, self.params.attempts + 1):
                self.ctx.log("decision", upright=obj, attempt=attempt)
                failure, obs = yield Upright(obj)
                if failure is None or obj not in toppled(self.ctx, obs):
                    break

    def _stand_up(
        self, obj: str, obs: Observation
    ) -> Generator[Skill, tuple[SkillFailure | None, Observation], Observation]:
        """A toppled object (knocked over on the way) stood up before it is moved: ``upright``."""
        if obs.holding(obj) or rotation(obs.objects[obj].quat)[2, 2] >= tuning().grasp.tilted:
            return obs
        self.ctx.log("decision", upright=obj, why="toppled before its move")
        _, obs = yield Upright(obj)
        return obs

    def _place(self, move: Move, obs: Observation, placed: dict) -> Skill | None:
        if move.container:
            return choose("insert", Noun(self.ctx, obs, move.obj, container=move.container))[1][0]
        if move.base:
            return Stack(move.obj, move.base)
        near = placed.get(move.near) if move.near else None
        height = self.ctx.scene.objects[move.obj].asset.size[2]
        usable = [s for s in move.supports if _placeable(s, height) and s.name not in move.failed]
        if not usable:
            return None
        # room for a top-down place first, open tops first, then the nearest
        at = near or obs.base[:2]
        support = min(usable, key=lambda s: (low_ceiling(s, height), s.clearance is not None, _distance(s, at)))
        self.ctx.log("decision", move=move.describe(), support=support.name)
        if move.lay:
            return Lay(move.obj, support)
        return choose("place", Noun(self.ctx, obs, move.obj, support=support, near=near))[1][0]


MAX_PLACE_HEIGHT = 1.25  # m: surfaces above this are out of a top-down place's reach
MAX_SIDE_HEIGHT = 1.35  # m: ... and of a place from the side


def _placeable(support: Support, height: float) -> bool:
    """A surface a top-down place reaches and has room above, or one under a ceiling a place from the
    side reaches."""
    if low_ceiling(support, height):
        return support.height <= MAX_SIDE_HEIGHT
    return support.height <= MAX_PLACE_HEIGHT


def _distance(support: Support, xy) -> float:
    xmin, ymin, xmax, ymax = support.box
    return math.hypot(max(xmin - xy[0], 0, xy[0] - xmax), max(ymin - xy[1], 0, xy[1] - ymax))
