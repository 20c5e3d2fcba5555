"""Phases of an episode, judged on the ground truth whatever the policy: where an episode got to.

A task variant's phases are the symbolic planner's chain of skill calls for its goal (navigate -> pick -> navigate
-> place ...), each phase one call: its verb, its targets and its contract's postconditions as goal conditions
(:mod:`housebench.skill_library.contracts`). The planner works on the annotated poses, so the phases are the same
for every seed and every policy. A variant the planner does not decompose has one phase, ``goal``: the goal itself.

:class:`PhaseMonitor` walks an episode's full state (never what the policy was shown, so a vision-track policy or
an outside policy that logs nothing gets phases too). A policy need not keep the plan's order across objects (the
milk before the oatmeal, or after), so phases form *strands*: a phase's strand is what it acts on first (the object
of a pick or place, the door of an open or close; a navigate belongs to the phase after it). A phase may be reached
once every earlier phase of its strand is, and is reached at the first judgement its postconditions hold. A navigate
never holds its strand up: when the phase after it is reached first (the next skill's own reach may exceed
navigate's 1 m), the navigate counts as reached, *implied*. Since the planner only plans calls that change
something, no phase other than a navigate holds at the start. The state is judged every ``every`` control steps
(so times are that coarse) and once more at the end.

Time in a phase: the reached phases in time order split the episode; each gets the time since the reach before it
(phases reached at one judgement: the first not implied gets it, the rest 0). The first phase not reached gets the
time from the last reach to the end (where the episode was stuck); every other phase 0.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path
from typing import Any

from housebench.annotations.schema import SceneAnnotations
from housebench.skill_library.contracts import ContractError
from housebench.skill_library.planner import PlanError, Problem, world_of
from housebench.state import Action, Observation, SimState
from housebench.tasks.evaluator import GoalError, evaluate
from housebench.tasks.goal import AllOf, Goal, Node, leaves
from housebench.tasks.spec import TaskVariant

GOAL = "goal"  # the one phase of a variant the planner does not decompose
NAVIGATE = "navigate"  # the phase a later one of its strand implies (see the module doc)
EVERY = 5  # control steps between judgements (0.5 s at the rollout's 0.1 s control period)


@dataclass(frozen=True)
class Phase:
    """One phase: the skill call's verb, what it acts on and the goal its postconditions make."""

    index: int
    verb: str
    targets: tuple[str, ...]
    goal: Goal  # the postconditions, judged by the task's evaluator

    def holds(self, state: SimState, scene: SceneAnnotations, initial: SimState | None) -> bool:
        return evaluate(self.goal, state, scene, initial).success


@dataclass
class PhaseRecord:
    """How far an episode got in one phase; times are simulated seconds (None: never happened)."""

    index: int
    verb: str
    targets: tuple[str, ...]
    reached: bool = False
    implied: bool = False  # a navigate reached because a later phase of its strand was
    t_reached: float | None = None
    time_s: float = 0.0  # simulated seconds spent in it (see the module doc); set by ``finish``


def _targets(args: dict[str, Any]) -> tuple[str, ...]:
    """The names a call acts on (objects, supports, parts, appliances), not its numbers."""
    return tuple(v for v in args.values() if isinstance(v, str))


def plan_phases(task: TaskVariant, scene: SceneAnnotations, max_expansions: int = 20000) -> list[Phase]:
    """The variant's phases: one per skill call of the planner's chain on the annotated poses, or the one
    phase ``goal`` when the planner finds no chain."""
    world = world_of(task, scene)
    try:
        problem = Problem(task, world)
        ops = problem.solve(max_expansions)
    except (PlanError, ContractError, GoalError):  # no chain, or a goal the planner cannot ground here
        ops = []
    if not ops:  # nor when the goal holds at the annotated poses already (an empty chain)
        items = tuple(dict.fromkeys(i for _, c in leaves(task.goal.condition) for i in getattr(c, "items", [])))
        return [Phase(0, GOAL, items, task.goal)]
    phases = []
    for i, op in enumerate(ops):
        places = {**world.places, **op.contract.places}
        post: list[Node] = list(op.contract.post)
        goal = Goal(roles=world.roles, places=places, condition=AllOf(all_of=post))
        phases.append(Phase(i, op.verb, _targets(dict(op.args)), goal))
    return phases


def strands(phases: list[Phase]) -> list[str]:
    """Each phase's strand: its first target; a navigate's is the next non-navigate phase's."""
    keys: list[str] = []
    following = ""
    for p in reversed(phases):
        if p.verb != NAVIGATE or not following:
            following = p.targets[0] if p.targets else p.verb
        keys.append(following)
    return keys[::-1]


_PLANS: dict[tuple, list[Phase]] = {}  # per process: a worker runs every seed and policy of a variant it is given
MAX_PLANS = 256


def cached_phases(task: TaskVariant, scene: SceneAnnotations, files: tuple[Path, ...]) -> list[Phase]:
    """:func:`plan_phases`, kept per process for the variant read from ``files`` (task.json, annotations) as
    they are now and for ``task`` itself (a component task is made from its base scene's files with a goal of its
    own), since planning takes up to a second and a rollout runs many episodes of each variant."""
    goal = hashlib.sha256(task.model_dump_json().encode()).hexdigest()
    key = (goal, *((str(f), f.stat().st_mtime_ns, f.stat().st_size) for f in files))
    if key not in _PLANS:
        if len(_PLANS) >= MAX_PLANS:
            _PLANS.pop(next(iter(_PLANS)))
        _PLANS[key] = plan_phases(task, scene)
    return _PLANS[key]


class PhaseMonitor:
    """The phases of one variant followed through episodes of it: ``start`` at each reset, ``observe``
    every control step (judges every ``every``-th), ``finish`` on the last state, which returns the records."""

    def __init__(self, phases: list[Phase], scene: SceneAnnotations, every: int = EVERY) -> None:
        if not phases:
            raise ValueError("PhaseMonitor: a variant has at least one phase")
        if every < 1:
            raise ValueError(f"PhaseMonitor: every must be >= 1 control step, got {every}")
        self.phases, self.scene, self.every = phases, scene, every
        self.strand = strands(phases)
        self.records: list[PhaseRecord] = []
        self.initial: SimState | None = None
        self.calls, self.t_end = 0, 0.0

    @classmethod
    def of(cls, task: TaskVariant, scene: SceneAnnotations, every: int = EVERY) -> PhaseMonitor:
        return cls(plan_phases(task, scene), scene, every)

    # ---- the episode ------------------------------------------------------------------------------
    def start(self, initial: SimState, t: float = 0.0) -> None:
        """A new episode from ``initial`` (the state after reset)."""
        self.records = [PhaseRecord(p.index, p.verb, p.targets) for p in self.phases]
        self.initial, self.calls, self.t_end = initial, 0, t
        self._judge(initial, t)

    def observe(self, state: SimState, t: float) -> None:
        """One control step's state; judged every ``every``-th call."""
        if self.initial is None:
            raise RuntimeError("PhaseMonitor.observe before start")
        self.calls += 1
        self.t_end = t
        if self.calls % self.every == 0:
            self._judge(state, t)

    def hook(self) -> Callable[[Observation, Action | None, Observation], None]:
        """A step hook for one episode of :func:`housebench.rollout.episode.play`: its first call (the reset's
        observation) starts the episode, every later one is observed."""
        started = False

        def on_step(full: Observation, action: Action | None, shown: Observation) -> None:
            nonlocal started
            if started:
                self.observe(full.state, full.time)
            else:
                self.start(full.state, full.time)
                started = True

        return on_step

    def finish(self, state: SimState, t: float) -> list[PhaseRecord]:
        """The last state judged whatever the cadence; the episode's records with their times."""
        if self.initial is None:
            raise RuntimeError("PhaseMonitor.finish before start")
        self.t_end = t
        self._judge(state, t)
        return self.stop(t)

    def stop(self, t: float) -> list[PhaseRecord]:
        """The records as they stand at ``t`` (an episode that crashed: no state to judge), with their times."""
        self._times(t)
        return self.records

    # ---- what the env shows -------------------------------------------------------------------------
    @property
    def current(self) -> int:
        """The first phase in plan order not reached (the number of phases: all reached)."""
        return next((r.index for r in self.records if not r.reached), len(self.phases))

    def info(self) -> dict[str, Any]:
        """The current phase for ``info["phase"]``: its index, verb and targets, how many phases there are and
        how many are reached (verb ``done`` once all are)."""
        count, k = len(self.phases), self.current
        reached = sum(r.reached for r in self.records)
        if k >= count:
            return {"index": count, "verb": "done", "targets": [], "count": count, "reached": reached}
        p = self.phases[k]
        return {"index": k, "verb": p.verb, "targets": list(p.targets), "count": count, "reached": reached}

    # ---- judging ------------------------------------------------------------------------------------
    def _open(self, k: int) -> bool:
        """Every earlier phase of ``k``'s strand is reached (a navigate holds nothing up)."""
        key = self.strand[k]
        return all(
            self.records[i].reached or self.phases[i].verb == NAVIGATE for i in range(k) if self.strand[i] == key
        )

    def _judge(self, state: SimState, t: float) -> None:
        """Reach every open phase that holds now, until none more does (reaching one may open the next)."""
        progressed = True
        while progressed:
            progressed = False
            for k, rec in enumerate(self.records):
                if rec.reached or not self._open(k):
                    continue
                if self.phases[k].holds(state, self.scene, self.initial):
                    rec.reached, rec.t_reached, progressed = True, t, True
                    if self.phases[k].verb != NAVIGATE:
                        self._imply(k, t)

    def _imply(self, k: int, t: float) -> None:
        """The navigates of ``k``'s strand before it that were not seen reached: reached, implied."""
        for i in range(k):
            rec = self.records[i]
            if self.strand[i] == self.strand[k] and not rec.reached:
                rec.reached, rec.implied, rec.t_reached = True, True, t

    def _times(self, t_end: float) -> None:
        """Split the episode's time over the phases (module doc)."""
        for rec in self.records:
            rec.time_s = 0.0
        last = 0.0
        reached = sorted((r for r in self.records if r.reached), key=lambda r: (r.t_reached, r.implied, r.index))
        for t, group in groupby(reached, key=lambda r: r.t_reached):
            next(group).time_s = t - last
            last = t
        stuck = next((r for r in self.records if not r.reached), None)
        if stuck is not None:
            stuck.time_s = t_end - last
