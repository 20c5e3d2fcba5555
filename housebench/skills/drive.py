"""The one skill driver: a skill's generator run under its time budget, with the head aimed as it goes.

Every caller runs skills through these (the scripted policy, the skill library's runtime, the verification
stage, the tests):

- :func:`drive` runs a skill (``obs = yield action``) and returns its last observation or raises its
  :class:`SkillFailure` (with ``failure.obs``, the observation it failed on);
- :func:`tried` is :func:`drive` with the failure caught: ``(failure or None, last observation)``;
- :class:`Stepper` steps any such generator from a policy's ``act`` (or a test's loop), one control step a call.

``checked`` runs the skill's own pre- and postconditions (:meth:`Skill.run`); the runtime leaves them to the
contract it measures (:meth:`Skill.body`).
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from housebench.skills.base import Reason, Skill, SkillContext, SkillFailure
from housebench.skills.look import look
from housebench.state import Action, Observation

Drive = Generator[Action, Observation, Observation]
Outcome = tuple[SkillFailure | None, Observation]


def drive(
    skill: Skill,
    ctx: SkillContext,
    obs: Observation,
    *,
    checked: bool = True,
    watch: Callable[[Observation], None] | None = None,
) -> Drive:
    """``skill`` run to its end under its ``timeout_s``; ``watch(obs)`` sees every observation; every action
    passes through :func:`~housebench.skills.look.look`."""
    started = obs.time
    gen = skill.run(ctx, obs) if checked else skill.body(ctx, obs)
    try:
        action = look(skill, ctx, obs, next(gen))
        while True:
            obs = yield action
            if watch is not None:
                watch(obs)
            if obs.time - started > skill.timeout_s:
                gen.close()
                raise skill.fail(Reason.TIMEOUT, elapsed_s=round(obs.time - started, 3))
            action = look(skill, ctx, obs, gen.send(obs))
    except StopIteration as stop:
        return stop.value if stop.value is not None else obs
    except SkillFailure as failure:
        failure.obs = obs
        raise


def tried(
    skill: Skill, ctx: SkillContext, obs: Observation, *, events: bool = False
) -> Generator[Action, Observation, Outcome]:
    """:func:`drive` with its failure returned instead of raised; ``events``: between a ``skill_start`` and a
    ``skill_end`` event (its outcome, the failure's reason and measurement)."""
    if events:
        ctx.log("skill_start", skill=skill.name, target=skill.target())
    failure = None
    try:
        obs = yield from drive(skill, ctx, obs)
    except SkillFailure as caught:
        failure, obs = caught, caught.obs
    if events:
        ctx.log(
            "skill_end",
            skill=skill.name,
            target=skill.target(),
            ok=failure is None,
            reason=failure.reason.value if failure else "",
            detail=failure.detail if failure else {},
        )
    return failure, obs


class Stepper:
    """A generator of actions (``obs = yield action``) driven one control step per :meth:`step` call."""

    def __init__(self, gen: Generator[Action, Observation, Any]) -> None:
        self.gen, self.primed, self.done = gen, False, False
        self.result: Any = None  # what the generator returned

    def step(self, obs: Observation) -> Action | None:
        """The next action, or None once the generator has ended."""
        if self.done:
            return None
        try:
            action = self.gen.send(obs) if self.primed else next(self.gen)
        except StopIteration as stop:
            self.done, self.result = True, stop.value
            return None
        self.primed = True
        return action
