"""A rollout run: plan the episodes (every settled task variant, and every start of the run's component tasks), run
them over the executor, write the run's Parquet partition."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from housebench.components.jobs import component_jobs
from housebench.components.scenario import component
from housebench.paths import Layout
from housebench.results.writer import write_run
from housebench.rollout.cache import EpisodeCache, run_cached
from housebench.rollout.episode import EpisodeOutcome
from housebench.rollout.plan import RolloutParams, plan_jobs
from housebench.rollout.records import records
from housebench.tasks.splits import SplitParams


def run_rollouts(
    run: str,
    params: RolloutParams,
    layout: Layout,
    results_dir: Path,
    policy_entries: dict[str, dict] | None = None,
    progress: bool = True,
    splits: SplitParams | None = None,
    split: str | None = None,
    skills: dict | None = None,
) -> list[EpisodeOutcome]:
    """Run every planned episode of ``layout`` (and of ``rollout.components``) and write
    ``results/<table>/run=<run>/``;
    ``policy_entries`` is the ``policies`` section of params.yaml, ``splits`` its split rule (``split``: every
    variant's split, for a held-out run), ``skills`` the skills' tuning overrides (params.yaml's ``skills:``, as
    :func:`housebench.skills.tuning.load_tuning` reads it). Episodes in ``rollout.cache`` (run before, unchanged)
    are not run again (their outcomes say ``cached``); every episode run now is kept there as it ends."""
    jobs = plan_jobs(run, params, layout, policy_entries, splits, split)
    if params.components:
        comps = [component(name) for name in params.components]
        jobs += component_jobs(run, params, layout, comps, policy_entries, splits, split)
    if skills:
        jobs = [dataclasses.replace(job, skills=skills) for job in jobs]
    if not jobs:
        raise ValueError(f"{layout.at(layout.settled_dir)}: no settled task scenes to roll out")
    cache = EpisodeCache.from_params(params.cache, layout.root)
    outcomes = run_cached(jobs, cache, params.executor, params.workers or None, progress=progress, ray=params.ray)
    write_run(results_dir, run, records(outcomes))
    return outcomes
