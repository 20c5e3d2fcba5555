"""The skills' tuning numbers as typed config: one frozen, strict model per skill family, defaults in code.

Every number a skill is tuned by (a height, a margin, a speed, a list of distances tried, a time budget) is a
documented field of its family's model below; what stays inline in ``skills/`` is trivially geometric (0, 1,
halves) or listed by ``tests/skills/test_literals.py``'s allow-list (the families not converted yet).

An episode runs under one :class:`SkillTuning`: ``params.yaml``'s ``skills:`` section holds only what differs from
the defaults (strict: an unknown key is a one-line error naming it; a key left out keeps its default), the rollout
passes it down with each job (``EpisodeJob.skills``), the episode's events echo it (``skills_config``: its hash and
the overrides) and the episode cache keys on it. A skill reads the tuning of the episode it runs in with
:func:`tuning`; the episode loop sets it for the whole episode with :func:`using` (a context variable: the policy's
own calls into ``skills/`` see it too, and nothing outlives the episode). Outside an episode (tests, the
verification stage, component starts) the defaults hold.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from pydantic import Field

from housebench.params import PARAMS, Section, load_section, sections

SECTION = "skills"


class NavigateTuning(Section):
    """``skills.navigate``: driving the base (``skills/navigate.py``)."""

    timeout_s: float = Field(90.0, gt=0)  # sim seconds a navigate may take before it fails ``timeout``, s
    open_part: float = Field(0.05, ge=0)  # a door or drawer further than this from closed is an obstacle, rad or m
    arm_top_m: float = Field(1.6, gt=0)  # top of the band kept clear for the carry arm (its wrist ~1.45 m up), m
    at_goal_m: float = Field(0.02, ge=0)  # a start this near the goal drives straight there (no path search), m
    arrive_near_m: float = Field(0.05, ge=0)  # ``arrive`` this near its pose: one plain navigate, no turn-last leg, m


class SkillTuning(Section):
    """``skills:`` of params.yaml: every skill family's tuning (only what differs from the defaults is written)."""

    navigate: NavigateTuning = NavigateTuning()


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
