"""The scripted brain: a goal's moves run skill by skill, with its own recoveries, on ground-truth annotations.

What goes into or out of a fridge or microwave (heat, chill, a fridge shelf) runs first, through the appliance
flow (:mod:`housebench.skill_library.appliance_flow`); then every move of :mod:`housebench.skill_library.moves`:
a toppled object is stood up first, then it is picked and placed, each way chosen from the choice table
(:mod:`housebench.skill_library.choose`). A failed or missed grasp is picked again, a drop picked again from
where it fell, a place that found its surface out of reach or full tries the next surface, up to ``attempts``
times a move; then the items of ``upright`` goals measured toppled are stood up. Every skill runs through the
one driver (:func:`~housebench.skills.drive.tried`, events ``skill_start`` and ``skill_end``); every decision
is a ``decision`` event.
"""

from __future__ import annotations

from collections.abc import Generator

from housebench.skill_library.appliance_flow import ApplianceFlow
from housebench.skill_library.choose import Noun, choose
from housebench.skill_library.moves import Move, choose_surface, clear_the_way, plan_moves, shape_moves, toppled
from housebench.skills.base import Reason, Skill, SkillContext, SkillFailure
from housebench.skills.drive import tried
from housebench.skills.hand import Stack
from housebench.skills.lay import Lay, Upright
from housebench.skills.place import Release
from housebench.skills.tuning import tuning
from housebench.state import Action, Observation
from housebench.tasks.geometry import rotation

Run = Generator[Action, Observation, Observation]


class Script:
    def __init__(self, ctx: SkillContext, attempts: int) -> None:
        self.ctx, self.attempts = ctx, attempts

    def skill(
        self, skill: Skill, obs: Observation
    ) -> Generator[Action, Observation, tuple[SkillFailure | None, Observation]]:
        return (yield from tried(skill, self.ctx, obs, events=True))

    def run(self, obs: Observation) -> Run:
        ctx = self.ctx
        flow = ApplianceFlow(ctx, obs, self.attempts, self.skill)  # into and out of the fridge and microwave
        obs = yield from flow.run(obs)
        moves = [m for m in shape_moves(ctx, obs, plan_moves(ctx, obs)) if m.obj not in flow.objects]
        moves = clear_the_way(ctx, obs, moves)
        ctx.log("plan", moves=[m.describe() for m in moves])
        placed: dict[str, tuple[float, float]] = {}
        for move in moves:
            obs = yield from self._stand_up(move.obj, obs)
            obs = yield from self._move(move, obs, placed)
        if obs.touching():
            _, obs = yield from self.skill(Release(), obs)
        return (yield from self._upright(obs))

    def _move(self, move: Move, obs: Observation, placed: dict) -> Run:
        """Pick and place ``move``'s object, ``attempts`` tries."""
        ctx, failure = self.ctx, None
        for attempt in range(1, self.attempts + 1):
            if not obs.holding(move.obj):
                if obs.touching():
                    failure, obs = yield from self.skill(Release(), obs)
                _, skills = choose("pick", Noun(ctx, obs, move.obj, supports=move.supports))
                for skill in skills:
                    failure, obs = yield from self.skill(skill, obs)
                if failure is not None and not obs.holding(move.obj):
                    ctx.log("decision", move=move.describe(), attempt=attempt, choice="re-pick")
                    continue
            place = self._place(move, obs, placed)
            if place is None:
                ctx.log("decision", move=move.describe(), choice="no free spot")
                return obs
            failure, obs = yield from self.skill(place, obs)
            surface = getattr(place, "support", None)  # a stack's target is an object, not a surface
            if failure is not None and failure.reason in (Reason.UNREACHABLE, Reason.NO_SPACE) and surface:
                move.failed.add(surface.name)  # another surface next time
            if failure is None or ctx.judge(move.check, obs.state).success:  # failed after it was done
                placed[move.obj] = obs.objects[move.obj].pos[:2]
                return obs
            choice = "place again" if obs.holding(move.obj) else "re-pick"
            ctx.log("decision", move=move.describe(), attempt=attempt, choice=choice, after=failure.reason.value)
        ctx.log("decision", move=move.describe(), choice="give up")
        return obs

    def _upright(self, obs: Observation) -> Run:
        """Stand up every item an ``upright`` goal condition measures as toppled, ``attempts`` tries each."""
        for obj in toppled(self.ctx, obs):
            for attempt in range(1, self.attempts + 1):
                self.ctx.log("decision", upright=obj, attempt=attempt)
                failure, obs = yield from self.skill(Upright(obj), obs)
                if failure is None or obj not in toppled(self.ctx, obs):
                    break
        return obs

    def _stand_up(self, obj: str, obs: Observation) -> Run:
        """A toppled object (knocked over on the way) stood up before it is moved: ``upright``."""
        if obs.holding(obj) or rotation(obs.objects[obj].quat)[2, 2] >= tuning().grasp.tilted:
            return obs
        self.ctx.log("decision", upright=obj, why="toppled before its move")
        _, obs = yield from self.skill(Upright(obj), obs)
        return obs

    def _place(self, move: Move, obs: Observation, placed: dict) -> Skill | None:
        if move.container:
            return choose("insert", Noun(self.ctx, obs, move.obj, container=move.container))[1][0]
        if move.base:
            return Stack(move.obj, move.base)
        near = placed.get(move.near) if move.near else None
        support = choose_surface(self.ctx, obs, move, near)
        if support is None:
            return None
        self.ctx.log("decision", move=move.describe(), support=support.name)
        if move.lay:
            return Lay(move.obj, support)
        return choose("place", Noun(self.ctx, obs, move.obj, support=support, near=near))[1][0]
