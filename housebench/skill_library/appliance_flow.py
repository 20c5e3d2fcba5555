"""The appliance flow: the appliance plan's steps as nodes the one runtime runs, this planner judging them.

Each step of :func:`~housebench.skill_library.appliance_plan.plan` (``s<k>``) becomes judged nodes
(:mod:`housebench.skill_library.blocks`), each guarded on what is measured when it is reached:

- ``open``: the arm tucked when the hand points down (it would swing round the door's wrong side), then block
  ``s<k>``, ``attempts`` tries, only when a later carry needs the door; after a pull that leaves the robot on the
  door's outer side the arm tucks and the base drives round to the opening (``s<k>_round``);
- ``close``: the arm tucked (it drives in tucked and unfolds at its stance), then the close, ``attempts`` tries;
- ``press``: only with something inside and the door shut (it would not run), ``attempts`` tries;
- ``wait``: for the items shut in their appliance, the budget from the thermal model's inverse;
- ``carry``: block ``s<k>``, only while the doors it needs are open: the hand lets go of what it caught, a pick
  and a place through the open door (ways from the choice table), picked again after a miss and placed again on the
  next surface, ``attempts`` tries; an item the side pick does not reach on an open top is first *staged* (once:
  the pick's recovery): picked from above and set down at the front of the open top nearest the appliance; the base
  comes in front of the opening first where that stands clear of the open door, else to the side place's own stance;
  a given-up item is put back where it was (the block's recovery).

Every decision is an event.
"""

from __future__ import annotations

import math
from collections.abc import Generator

import numpy as np

from housebench.annotations.schema import ApplianceAnnotation, Support
from housebench.house.query import HouseQuery
from housebench.skill_library.appliance_plan import Step, appliance_at, plan, subgraph, wait_budget
from housebench.skill_library.blocks import RunSkill
from housebench.skill_library.choose import Noun, choose
from housebench.skill_library.planner import world_of
from housebench.skill_library.runtime import SubgraphRun
from housebench.skill_library.staging import staging_surface
from housebench.skill_library.subgraph import PlanNode
from housebench.skills.articulate import Close, Open
from housebench.skills.base import Reason, Skill, SkillContext, SkillFailure
from housebench.skills.body import Pose
from housebench.skills.carry import Carry
from housebench.skills.door import Door, door_part
from housebench.skills.front import lead_in, opening_front, owner
from housebench.skills.navigate import Navigate, arrive
from housebench.skills.place import Release
from housebench.skills.press import Press, WaitUntil
from housebench.skills.tuning import tuning
from housebench.skills.view import side_held, support_of
from housebench.state import Action, Observation
from housebench.tasks import goal as g
from housebench.tasks.thermal import ThermalSetup

Script = Generator[Action, Observation, Observation]
ONE_SKILL = {"close": Close, "open": Open}


class ApplianceFlow:
    """Planner (``subgraph``) and judge (``way``, ``test``, ``after``, ``start``) of :func:`plan`'s steps; ``objects``
    are the items it carries (the scripted policy's moves leave them alone)."""

    def __init__(self, ctx: SkillContext, obs: Observation, attempts: int, skill: RunSkill) -> None:
        self.ctx, self.attempts, self.skill = ctx, attempts, skill
        self.steps = plan(ctx, obs.state)
        self.objects = {s.target for s in self.steps if s.verb == "carry"}
        self.origin: dict[str, Support | None] = {}  # carry -> where the item stood at its start
        self.supports: dict[str, list[Support]] = {}  # carry -> its surfaces, the next one first
        self.staged: set[str] = set()  # carries whose item has been staged
        self.stage: dict[str, Support | None] = {}  # carry -> the stage chosen after this try's missed pick
        self.pose: dict[str, tuple[float, float, float] | None] = {}  # carry -> the place's stance to drive to

    def run(self, obs: Observation) -> Script:
        if not self.steps:
            return obs
        self.ctx.log("decision", appliance_flow=[s.describe() for s in self.steps])
        world = world_of(self.ctx.task, self.ctx.scene)
        world.state = obs.state
        sub = subgraph(self.ctx, self.steps, obs, self.attempts)
        if sub is None:
            return obs
        run = SubgraphRun(sub, world, self.ctx, self.attempts, judge=self)
        run.skill = self.skill
        return (yield from run.run(obs))

    # ---- the judge ----
    def way(self, node: PlanNode, obs: Observation) -> tuple[Skill, ...] | None:
        block, kind = node.id.split("_", 1)
        step = self.steps[_at(block)]
        if kind == "tuck":
            return (Pose("tuck"),)
        if kind in ONE_SKILL:
            return (ONE_SKILL[kind](step.target),)
        if kind == "press":
            return (Press(step.target),)
        if kind == "round":
            return self._round(step, obs)
        if kind == "wait":
            return self._wait(step, obs)
        return self._carry_way(block, kind, step, obs)

    def test(self, name: str, arg: str, node: PlanNode, obs: Observation) -> bool:
        ctx = self.ctx
        if name == "side_held":
            return side_held(ctx, obs)
        if name == "outside":
            return self._outside(arg, obs)
        step = self.steps[_at(arg)]
        if name == "needed":
            rest = self.steps[_at(arg) + 1 :]
            if not any(step.target in _needed_doors(ctx, obs, s) for s in rest if s.verb == "carry"):
                ctx.log("decision", step=step.describe(), choice="skip: no carry needs it")  # e.g. not heated
                return False
            return True
        if name in ("inside", "shut"):
            return self._may_press(name, step, obs)
        if name == "doors_open":
            doors = _needed_doors(ctx, obs, step)
            shut = [d for d in doors if not ctx.judge([g.Open(predicate="open", parts=[d])], obs.state).success]
            if shut:
                ctx.log("decision", step=step.describe(), choice="skip: door shut", doors=shut)
            return not shut
        if name == "stage":
            if arg not in self.stage:
                self.stage[arg] = None if arg in self.staged else self._staging(step.target, step, obs)
            return self.stage[arg] is not None
        if name == "origin":
            return self.origin[arg] is not None
        if name == "placed":
            return self._placed(step.target, self.supports[arg][0], obs)
        raise ValueError(f"no test '{name}'")

    def start(self, block: str, obs: Observation) -> None:
        step = self.steps[_at(block)]
        if step.verb == "carry":
            self.origin[block] = support_of(self.ctx, obs, step.target)
            self.supports[block] = list(step.supports)

    def after(self, node: PlanNode, failure: SkillFailure | None, ok: bool, obs: Observation) -> None:
        block, kind = node.id.split("_", 1)
        if kind == "pick":
            self.stage.pop(block, None)  # a missed pick decides on a stage afresh
        elif kind == "stage_pick":
            self.staged.add(block)
        elif kind == "place" and not ok:
            supports = self.supports[block]
            reason = failure.reason if failure is not None else Reason.POSTCONDITION  # on it, but not in the cavity
            if reason in (Reason.UNREACHABLE, Reason.NO_SPACE) and len(supports) > 1:
                self.supports[block] = supports[1:] + supports[:1]  # the next surface next time

    def _carry_way(self, block: str, kind: str, step: Step, obs: Observation) -> tuple[Skill, ...]:
        obj, support = step.target, self.supports[block][0]
        if kind in ("release", "stage_release", "let_go"):
            return (Release(),)
        if kind == "pick":
            return (self._way("pick", obs, obj, supports=step.supports),)
        if kind == "stage_pick":
            stage = self.stage[block]
            self.ctx.log("decision", step=step.describe(), choice="stage", support=stage.name)
            return (choose("pick", Noun(self.ctx, obs, obj, supports=[stage]))[1][0],)
        if kind == "stage_place":
            return (self._stage_place(obj, self.stage[block], owner(self.ctx.scene.house, step.supports), obs),)
        if kind == "front":
            return self._front(block, obj, support, step, obs)
        if kind == "legs":
            pose = self.pose.get(block)
            return () if pose is None else arrive(pose, obs.base, self.ctx, obs, support.name)
        if kind == "put_back":
            self.ctx.log("decision", step=step.describe(), choice="put back", support=self.origin[block].name)
            return (self._way("place", obs, obj, support=self.origin[block]),)
        return (self._way("place", obs, obj, support=support),)

    def _round(self, step: Step, obs: Observation) -> tuple[Skill, ...]:
        """An arm out, driven round the door's free edge from the pull's stance, sweeps the door's swing: tucked, the
        base goes round to the opening first."""
        front = opening_front(self.ctx, obs, step.target)
        self.ctx.log("decision", step=step.describe(), choice="tuck, round to the opening", base=front)
        if front is None:
            return (Pose("tuck"),)
        return Pose("tuck"), Navigate(front, why=f"in front of {step.target}", look=step.target)

    def _may_press(self, name: str, step: Step, obs: Observation) -> bool:
        app = next(a for a in self.ctx.scene.house.appliances if a.switch == step.target)
        if name == "inside":
            if not any(getattr(appliance_at(obs.state, self.ctx, o), "name", None) == app.name for o in obs.objects):
                self.ctx.log("decision", step=step.describe(), choice="skip: nothing inside")
                return False
            return True
        if app.door and not self.ctx.judge([g.Closed(predicate="closed", parts=[app.door])], obs.state).success:
            self.ctx.log("decision", step=step.describe(), choice="skip: door open (it would not run)")
            return False
        return True

    def _outside(self, door: str, obs: Observation) -> bool:
        """Whether the base stands on ``door``'s outer side (where a handle pull leaves it)."""
        part = door_part(self.ctx, door)
        if part is None or part.joint != "revolute":
            return False
        hinge = Door(part)
        normal = hinge.normal(obs.parts.get(door, part.closed))
        return float(np.dot(np.asarray(obs.base[:2]) - hinge.pivot[:2], normal[:2])) > 0.0

    def _wait(self, step: Step, obs: Observation) -> tuple[Skill, ...]:
        """The wait for the items shut in their appliance (an open one neither heats nor chills); none: no skill."""
        setup = self.ctx.task.thermal or ThermalSetup()
        kinds = {g.Heated: "microwave", g.Chilled: "fridge"}
        ready = []
        for cond in step.conditions:
            app = appliance_at(obs.state, self.ctx, cond.items[0])
            shut = app is not None and (
                app.door is None or self.ctx.judge([g.Closed(predicate="closed", parts=[app.door])], obs.state).success
            )
            if app is not None and app.kind == kinds[type(cond)] and shut:
                ready.append(cond)
            else:
                self.ctx.log("decision", step="wait", item=cond.items[0], choice="skip: not in it, or open")
        budget = wait_budget(ready, obs.temperatures_c, setup)
        if not ready or math.isinf(budget):
            self.ctx.log("decision", step="wait", choice="skip", budget_s=budget)
            return ()
        self.ctx.log("decision", step="wait", items=[c.items[0] for c in ready], budget_s=round(budget, 1))
        return (WaitUntil(ready, budget),)

    def _way(self, verb: str, obs: Observation, obj: str, **where) -> Skill:
        """The choice table's way of a carry through an appliance's door."""
        return choose(verb, Noun(self.ctx, obs, obj, through_door=True, **where))[1][0]

    def _front(self, block: str, obj: str, support: Support, step: Step, obs: Observation) -> tuple[Skill, ...]:
        """Where the base can stand in front of the appliance's opening clear of its open door (:func:`lead_in`: the
        microwave's), there, the place's own approach doing the rest; else (the fridge) the arm to the carry pose, the
        base then to the side place's own stance (``<carry>_legs``: :func:`arrive`, facing the way there and turned
        at the stance, as the planned policy's navigate drives): a turn on the way, with the item held out, sweeps the
        open door's swing, and from in front of an opening the place's own approach is the shorter way in."""
        self.pose[block] = None
        front = lead_in(self.ctx, obs, support)
        if front is not None:  # the last leg in: square to the opening, off the door's edge
            self.ctx.log("decision", step=step.describe(), choice="round to the opening", base=front)
            return (Navigate(front, why=f"in front of {support.name}", skip=(obj,), look=support.name),)
        try:
            self.pose[block] = self._way("place", obs, obj, support=support).stance(self.ctx, obs)
        except SkillFailure:  # none reaches from here: the place says so itself
            return ()
        return (Carry(),)

    def _staging(self, obj: str, step: Step, obs: Observation) -> Support | None:
        """Where an item with no side grasp where it stands is set down first (from above) for one: the
        appliance's :func:`staging_surface`, if the item stands on another open top (None else)."""
        app, under = owner(self.ctx.scene.house, step.supports), support_of(self.ctx, obs, obj)
        if app is None or under is None or under.clearance is not None:
            return None
        best = staging_surface(self.ctx.scene.house, app)
        return None if best is None or best.name == under.name else best

    def _stage_place(self, obj: str, stage: Support, app: ApplianceAnnotation, obs: Observation) -> Skill:
        """The place on ``stage`` at the spot nearest a point ``skills.appliance.stage_out_m`` in front of ``app``'s
        door handle (the stage's front edge: a side pick reaches only so deep)."""
        part = HouseQuery(self.ctx.scene.house).parts.get(app.door) if app.door else None
        box = app.cavity
        at = (
            [
                c + n * tuning().appliance.stage_out_m
                for c, n in zip(part.handle.center, part.handle.normal, strict=True)
            ]
            if part
            else ((box[0] + box[3]) / 2, (box[1] + box[4]) / 2)
        )
        return choose("place", Noun(self.ctx, obs, obj, support=stage, near=(at[0], at[1])))[1][0]

    def _placed(self, obj: str, support: Support, obs: Observation) -> bool:
        """``obj`` let go on ``support``, and inside the appliance's cavity (where the thermal model heats
        or chills) when the support is an appliance's."""
        on = g.On(predicate="on", items=[obj], support=support.name)
        if obs.holding(obj) or not self.ctx.judge([on], obs.state).success:
            return False
        app = owner(self.ctx.scene.house, [support])
        return app is None or getattr(appliance_at(obs.state, self.ctx, obj), "name", None) == app.name


def _at(block: str) -> int:
    """The index of the step block ``s<k>`` runs."""
    return int(block[1:]) - 1


def _needed_doors(ctx: SkillContext, obs: Observation, step: Step) -> list[str]:
    apps = [appliance_at(obs.state, ctx, step.target), owner(ctx.scene.house, step.supports)]
    return sorted({a.door for a in apps if a is not None and a.door})
