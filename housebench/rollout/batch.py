"""Run many episodes over an executor: local processes by default, a Ray cluster for scale-out.

Either way a lost worker costs one retry, not the batch: a local worker killed mid-episode
(:mod:`housebench.rollout.workers`), or a Ray worker or node lost (Ray reschedules the task elsewhere), runs the
episode once more; a second loss is that episode's crash row, with the reason.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence

from housebench.progress import Progress
from housebench.rollout.episode import EpisodeJob, EpisodeOutcome, lost, run_episode
from housebench.rollout.workers import ATTEMPTS, run_jobs

EXECUTORS = ("local", "ray")
OnOutcome = Callable[[EpisodeOutcome], None]


def run_batch(
    jobs: Sequence[EpisodeJob],
    executor: str = "local",
    workers: int | None = None,
    progress: bool = True,
    on_outcome: OnOutcome | None = None,
    cached: int = 0,
) -> list[EpisodeOutcome]:
    """Every job's outcome, in job order. ``workers`` defaults to the number of cores; ``on_outcome`` sees each
    outcome as soon as its episode ends (in any order: the episode cache keeps it before the batch is over).
    ``progress`` shows the rollout's progress bar (:mod:`housebench.progress`), which counts ``cached`` episodes
    of the same run (taken from the episode cache) as done."""
    if executor not in EXECUTORS:
        raise ValueError(f"rollout.executor: unknown '{executor}' (known: {', '.join(EXECUTORS)})")
    workers = min(workers or os.cpu_count() or 1, max(1, len(jobs)))
    outcomes: list[EpisodeOutcome | None] = [None] * len(jobs)
    with Progress("rollout", len(jobs) + cached, "episode", done=cached, display=progress) as bar:
        for index, outcome in _unordered(jobs, executor, workers):
            outcomes[index] = outcome
            if on_outcome is not None:
                on_outcome(outcome)
            bar.update()
    return outcomes  # type: ignore[return-value]  (every index was filled)


def _unordered(jobs: Sequence[EpisodeJob], executor: str, workers: int) -> Iterator[tuple[int, EpisodeOutcome]]:
    if executor == "local" and workers == 1:
        yield from enumerate(map(run_episode, jobs))  # in this process: nothing to spawn for one at a time
    elif executor == "local":
        yield from run_jobs(jobs, run_episode, workers, lost)
    else:
        yield from _ray(jobs, workers)


def _ray(jobs: Sequence[EpisodeJob], workers: int) -> Iterator[tuple[int, EpisodeOutcome]]:
    """Ray tasks, at most ``workers`` at once. Ray itself retries a task whose worker process or node died
    (``max_retries``: one retry, as locally); an episode's own exception never reaches Ray (it is a crash row)."""
    import ray  # the optional extra: pip install housebench[ray]

    if not ray.is_initialized():
        ray.init()  # joins the cluster at RAY_ADDRESS, or starts a local one
    remote = ray.remote(max_retries=ATTEMPTS - 1, retry_exceptions=False)(run_episode)
    todo, running = list(range(len(jobs)))[::-1], {}
    try:
        while todo or running:
            while todo and len(running) < workers:
                index = todo.pop()
                running[remote.remote(jobs[index])] = index
            done, _ = ray.wait(list(running), num_returns=1)
            index = running.pop(done[0])
            try:
                outcome = ray.get(done[0])
            except ray.exceptions.RayError as err:  # lost twice (worker crashed, node died): its crash row
                outcome = lost(jobs[index], f"{type(err).__name__}: {str(err).splitlines()[0]}")
            yield index, outcome
    finally:
        for ref in running:  # an interrupted batch leaves no episode running on the cluster
            ray.cancel(ref, force=True)
