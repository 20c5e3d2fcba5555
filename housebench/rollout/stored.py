"""An episode's outcome as JSON and back, exactly: what the episode cache keeps of a finished episode.

Only what the episode produced is kept (verdict, events, states, phases, steps, times, host, versions); the job
is not, so a cached outcome is joined to the job that asks for it now and its rows carry this run's name, split,
choices and provenance. JSON floats round-trip exactly (shortest repr), so the rows of a stored outcome are the
rows of the fresh one, bit for bit.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import Any

from housebench.rollout.episode import EpisodeJob, EpisodeOutcome
from housebench.rollout.phases import PhaseRecord
from housebench.state import SimState
from housebench.tasks.verdict import Verdict

VERSION = 1  # of the stored form; another version is a miss (run again), never misread


def dump_outcome(outcome: EpisodeOutcome) -> dict[str, Any]:
    """The JSON-ready form of a finished (not crashed) ``outcome``, without its job."""
    if outcome.verdict is None:
        raise ValueError("dump_outcome: a crashed episode is never stored")
    return {
        "version": VERSION,
        "started_at": outcome.started_at.isoformat(),
        "wall_s": outcome.wall_s,
        "sim_s": outcome.sim_s,
        "steps": outcome.steps,
        "verdict": outcome.verdict.model_dump(mode="json"),
        "host": outcome.host,
        "backend_version": outcome.backend_version,
        "events": [[t_sim, kind, detail] for t_sim, kind, detail in outcome.events],
        "initial": _state(outcome.initial),
        "final": _state(outcome.final),
        "policy_class": outcome.policy_class,
        "policy_version": outcome.policy_version,
        "phases": [dataclasses.asdict(p) for p in outcome.phases],
    }


def load_outcome(data: dict[str, Any], job: EpisodeJob) -> EpisodeOutcome:
    """The outcome :func:`dump_outcome` stored, joined to ``job``; a malformed entry raises ValueError."""
    if not isinstance(data, dict) or data.get("version") != VERSION:
        raise ValueError(f"not a stored outcome of version {VERSION}")
    try:
        return EpisodeOutcome(
            job=job,
            started_at=datetime.fromisoformat(data["started_at"]),
            wall_s=float(data["wall_s"]),
            sim_s=float(data["sim_s"]),
            steps=int(data["steps"]),
            verdict=Verdict.model_validate(data["verdict"]),
            crash=None,
            host=str(data["host"]),
            backend_version=str(data["backend_version"]),
            events=[(float(t), str(kind), dict(detail)) for t, kind, detail in data["events"]],
            initial=None if data["initial"] is None else SimState.model_validate(data["initial"]),
            final=None if data["final"] is None else SimState.model_validate(data["final"]),
            policy_class=str(data["policy_class"]),
            policy_version=str(data["policy_version"]),
            phases=[PhaseRecord(**{**p, "targets": tuple(p["targets"])}) for p in data["phases"]],
            cached=True,
        )
    except (KeyError, TypeError, ValueError) as err:  # pydantic's ValidationError is a ValueError
        raise ValueError(f"malformed stored outcome: {type(err).__name__}: {err}") from None


def _state(state: SimState | None) -> dict[str, Any] | None:
    return None if state is None else state.model_dump(mode="json")
