"""One episode of a policy as a job: plain data in (:class:`EpisodeJob`), the loop of
:class:`housebench.rollout.env.Episode`, the verdict and events out (:class:`EpisodeOutcome`)."""

from __future__ import annotations

import socket
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from housebench.paths import GRID
from housebench.policy.base import Policy, PolicyContext
from housebench.policy.registry import REMOTE_PREFIX, PolicySpec, resolve
from housebench.rollout.env import Episode, Event
from housebench.rollout.phases import PhaseMonitor, PhaseRecord, cached_phases
from housebench.skills.tuning import config_hash, from_overrides, overrides, using
from housebench.state import Action, Observation, SimState
from housebench.tasks.verdict import Verdict

StepHook = Callable[[Observation, Action | None, Observation], None]


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
    policy_entry: dict = field(default_factory=dict)  # policies.<policy> of params.yaml (its class and params)
    provenance: dict = field(default_factory=dict)  # code_commit, scene_hash, assets_hash
    choices: dict = field(default_factory=dict)  # the variant's sampled choices, for the report
    track: str = "state"  # what the policy is shown (housebench.policy.base.TRACKS)
    split: str = ""  # train, val or test (housebench.tasks.splits)
    house: str = GRID  # the house the variant was sampled in (an id of scenes/house/houses.json)
    image_size: tuple[int, int] = (160, 120)  # the vision track's head camera, width x height
    skills: dict = field(default_factory=dict)  # params.yaml's ``skills:`` (tuning overrides; empty: the defaults)

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
            track=self.track,
            image_size=self.image_size,
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
    policy_class: str = ""  # module:Class the policy's name resolved to
    policy_version: str = ""  # version of the package that ships it
    phases: list[PhaseRecord] = field(default_factory=list)  # how far it got, judged on the ground truth
    cached: bool = False  # taken from the episode cache (run before, unchanged), not run now
    node: str = ""  # the Ray node that ran it (rollout.executor: ray); empty: this machine's processes


def start_event(job: EpisodeJob) -> Event:
    detail = {"seed": job.seed, "policy": job.policy, "track": job.track, "skills": skills_echo(job)}
    return (0.0, "episode_start", detail)


def skills_echo(job: EpisodeJob) -> dict:
    """The tuning the episode's skills run under: the whole tuning's hash and what differs from the defaults (a
    tuning that does not validate: as given, no hash; the episode then crashes on it)."""
    try:
        config = from_overrides(job.skills)
    except ValueError:
        return {"hash": "", "overrides": job.skills}
    return {"hash": config_hash(config), "overrides": overrides(config)}


def lost(job: EpisodeJob, reason: str) -> EpisodeOutcome:
    """The crash outcome of an episode whose process never answered (its worker died, its node was lost): no
    verdict, no state, the reason in its crash row and event."""
    return EpisodeOutcome(
        job=job,
        started_at=datetime.now(UTC),
        wall_s=0.0,
        sim_s=0.0,
        steps=0,
        verdict=None,
        crash=reason,
        host=socket.gethostname(),
        backend_version="",
        events=[
            start_event(job),
            (0.0, "crash", {"error": reason, "trace": ""}),
            (0.0, "episode_end", {"success": False}),
        ],
    )


def context(episode: Episode) -> PolicyContext:
    """What a policy is told at reset on the episode's track: the ground truth only on the state track."""
    state = episode.track == "state"
    return PolicyContext(
        episode.task if state else None,
        episode.scene if state else None,
        episode.control_dt,
        episode.horizon_s,
        episode.log,
        track=episode.track,
        instruction=episode.task.instruction,
    )


def play(episode: Episode, policy: Policy, seed: int, on_step: StepHook | None = None) -> Observation:
    """The one policy loop: reset ``episode`` by ``seed``, tell ``policy`` its context, step its actions until the
    episode is done; ``on_step(full, action, shown)`` sees each step's full observation before the action, the
    action and what the policy was shown. Returns the last observation the policy was shown."""
    obs = episode.reset(seed)
    policy.reset(context(episode), obs)
    while not episode.done:
        full = episode.full_observation
        action = policy.act(obs)
        if on_step is not None:
            on_step(full, action, obs)
        obs = episode.step(action)
    return obs


def served(spec: PolicySpec, policy: Policy) -> tuple[str, str]:
    """The class path and version a row records: a policy server's own (``remote:<module:Class>``, its package's
    version, as its handshake said) once it answered, else the resolved class's."""
    welcome = getattr(policy, "served", None)
    if welcome is None:
        return spec.class_path, spec.version
    return f"{REMOTE_PREFIX}{welcome.class_path}", welcome.version


def run_episode(job: EpisodeJob) -> EpisodeOutcome:
    """Run one episode of ``job.policy``; any exception becomes a ``crash`` outcome instead of taking the
    batch down. The policy's own events land between ``episode_start`` and ``episode_end``."""
    started_at = datetime.now(UTC)
    clock = time.perf_counter()
    episode, verdict, crash, version, provenance, monitor = None, None, None, "", ("", ""), None
    phases: list[PhaseRecord] = []
    early: list[Event] = [start_event(job)]
    try:
        tuning = from_overrides(job.skills)
        spec = resolve(job.policy, job.policy_entry)
        provenance = (spec.class_path, spec.version)
        policy = spec.make()
        episode = job.open()
        version = episode.backend.version
        monitor = PhaseMonitor(
            cached_phases(episode.task, episode.scene, (job.task_file, job.annotations)), episode.scene
        )
        try:
            with using(tuning):  # the skills read it (housebench.skills.tuning.tuning)
                play(episode, policy, job.seed, on_step=monitor.hook())
        finally:
            close = getattr(policy, "close", None)
            if callable(close):
                close()  # a remote policy's connection, whatever happened
            provenance = served(spec, policy)
        verdict = episode.verdict()
        phases = monitor.finish(episode.state(), episode.time)
    except Exception as err:  # noqa: BLE001 - a crashed episode is a result, not an abort
        crash = f"{type(err).__name__}: {err}"
        t_sim = episode.time if episode else 0.0
        (episode.events if episode else early).append(
            (t_sim, "crash", {"error": crash, "trace": traceback.format_exc(limit=3)})
        )
    sim_s = episode.time if episode else 0.0
    if crash and monitor is not None and monitor.initial is not None:
        phases = monitor.stop(sim_s)  # the phases reached before the crash, not judged again
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
        policy_class=provenance[0],
        policy_version=provenance[1],
        phases=phases,
    )
