"""The skills' tuning numbers as typed config: one frozen, strict model per skill family, defaults in code.

Every number a skill is tuned by (a height, a margin, a speed, a list of distances tried, a time budget) is a
documented field of its family's model (``moving.py``: every skill's time budget, driving, the arm's motions,
tuck and reset, contact, doors; ``taking.py``: pick, grasps, place, the hand, press, knob, the appliance front;
``level.py``: flat items at an edge, side grasps; ``brains.py``: the numbers the script, the appliance flow, the
runtime's executors and the planner decide by); what stays inline in ``skills/`` is trivially geometric (0, 1, 2,
halves), an index, or listed with its reason in ``tests/skills/literals_allowed.txt`` (robot facts such as the
gripper's dimensions, numerical epsilons, a cache's size), which ``tests/skills/test_literals.py`` checks.

An episode runs under one :class:`SkillTuning`: ``params.yaml``'s ``skills:`` section holds only what differs from
the defaults (strict: an unknown key is a one-line error naming it; a key left out keeps its default), the rollout
passes it down with each job (``EpisodeJob.skills``), the episode's events echo it (its ``episode_start`` event's
``skills``: the whole tuning's hash and the overrides) and the episode cache keys on it. A skill reads the tuning of
the episode it runs in with :func:`tuning`; the episode loop sets it for the whole episode with :func:`using` (a
context variable: the policy's own calls into ``skills/`` see it too, and nothing outlives the episode); the
verification stage runs its scenarios under it too. Elsewhere (tests, the demos stage's jobs, component starts
outside a rollout) the defaults hold.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from housebench.params import PARAMS, Section, load_section, sections
from housebench.skills.tuning.brains import ApplianceTuning, PlannerTuning, RuntimeTuning, ScriptTuning
from housebench.skills.tuning.level import EdgeTuning, SideTuning
from housebench.skills.tuning.moving import (
    ArticulateTuning,
    BaseTuning,
    BodyTuning,
    ContactTuning,
    MotionTuning,
    NavigateTuning,
)
from housebench.skills.tuning.taking import (
    FrontTuning,
    GraspTuning,
    HandTuning,
    KnobTuning,
    PickTuning,
    PlaceTuning,
    PressTuning,
)

SECTION = "skills"


class SkillTuning(Section):
    """``skills:`` of params.yaml: every skill family's tuning (only what differs from the defaults is written)."""

    base: BaseTuning = BaseTuning()
    navigate: NavigateTuning = NavigateTuning()
    pick: PickTuning = PickTuning()
    place: PlaceTuning = PlaceTuning()
    press: PressTuning = PressTuning()
    knob: KnobTuning = KnobTuning()
    front: FrontTuning = FrontTuning()
    body: BodyTuning = BodyTuning()
    contact: ContactTuning = ContactTuning()
    motion: MotionTuning = MotionTuning()
    grasp: GraspTuning = GraspTuning()
    hand: HandTuning = HandTuning()
    articulate: ArticulateTuning = ArticulateTuning()
    edge: EdgeTuning = EdgeTuning()
    side: SideTuning = SideTuning()
    script: ScriptTuning = ScriptTuning()
    appliance: ApplianceTuning = ApplianceTuning()
    runtime: RuntimeTuning = RuntimeTuning()
    planner: PlannerTuning = PlannerTuning()


DEFAULT = SkillTuning()
_ACTIVE: ContextVar[SkillTuning] = ContextVar("skill_tuning", default=DEFAULT)


def tuning() -> SkillTuning:
    """The tuning of the episode running now (the defaults outside one)."""
    return _ACTIVE.get()


@contextmanager
def using(config: SkillTuning) -> Iterator[SkillTuning]:
    """Run the enclosed code (an episode) under ``config``; the previous tuning is back afterwards."""
    token = _ACTIVE.set(config)
    try:
        yield config
    finally:
        _ACTIVE.reset(token)


def overrides(config: SkillTuning) -> dict[str, Any]:
    """What ``config`` sets apart from the defaults, as plain JSON (nested by family)."""
    return config.model_dump(mode="json", exclude_defaults=True)


def config_hash(config: SkillTuning) -> str:
    """A short content hash of the whole tuning (defaults included): two episodes with equal hashes ran equal
    tuning."""
    text = json.dumps(config.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def from_overrides(data: dict[str, Any] | None) -> SkillTuning:
    """The tuning that ``data`` (a ``skills:`` mapping: overrides only) describes; strict (ValueError)."""
    return SkillTuning.model_validate(data or {})


def load_tuning(path: Path = PARAMS) -> dict[str, Any]:
    """``skills:`` of ``path`` validated (strict: an unknown key is a one-line error naming it; a key left out keeps
    its default; no section at all: the defaults), as the plain overrides an episode job carries."""
    if SECTION not in sections(path):
        return {}
    return overrides(load_section(SECTION, SkillTuning, path, complete=False))
