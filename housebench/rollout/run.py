"""A rollout run: plan the episodes, run them over the executor, write the run's Parquet partition."""

from __future__ import annotations

from pathlib import Path

from housebench.paths import Layout
from housebench.results.writer import event_rows, verdict_rows, write_run
from housebench.rollout.batch import run_batch
from housebench.rollout.episode import EpisodeOutcome
from housebench.rollout.plan import RolloutParams, plan_jobs


def run_rollouts(
    run: str, params: RolloutParams, layout: Layout, results_dir: Path, progress: bool = True
) -> list[EpisodeOutcome]:
    """Run every planned episode of ``layout`` and write ``results/<table>/run=<run>/``."""
    jobs = plan_jobs(run, params, layout)
    if not jobs:
        raise ValueError(f"{layout.at(layout.settled_dir)}: no settled task scenes to roll out")
    outcomes = run_batch(jobs, params.executor, params.workers or None, progress=progress)
    write_run(results_dir, run, records(outcomes))
    return outcomes


def records(outcomes: list[EpisodeOutcome]) -> dict[str, list[dict]]:
    """The rows of the results tables for these outcomes."""
    tables: dict[str, list[dict]] = {"episodes": [], "conditions": [], "events": [], "choices": []}
    variants = {}
    for out in outcomes:
        job = out.job
        meta = {
            "run": job.run,
            "task": job.task,
            "variant": job.variant,
            "seed": job.seed,
            "policy": job.policy,
            "backend": job.backend,
            "backend_version": out.backend_version,
            "host": out.host,
            "started_at": out.started_at,
            "wall_s": out.wall_s,
            "sim_s": out.sim_s,
            "steps": out.steps,
            **job.provenance,
        }
        episode, conditions = verdict_rows(meta, out.verdict, out.crash)
        tables["episodes"].append(episode)
        tables["conditions"].extend(conditions)
        tables["events"].extend(event_rows(episode, out.events))
        variants[(job.task, job.variant)] = (job.run, job.choices)
    tables["choices"] = [
        {"run": run, "task": task, "variant": variant, "choice": key, "value": value}
        for (task, variant), (run, choices) in sorted(variants.items())
        for key, value in sorted(choices.items())
    ]
    return tables
