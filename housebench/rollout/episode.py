"""One episode of a policy as a job: plain data in (:class:`EpisodeJob`), the loop of
:class:`housebench.rollout.env.Episode`, the verdict and events out (:class:`EpisodeOutcome`)."""

from __future__ import annotations

import socket
import time
import traceback
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from housebench.policy.base import PolicyContext
from housebench.policy.registry import make_policy
from housebench.rollout.env import Episode, Event
from housebench.state import SimState
from housebench.tasks.verdict import Verdict


@dataclass(frozen=True)
class EpisodeJob:
    """Everything one episode needs; plain data, so it crosses process (and Ray) boundaries."""

    run: str
    task: str
    variant: str
    seed: int
    policy: str
    backend: str
    scene: Path  # settled scene.usda
    task_file: Path  # task.json of the variant
    annotations: Path  # scene annotations json
    horizon_s: float  # the task's own horizon, or the rollout's default
    control_dt: float
    pose_noise_m: float
    policy_params: dict = field(default_factory=dict)  # policies.<policy> of params.yaml
    provenance: dict = field(default_factory=dict)  # code_commit, scene_hash, assets_hash
    choices: dict = field(default_factory=dict)  # the variant's sampled choices, for the report

    def open(self) -> Episode:
        """The episode this job describes, loaded (not yet reset)."""
        return Episode(
            self.scene,
            self.task_file,
            self.annotations,
            backend=self.backend,
            control_dt=self.control_dt,
            horizon_s=self.horizon_s,
            pose_noise_m=self.pose_noise_m,
        )


@dataclass
class EpisodeOutcome:
    """What the rollout writes: the verdict (None on a crash), the episode's events and its initial
    and final states."""

    job: EpisodeJob
    started_at: datetime
    wall_s: float
    sim_s: float
    steps: int
    verdict: Verdict | None
    crash: str | None
    host: str
    backend_version: str
    events: list[Event]
    initial: SimState | None = None  # after the seed's pose noise
    final: SimState | None = None  # the state the verdict judged (the last one reached, on a crash)


def run_episode(job: EpisodeJob) -> EpisodeOutcome:
    """Run one episode of ``job.policy``; any exception becomes a ``crash`` outcome instead of taking the
    batch down. The policy's own events land between ``episode_start`` and ``episode_end``."""
    started_at = datetime.now(UTC)
    clock = time.perf_counter()
    episode, verdict, crash, version = None, None, None, ""
    early: list[Event] = [(0.0, "episode_start", {"seed": job.seed, "policy": job.policy})]
    try:
        policy = make_policy(job.policy, job.policy_params)
        episode = job.open()
        version = episode.backend.version
        obs = episode.reset(job.seed)
        policy.reset(PolicyContext(episode.task, episode.scene, job.control_dt, episode.horizon_s, episode.log), obs)
        while not episode.done:
            obs = episode.step(policy.act(obs))
        verdict = episode.verdict()
    except Exception as err:  # noqa: BLE001 - a crashed episode is a result, not an abort
        crash = f"{type(err).__name__}: {err}"
        t_sim = episode.time if episode else 0.0
        (episode.events if episode else early).append(
            (t_sim, "crash", {"error": crash, "trace": traceback.format_exc(limit=3)})
        )
    sim_s = episode.time if episode else 0.0
    events = early + (episode.events if episode else [])
    events.append((sim_s, "episode_end", {"success": bool(verdict and verdict.success)}))
    return EpisodeOutcome(
        job=job,
        started_at=started_at,
        wall_s=time.perf_counter() - clock,
        sim_s=sim_s,
        steps=episode.steps if episode else 0,
        verdict=verdict,
        crash=crash,
        host=socket.gethostname(),
        backend_version=version,
        events=events,
        initial=episode.initial if episode else None,
        final=episode.state() if episode else None,
    )
