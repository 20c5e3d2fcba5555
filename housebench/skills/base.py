"""The skill interface: one verb on one object or part, as a generator of :class:`Action` s.

A skill never steps the simulator and never moves anything but the robot's actuator targets. Its
:meth:`Skill.body` is a generator: it yields the next action and receives the next observation
(``obs = yield action``), and returns the last observation it saw. :meth:`Skill.run` wraps the body
with the skill's preconditions and postconditions, goal conditions judged by the task evaluator on
the observed :class:`SimState` (``holding``, ``on``, ``open``, ``base_near``, ...). A skill that
cannot do its job raises :class:`SkillFailure` with a reason code and what it measured.

Every caller drives a skill through :mod:`housebench.skills.drive` (its time budget, the head's aim).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

from housebench.annotations.schema import SceneAnnotations
from housebench.skills.tuning import tuning
from housebench.state import Action, Observation, SimState
from housebench.tasks.evaluator import evaluate
from housebench.tasks.goal import AllOf, Condition, Goal
from housebench.tasks.spec import TaskVariant
from housebench.tasks.verdict import Verdict

SkillGen = Generator[Action, Observation, Observation]


class Reason(StrEnum):
    """Why a skill failed (the report's histogram groups by skill and reason)."""

    PRECONDITION = "precondition"  # a precondition did not hold when the skill started
    POSTCONDITION = "postcondition"  # the body finished but its postcondition does not hold
    UNREACHABLE = "unreachable"  # no base pose / IK solution reaches the target
    NO_PATH = "no_path"  # no collision-free base path or arm motion
    MISSED = "missed"  # the fingers closed on nothing
    DROPPED = "dropped"  # the held object left the fingers
    STALLED = "stalled"  # the robot stopped short of its target (contact, blocked)
    TIMEOUT = "timeout"  # the skill ran past its time budget
    NO_SPACE = "no_space"  # no free spot on the support for the object
    UNSUPPORTED = "unsupported"  # the skill does not handle this object or part


class SkillFailure(Exception):
    """A skill's typed failure: the skill, a :class:`Reason` and measured detail (JSON-able)."""

    def __init__(self, skill: str, reason: Reason, **detail: Any) -> None:
        self.skill, self.reason, self.detail = skill, Reason(reason), detail
        extra = ", ".join(f"{k}={v}" for k, v in detail.items())
        super().__init__(f"{skill}: {self.reason.value}" + (f" ({extra})" if extra else ""))


@dataclass
class SkillContext:
    """What a skill may read besides observations: the resolved task, the scene's ground-truth
    annotations, the control period, the event log, and shared tools (IK, planners) built once."""

    task: TaskVariant
    scene: SceneAnnotations
    control_dt: float
    log: Callable[..., None] = lambda kind, **detail: None
    initial: SimState | None = None  # the episode's first state (for ``not_dropped`` / ``lifted``)
    tools: dict[str, Any] = field(default_factory=dict)
    look: bool = False  # aim the head at what the running skill works on (:mod:`housebench.skills.look`)

    def tool(self, name: str, build: Callable[[], Any]) -> Any:
        """A shared tool by name, built on first use (e.g. ``ctx.tool("ik", FetchIK)``)."""
        if name not in self.tools:
            self.tools[name] = build()
        return self.tools[name]

    def judge(self, conditions: list[Condition], state: SimState) -> Verdict:
        """The evaluator's verdict on ``conditions`` (all must hold) over the task's instances."""
        goal = self.task.goal
        tree = Goal(roles=goal.roles, absent=goal.absent, places=goal.places, condition=AllOf(all_of=conditions))
        return evaluate(tree, state, self.scene, initial=self.initial)


def failed_items(verdict: Verdict) -> list[str]:
    """The measured reasons of every failing item of a verdict (a SkillFailure's detail)."""
    return [f"{c.predicate} {i.item}: {i.reason}" for c in verdict.conditions for i in c.items if not i.ok]


class Skill(ABC):
    """One verb on one object or part. Subclasses set ``name`` and implement :meth:`body`."""

    name: ClassVar[str]

    @property
    def timeout_s(self) -> float:
        """Sim seconds before the runner fails it with ``Reason.TIMEOUT``: as set on the skill, else
        ``skills.base.timeout_s``."""
        return self.__dict__.get("_timeout_s", tuning().base.timeout_s)

    @timeout_s.setter
    def timeout_s(self, seconds: float) -> None:
        self.__dict__["_timeout_s"] = seconds

    def target(self) -> str:
        """What the skill acts on, for the event log."""
        return ""

    def look_at(self) -> str | None:
        """The name of what the head camera should see now (an object, a surface, a part), or None to leave
        the head as it is (:func:`housebench.skills.look.where` finds its point)."""
        return None

    def preconditions(self, ctx: SkillContext) -> list[Condition]:
        return []

    def postconditions(self, ctx: SkillContext) -> list[Condition]:
        return []

    @abstractmethod
    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        """Yield actions, receive observations; return the last observation. Raise :class:`SkillFailure`."""

    def fail(self, reason: Reason, **detail: Any) -> SkillFailure:
        return SkillFailure(self.name, reason, **detail)

    def run(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        """:meth:`body` between its precondition and postcondition checks."""
        self._check(ctx, obs, self.preconditions(ctx), Reason.PRECONDITION)
        obs = yield from self.body(ctx, obs)
        self._check(ctx, obs, self.postconditions(ctx), Reason.POSTCONDITION)
        return obs

    def _check(self, ctx: SkillContext, obs: Observation, conditions: list[Condition], reason: Reason) -> None:
        if conditions:
            verdict = ctx.judge(conditions, obs.state)
            if not verdict.success:
                raise self.fail(reason, failed=failed_items(verdict))


class ObjectSkill(Skill):
    """A skill on one object: ``obj``, its target in the event log."""

    def __init__(self, obj: str) -> None:
        self.obj = obj

    def target(self) -> str:
        return self.obj

    def look_at(self) -> str | None:
        return self.obj


class PartSkill(Skill):
    """A skill on one articulated part of the house: ``part``, its target in the event log."""

    def __init__(self, part: str) -> None:
        self.part = part

    def target(self) -> str:
        return self.part

    def look_at(self) -> str | None:
        return self.part  # its handle
