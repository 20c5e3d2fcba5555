"""Run many episodes over an executor: local processes by default, Ray (this machine, or a cluster whose nodes get
the code and files through Ray: :mod:`housebench.rollout.cluster`) for scale-out.

Either way a lost worker costs one retry, not the batch: a local worker killed mid-episode
(:mod:`housebench.rollout.workers`), or a Ray worker or node lost (Ray reschedules the task elsewhere), runs the
episode once more; a second loss is that episode's crash row, with the reason.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence

from housebench.progress import Progress
from housebench.rollout.cluster import RayParams, run_ray
from housebench.rollout.episode import EpisodeJob, EpisodeOutcome, lost, run_episode
from housebench.rollout.workers import run_jobs

EXECUTORS = ("local", "ray")
OnOutcome = Callable[[EpisodeOutcome], None]


def run_batch(
    jobs: Sequence[EpisodeJob],
    executor: str = "local",
    workers: int | None = None,
    progress: bool = True,
    on_outcome: OnOutcome | None = None,
    cached: int = 0,
    ray: RayParams | None = None,
) -> list[EpisodeOutcome]:
    """Every job's outcome, in job order. ``workers`` defaults to the number of cores (on Ray: the cluster's CPUs);
    ``on_outcome`` sees each outcome as soon as its episode ends (in any order: the episode cache keeps it before the
    batch is over); ``ray`` is ``rollout.ray`` (where Ray runs, whether code and files are shipped). ``progress``
    shows the rollout's progress bar (:mod:`housebench.progress`), which counts ``cached`` episodes of the same run
    (taken from the episode cache) as done."""
    if executor not in EXECUTORS:
        raise ValueError(f"rollout.executor: unknown '{executor}' (known: {', '.join(EXECUTORS)})")
    outcomes: list[EpisodeOutcome | None] = [None] * len(jobs)
    with Progress("rollout", len(jobs) + cached, "episode", done=cached, display=progress) as bar:
        for index, outcome in _unordered(jobs, executor, workers, ray):
            outcomes[index] = outcome
            if on_outcome is not None:
                on_outcome(outcome)
            bar.update()
    return outcomes  # type: ignore[return-value]  (every index was filled)


def _unordered(
    jobs: Sequence[EpisodeJob], executor: str, workers: int | None, ray: RayParams | None
) -> Iterator[tuple[int, EpisodeOutcome]]:
    if executor == "ray":
        yield from run_ray(jobs, workers and min(workers, max(1, len(jobs))), ray)
        return
    workers = min(workers or os.cpu_count() or 1, max(1, len(jobs)))
    if workers == 1:
        yield from enumerate(map(run_episode, jobs))  # in this process: nothing to spawn for one at a time
    else:
        yield from run_jobs(jobs, run_episode, workers, lost)
