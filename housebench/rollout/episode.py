"""One episode: load a settled scene, perturb it by the seed, run a policy, score the final state.

Object temperatures come from the task-level thermal model (:mod:`housebench.tasks.thermal`),
stepped after every control step on the simulator's state and started from the task's thermal setup.
"""

from __future__ import annotations

import socket
import time
import traceback
import zlib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from housebench.annotations.schema import SceneAnnotations
from housebench.jsonfile import load_model
from housebench.policy.base import make_policy
from housebench.sim.registry import make_backend
from housebench.state import SimState
from housebench.tasks.evaluator import evaluate
from housebench.tasks.spec import TaskVariant
from housebench.tasks.thermal import ThermalModel, ThermalSetup
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
    horizon_s: float
    control_dt: float
    pose_noise_m: float
    provenance: dict = field(default_factory=dict)  # code_commit, scene_hash, assets_hash
    choices: dict = field(default_factory=dict)  # the variant's sampled choices, for the report


@dataclass
class EpisodeOutcome:
    """What the rollout writes: the verdict (None on a crash) and the episode's events."""

    job: EpisodeJob
    started_at: datetime
    wall_s: float
    sim_s: float
    steps: int
    verdict: Verdict | None
    crash: str | None
    host: str
    backend_version: str
    events: list[tuple[float, str, dict]]  # (t_sim, kind, detail)


def perturb(state: SimState, seed: int, scene: str, noise_m: float) -> SimState:
    """Shift every object in x/y by a uniform offset of at most ``noise_m``, drawn from the episode
    seed and the scene's name (so episode ``i`` of two variants gets different noise)."""
    rng = np.random.default_rng([seed, zlib.crc32(scene.encode())])
    objects = {}
    for name in sorted(state.objects):
        obj = state.objects[name]
        dx, dy = rng.uniform(-noise_m, noise_m, size=2)
        objects[name] = obj.model_copy(update={"pos": (obj.pos[0] + dx, obj.pos[1] + dy, obj.pos[2])})
    return state.model_copy(update={"objects": objects})


def run_episode(job: EpisodeJob) -> EpisodeOutcome:
    """Run one episode; any exception becomes a ``crash`` outcome instead of taking the batch down."""
    started_at = datetime.now(UTC)
    clock = time.perf_counter()
    events = [_event(0.0, "episode_start", seed=job.seed, policy=job.policy)]
    sim, verdict, crash, steps, version = None, None, None, 0, ""
    try:
        backend = make_backend(job.backend)
        version = backend.version
        task = load_model(TaskVariant, Path(job.task_file))
        scene = load_model(SceneAnnotations, Path(job.annotations))
        sim = backend.load(Path(job.scene))
        sim.set_state(perturb(sim.get_state(), job.seed, f"{job.task}/{job.variant}", job.pose_noise_m))
        thermal = ThermalModel(
            task.thermal or ThermalSetup(), scene.house, {name: obj.asset for name, obj in scene.objects.items()}
        )
        initial = sim.get_state().model_copy(update={"temperatures_c": dict(thermal.temperatures_c)})
        policy = make_policy(job.policy)
        policy.reset(sim, task)
        substeps = max(1, round(job.control_dt / sim.timestep))
        state = initial
        while sim.time < job.horizon_s:
            targets = policy.act(sim)
            if targets:
                sim.set_control(targets)
            sim.step(substeps)
            steps += substeps
            state = sim.get_state()
            thermal.step(state, substeps * sim.timestep)
        final = state.model_copy(update={"temperatures_c": dict(thermal.temperatures_c)})
        verdict = evaluate(task.goal, final, scene, initial=initial)
    except Exception as err:  # noqa: BLE001 - a crashed episode is a result, not an abort
        crash = f"{type(err).__name__}: {err}"
        events.append(_event(sim.time if sim else 0.0, "crash", error=crash, trace=traceback.format_exc(limit=3)))
    sim_s = sim.time if sim else 0.0
    events.append(_event(sim_s, "episode_end", success=bool(verdict and verdict.success)))
    return EpisodeOutcome(
        job=job,
        started_at=started_at,
        wall_s=time.perf_counter() - clock,
        sim_s=sim_s,
        steps=steps,
        verdict=verdict,
        crash=crash,
        host=socket.gethostname(),
        backend_version=version,
        events=events,
    )


def _event(t_sim: float, kind: str, **detail) -> tuple[float, str, dict]:
    return float(t_sim), kind, detail
