"""Faults (issue 32): a worker killed mid-episode costs a retry on another worker, not the batch; killed again, the
episode is a crash row that says so. Locally (spawned workers) and on Ray (tasks Ray retries)."""

from __future__ import annotations

import dataclasses
import os
import signal
from pathlib import Path

import pytest

from housebench.policy.base import PolicyParams
from housebench.rollout.batch import run_batch
from tests.conftest import ROOT, built_job


class KillParams(PolicyParams):
    marks: str  # a folder: one file per attempt that killed its worker
    times: int  # attempts to kill, then act like noop


class KillerPolicy:
    """Kills the process it runs in at its first action (mid-episode: the scene is loaded and stepping), the first
    ``times`` attempts; later attempts idle to the horizon."""

    name = "killer"
    Params = KillParams
    tracks = ("state", "vision")

    def __init__(self, params: KillParams) -> None:
        self.params = params

    def reset(self, ctx, obs) -> None:
        pass

    def act(self, obs):
        marks = Path(self.params.marks)
        if len(list(marks.iterdir())) < self.params.times:
            (marks / str(os.getpid())).touch()
            os.kill(os.getpid(), signal.SIGKILL)
        return None


def killer_jobs(tmp_path: Path) -> tuple[list, list[Path]]:
    """A job whose worker is killed once, one killed every time, and a plain noop episode."""
    base = built_job("put_fruit_in_container", "v000", "noop", horizon_s=0.5)
    jobs, marks = [], []
    for seed, times in ((0, 1), (1, 99)):
        marks.append(tmp_path / f"marks{seed}")
        marks[-1].mkdir()
        entry = {"class": "tests.rollout.test_faults:KillerPolicy", "marks": str(marks[-1]), "times": times}
        jobs.append(dataclasses.replace(base, seed=seed, policy="killer", policy_entry=entry))
    return [*jobs, dataclasses.replace(base, seed=2)], marks


def check_outcomes(outcomes, marks: list[Path], lost: str) -> None:
    once, always, plain = outcomes
    assert once.crash is None and once.verdict is not None  # retried on another worker, and finished
    assert len(list(marks[0].iterdir())) == 1
    assert always.verdict is None and lost in always.crash, always.crash  # killed twice: a crash row saying so
    assert len(list(marks[1].iterdir())) == 2  # the first run and one retry, no more
    assert [kind for _, kind, _ in always.events] == ["episode_start", "crash", "episode_end"]
    assert plain.crash is None and plain.verdict is not None


def test_a_local_worker_killed_mid_episode_is_retried_then_a_crash_row(tmp_path):
    jobs, marks = killer_jobs(tmp_path)
    outcomes = run_batch(jobs, "local", workers=2, progress=False)
    check_outcomes(outcomes, marks, "died (killed by SIGKILL) running the episode, 2 times")


@pytest.mark.slow
def test_a_ray_worker_killed_mid_episode_is_retried_then_a_crash_row(tmp_path, monkeypatch):
    ray = pytest.importorskip("ray")
    monkeypatch.setenv("RAY_DISABLE_USAGE_STATS", "1")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))  # its workers
    jobs, marks = killer_jobs(tmp_path)
    try:
        outcomes = run_batch(jobs, "ray", workers=2, progress=False)
    finally:
        ray.shutdown()
    check_outcomes(outcomes, marks, "WorkerCrashedError")
