"""The appliance flow: the appliance plan's steps run skill by skill, each guarded on what is measured.

A door is opened by its handle and closed by its face, the arm tucked before every close (it drives in tucked
and unfolds at its stance) and before an open when the hand points down; after a pull that leaves the robot on
the door's outer side the arm tucks and the base drives round to the opening. A carry is a pick and a place
through the open door (ways from the choice table), picked again after a miss and placed again on the next
surface, ``attempts`` tries; an item the side pick does not reach on an open top is first *staged*: picked
from above and set down at the front of the open top nearest the appliance; a carry into an appliance stops in
front of its opening first where that stands clear of the open door. A carry whose door did not open is
skipped, a given-up item is put back where it was, the start is not pressed with the door open, the wait covers
only items in their shut appliance. Every decision is an event.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator

import numpy as np

from housebench.annotations.schema import ApplianceAnnotation, Support
from housebench.house.query import HouseQuery
from housebench.skill_library.appliance_plan import Step, appliance_at, plan, wait_budget
from housebench.skill_library.choose import Noun, choose
from housebench.skill_library.staging import staging_surface
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

Outcome = tuple[SkillFailure | None, Observation]
RunSkill = Callable[[Skill, Observation], Generator[Action, Observation, Outcome]]

Script = Generator[Action, Observation, Observation]


class ApplianceFlow:
    """Runs :func:`plan`'s steps through the policy's skill loop; ``objects`` are the items it owns
    (the scripted policy leaves them alone)."""

    def __init__(self, ctx: SkillContext, obs: Observation, attempts: int, skill: RunSkill) -> None:
        self.ctx, self.attempts, self.skill = ctx, attempts, skill
        self.steps = plan(ctx, obs.state)
        self.objects = {s.target for s in self.steps if s.verb == "carry"}
        self.rest: list[Step] = []  # the steps after the one running

    def run(self, obs: Observation) -> Script:
        if self.steps:
            self.ctx.log("decision", appliance_flow=[s.describe() for s in self.steps])
        for k, step in enumerate(self.steps):
            self.rest = self.steps[k + 1 :]
            if step.verb == "close" or (step.verb == "open" and not side_held(self.ctx, obs)):
                # a hand pointing down swings the arm round the door's wrong side; a level empty hand carried round
                # an open door to the close's stance sweeps through the door's swing
                _, obs = yield from self.skill(Pose("tuck"), obs)
            obs = yield from getattr(self, "_" + step.verb)(step, obs)
        return obs

    def _retried(self, make, what: str, obs: Observation) -> Script:
        for attempt in range(1, self.attempts + 1):
            failure, obs = yield from self.skill(make(), obs)
            if failure is None:
                break
            self.ctx.log("decision", step=what, attempt=attempt, choice="again", after=failure.reason.value)
        return obs

    def _open(self, step: Step, obs: Observation) -> Script:
        if not any(step.target in _needed_doors(self.ctx, obs, s) for s in self.rest if s.verb == "carry"):
            self.ctx.log("decision", step=step.describe(), choice="skip: no carry needs it")  # e.g. not heated
            return obs
        obs = yield from self._retried(lambda: Open(step.target), step.describe(), obs)
        if self._outside(step.target, obs):
            # an arm out, driven round the door's free edge from the pull's stance, sweeps the door's swing:
            # tucked, the base goes round to the opening first
            front = opening_front(self.ctx, obs, step.target)
            self.ctx.log("decision", step=step.describe(), choice="tuck, round to the opening", base=front)
            _, obs = yield from self.skill(Pose("tuck"), obs)
            if front is not None:
                _, obs = yield from self.skill(Navigate(front, why=f"in front of {step.target}", look=step.target), obs)
        return obs

    def _outside(self, door: str, obs: Observation) -> bool:
        """Whether the base stands on ``door``'s outer side (where a handle pull leaves it)."""
        part = door_part(self.ctx, door)
        if part is None or part.joint != "revolute":
            return False
        hinge = Door(part)
        normal = hinge.normal(obs.parts.get(door, part.closed))
        return float(np.dot(np.asarray(obs.base[:2]) - hinge.pivot[:2], normal[:2])) > 0.0

    def _close(self, step: Step, obs: Observation) -> Script:
        return (yield from self._retried(lambda: Close(step.target), step.describe(), obs))

    def _press(self, step: Step, obs: Observation) -> Script:
        app = next(a for a in self.ctx.scene.house.appliances if a.switch == step.target)
        if not any(getattr(appliance_at(obs.state, self.ctx, o), "name", None) == app.name for o in obs.objects):
            self.ctx.log("decision", step=step.describe(), choice="skip: nothing inside")
            return obs
        if app.door and not self.ctx.judge([g.Closed(predicate="closed", parts=[app.door])], obs.state).success:
            self.ctx.log("decision", step=step.describe(), choice="skip: door open (it would not run)")
            return obs
        return (yield from self._retried(lambda: Press(step.target), step.describe(), obs))

    def _wait(self, step: Step, obs: Observation) -> Script:
        setup = self.ctx.task.thermal or ThermalSetup()
        kinds = {g.Heated: "microwave", g.Chilled: "fridge"}
        ready = []
        for cond in step.conditions:
            app = appliance_at(obs.state, self.ctx, cond.items[0])
            shut = app is not None and (
                app.door is None or self.ctx.judge([g.Closed(predicate="closed", parts=[app.door])], obs.state).success
            )
            if app is not None and app.kind == kinds[type(cond)] and shut:  # an open one neither heats nor chills
                ready.append(cond)
            else:
                self.ctx.log("decision", step="wait", item=cond.items[0], choice="skip: not in it, or open")
        budget = wait_budget(ready, obs.temperatures_c, setup)
        if not ready or math.isinf(budget):
            self.ctx.log("decision", step="wait", choice="skip", budget_s=budget)
            return obs
        self.ctx.log("decision", step="wait", items=[c.items[0] for c in ready], budget_s=round(budget, 1))
        _, obs = yield from self.skill(WaitUntil(ready, budget), obs)
        return obs

    def _carry(self, step: Step, obs: Observation) -> Script:
        """Pick ``step.target`` from the side (again after a miss or a drop) and place it from the side on
        the first of its supports that takes it, ``attempts`` tries; skipped while a door it needs is
        shut; given up, it is put back where it was."""
        obj, ctx = step.target, self.ctx
        doors = _needed_doors(ctx, obs, step)
        shut = [d for d in doors if not ctx.judge([g.Open(predicate="open", parts=[d])], obs.state).success]
        if shut or not step.supports:
            ctx.log("decision", step=step.describe(), choice="skip: door shut", doors=shut)
            return obs
        origin = support_of(ctx, obs, obj)
        supports, staged = list(step.supports), False
        for attempt in range(1, self.attempts + 1):
            if not obs.holding(obj):
                if obs.touching():
                    _, obs = yield from self.skill(Release(), obs)
                failure, obs = yield from self.skill(self._way("pick", obs, obj, supports=step.supports), obs)
                stage = None if staged or failure is None else self._staging(obj, step, obs)
                if stage is not None and not obs.holding(obj):  # no side grasp where it stands
                    ctx.log(
                        "decision", step=step.describe(), choice="stage", support=stage.name, after=failure.reason.value
                    )
                    obs = yield from self._stage(obj, stage, owner(ctx.scene.house, step.supports), obs)
                    staged = True
                    continue
                if failure is not None and not obs.holding(obj):
                    ctx.log("decision", step=step.describe(), attempt=attempt, choice="re-pick")
                    continue
            support = supports[0]
            obs = yield from self._approach(obj, support, step, obs)
            failure, obs = yield from self.skill(self._way("place", obs, obj, support=support), obs)
            if self._placed(obj, support, obs):
                return obs
            if failure is None:  # on the support by the skill's check, but not in the cavity
                failure = SkillFailure("place", Reason.POSTCONDITION, outside=owner(ctx.scene.house, [support]).name)
            if failure.reason in (Reason.UNREACHABLE, Reason.NO_SPACE) and len(supports) > 1:
                supports = supports[1:] + supports[:1]  # the next surface next time
            ctx.log("decision", step=step.describe(), attempt=attempt, choice="again", after=failure.reason.value)
        ctx.log("decision", step=step.describe(), choice="give up")
        if obs.holding(obj) and origin is not None:  # back where it came from: the doors still have to shut
            ctx.log("decision", step=step.describe(), choice="put back", support=origin.name)
            _, obs = yield from self.skill(self._way("place", obs, obj, support=origin), obs)
        if obs.touching():
            _, obs = yield from self.skill(Release(), obs)
        return obs

    def _way(self, verb: str, obs: Observation, obj: str, **where) -> Skill:
        """The choice table's way of a carry through an appliance's door."""
        return choose(verb, Noun(self.ctx, obs, obj, through_door=True, **where))[1][0]

    def _approach(self, obj: str, support: Support, step: Step, obs: Observation) -> Generator:
        """Where the base can stand in front of the appliance's opening clear of its open door
        (:func:`lead_in`: the microwave's), there, the place's own approach doing the rest; else (the fridge)
        the arm to the carry pose and the base to the side place's own stance as the planned policy's navigate
        drives there, facing the way there and turned at the stance (:func:`arrive`): a turn on the way, with
        the item held out, sweeps the open door's swing, and from in front of an opening the place's own
        approach is the shorter way in."""
        front = lead_in(self.ctx, obs, support)
        if front is not None:  # the last leg in: square to the opening, off the door's edge
            self.ctx.log("decision", step=step.describe(), choice="round to the opening", base=front)
            _, obs = yield from self.skill(
                Navigate(front, why=f"in front of {support.name}", skip=(obj,), look=support.name), obs
            )
            return obs
        try:
            pose = self._way("place", obs, obj, support=support).stance(self.ctx, obs)
        except SkillFailure:  # none reaches from here: the place says so itself
            return obs
        _, obs = yield from self.skill(Carry(), obs)
        for leg in arrive(pose, obs.base, self.ctx, obs, support.name):
            _, obs = yield from self.skill(leg, obs)
        return obs

    def _staging(self, obj: str, step: Step, obs: Observation) -> Support | None:
        """Where an item with no side grasp where it stands is set down first (from above) for one: the
        appliance's :func:`staging_surface`, if the item stands on another open top (None else)."""
        app, under = owner(self.ctx.scene.house, step.supports), support_of(self.ctx, obs, obj)
        if app is None or under is None or under.clearance is not None:
            return None
        best = staging_surface(self.ctx.scene.house, app)
        return None if best is None or best.name == under.name else best

    def _stage(self, obj: str, stage: Support, app: ApplianceAnnotation, obs: Observation) -> Script:
        """Top-down pick, and place on ``stage`` at the spot nearest a point ``skills.appliance.stage_out_m`` in
        front of ``app``'s door handle (the stage's front edge: a side pick reaches only so deep)."""
        failure, obs = yield from self.skill(choose("pick", Noun(self.ctx, obs, obj, supports=[stage]))[1][0], obs)
        if obs.holding(obj):
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
            failure, obs = yield from self.skill(
                choose("place", Noun(self.ctx, obs, obj, support=stage, near=(at[0], at[1])))[1][0], obs
            )
        if obs.touching():
            _, obs = yield from self.skill(Release(), obs)
        return obs

    def _placed(self, obj: str, support: Support, obs: Observation) -> bool:
        """``obj`` let go on ``support``, and inside the appliance's cavity (where the thermal model heats
        or chills) when the support is an appliance's."""
        on = g.On(predicate="on", items=[obj], support=support.name)
        if obs.holding(obj) or not self.ctx.judge([on], obs.state).success:
            return False
        app = owner(self.ctx.scene.house, [support])
        return app is None or getattr(appliance_at(obs.state, self.ctx, obj), "name", None) == app.name


def _needed_doors(ctx: SkillContext, obs: Observation, step: Step) -> list[str]:
    apps = [appliance_at(obs.state, ctx, step.target), owner(ctx.scene.house, step.supports)]
    return sorted({a.door for a in apps if a is not None and a.door})
