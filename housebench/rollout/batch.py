"""Run many episodes over an executor: local processes by default, a Ray cluster for scale-out."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterator, Sequence

from tqdm import tqdm

from housebench.procs import die_with_parent
from housebench.rollout.episode import EpisodeJob, EpisodeOutcome, run_episode

EXECUTORS = ("local", "ray")


def run_batch(
    jobs: Sequence[EpisodeJob], executor: str = "local", workers: int | None = None, progress: bool = True
) -> list[EpisodeOutcome]:
    """Every job's outcome, in job order. ``workers`` defaults to the number of cores."""
    workers = workers or os.cpu_count() or 1
    results = _imap(jobs, executor, min(workers, max(1, len(jobs))))
    return list(tqdm(results, total=len(jobs), desc="episodes", unit="ep", disable=not progress))


def _imap(jobs: Sequence[EpisodeJob], executor: str, workers: int) -> Iterator[EpisodeOutcome]:
    if executor == "local" and workers == 1:
        yield from map(run_episode, jobs)
        return
    if executor == "local":
        # spawn: a fresh interpreter per worker, never a forked copy of a live GL or simulator context
        pool = multiprocessing.get_context("spawn").Pool(workers, initializer=die_with_parent, initargs=(os.getpid(),))
    elif executor == "ray":
        from ray.util.multiprocessing import Pool  # the optional extra: pip install housebench[ray]

        pool = Pool(workers)  # joins the cluster at RAY_ADDRESS, or starts a local one
    else:
        raise ValueError(f"rollout.executor: unknown '{executor}' (known: {', '.join(EXECUTORS)})")
    with pool:
        yield from pool.imap(run_episode, jobs)  # imap keeps job order
