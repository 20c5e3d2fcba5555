"""The rows of the results tables, built from episode outcomes: episode and condition rows from the
evaluator's verdict, event rows, phase rows, and the sampled choices of each variant rolled out."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from housebench.io import dumps_json
from housebench.results.schema import ROLLOUT_TABLES
from housebench.rollout.episode import EpisodeOutcome
from housebench.rollout.phases import PhaseRecord
from housebench.state import SimState
from housebench.tasks.verdict import Verdict


def records(outcomes: list[EpisodeOutcome]) -> dict[str, list[dict]]:
    """The rows of the results tables for these outcomes."""
    tables: dict[str, list[dict]] = {name: [] for name in ROLLOUT_TABLES}
    variants = {}
    for out in outcomes:
        job = out.job
        meta = {
            "run": job.run,
            "task": job.task,
            "variant": job.variant,
            "house": job.house,
            "seed": job.seed,
            "policy": job.policy,
            "policy_class": out.policy_class,
            "policy_version": out.policy_version,
            "track": job.track,
            "split": job.split,
            "backend": job.backend,
            "backend_version": out.backend_version,
            "host": out.host,
            "started_at": out.started_at,
            "wall_s": out.wall_s,
            "sim_s": out.sim_s,
            "steps": out.steps,
            "horizon_s": job.horizon_s,
            **job.provenance,
        }
        episode, conditions = verdict_rows(meta, out.verdict, out.crash)
        tables["episodes"].append(episode)
        tables["conditions"].extend(conditions)
        tables["events"].extend(event_rows(episode, out.events))
        tables["states"].append(state_row(episode, out.initial, out.final))
        tables["phases"].extend(phase_rows(episode, out.phases))
        variants[(job.task, job.variant)] = (job.run, job.choices)
    tables["choices"] = [
        {"run": run, "task": task, "variant": variant, "choice": key, "value": value}
        for (task, variant), (run, choices) in sorted(variants.items())
        for key, value in sorted(choices.items())
    ]
    return tables


def episode_id(task: str, variant: str, seed: int, policy: str) -> str:
    """The deterministic episode key within a run: ``<task>/<variant>/<seed>/<policy>``."""
    return f"{task}/{variant}/{seed}/{policy}"


def verdict_rows(
    meta: dict[str, Any], verdict: Verdict | None, crash_reason: str | None = None
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The episode row and its condition rows from the evaluator's ``verdict``.

    ``meta`` holds the episode's provenance columns (run, task, variant, house, seed, policy, policy_class,
    policy_version, track, split, backend, backend_version, code_commit, scene_hash, assets_hash, host,
    started_at, wall_s, sim_s, steps, horizon_s).
    A crashed episode has no verdict: pass ``verdict=None`` and ``crash_reason``.
    """
    if (verdict is None) == (crash_reason is None):
        raise ValueError("verdict_rows: pass exactly one of verdict or crash_reason")
    key = {"episode_id": episode_id(meta["task"], meta["variant"], meta["seed"], meta["policy"])}
    if verdict is None:
        outcome = {
            "status": "crash",
            "failure_reason": crash_reason,
            "success": False,
            "progress": 0.0,
            "n_conditions": 0,
            "n_conditions_ok": 0,
        }
        return key | meta | outcome, []
    outcome = {
        "status": "success" if verdict.success else "fail",
        "failure_reason": None if verdict.success else _reason(verdict),
        "success": verdict.success,
        "progress": verdict.progress,
        "n_conditions": len(verdict.conditions),
        "n_conditions_ok": sum(c.ok for c in verdict.conditions),
    }
    base = key | {name: meta[name] for name in ("run", "task", "variant", "seed", "policy")}
    conditions = [
        base
        | {"condition_index": c.index, "path": c.path, "predicate": c.predicate}
        | {"item": i.item, "ok": i.ok, "reason": i.reason}
        for c in verdict.conditions
        for i in c.items
    ]
    return key | meta | outcome, conditions


def _reason(verdict: Verdict) -> str:
    """The first failing item, e.g. ``inside(apple): 0.12 m outside bowl``."""
    for condition in verdict.conditions:
        for item in condition.items:
            if not item.ok:
                return f"{condition.predicate}({item.item}): {item.reason}"
    return "goal not met"


def state_row(episode: dict[str, Any], initial: SimState | None, final: SimState | None) -> dict[str, Any]:
    """The ``states`` row of ``episode`` (its row): both states as canonical JSON (None when missing)."""
    return {
        "episode_id": episode["episode_id"],
        "run": episode["run"],
        **{
            k: None if v is None else dumps_json(v.model_dump(mode="json"))
            for k, v in (("initial", initial), ("final", final))
        },
    }


def event_rows(episode: dict[str, Any], events: Iterable[tuple[float, str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """Event rows of ``episode`` (its row) from ``(t_sim, kind, detail)`` in order of occurrence."""
    return [
        {
            "episode_id": episode["episode_id"],
            "run": episode["run"],
            "seq": seq,
            "t_sim": float(t_sim),
            "kind": kind,
            "detail": json.dumps(detail, sort_keys=True, separators=(",", ":")),
        }
        for seq, (t_sim, kind, detail) in enumerate(events)
    ]


def phase_rows(episode: dict[str, Any], phases: list[PhaseRecord]) -> list[dict[str, Any]]:
    """The ``phases`` rows of ``episode`` (its episodes row) from its phase records."""
    return [
        {
            "episode_id": episode["episode_id"],
            "run": episode["run"],
            "phase": r.index,
            "verb": r.verb,
            "targets": ",".join(r.targets),
            "reached": r.reached,
            "implied": r.implied,
            "t_reached": r.t_reached,
            "time_s": r.time_s,
        }
        for r in phases
    ]
