"""The one episode loop: a settled task scene in a backend, reset by a seed, stepped by actions.

``reset(seed)`` loads the scene (the compiled model is cached), shifts every prop by the seeded pose
noise and starts the task's thermal model; ``step(action)`` hands the action to the robot's actuators,
advances the physics by one control period and steps the thermal model. The rollout, ``make_env`` and
every tool run episodes through this class, so they all see the same physics, temperatures and verdict.
"""

from __future__ import annotations

import dataclasses
import zlib
from pathlib import Path

import numpy as np

from housebench.annotations.schema import SceneAnnotations
from housebench.jsonfile import load_model
from housebench.robot.fetch import action_targets
from housebench.rollout.tracks import VISION_CAMERA, check_track, view
from housebench.sim.registry import make_backend
from housebench.state import Action, Observation, SimState
from housebench.tasks.evaluator import evaluate
from housebench.tasks.spec import TaskVariant
from housebench.tasks.thermal import ThermalModel, ThermalSetup
from housebench.tasks.verdict import Verdict

Event = tuple[float, str, dict]  # (t_sim, kind, detail)


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


class Episode:
    """One episode of a settled scene (``scene.usda``) with its variant (``task.json``) and annotations.

    The horizon is ``horizon_s`` if given, else the task's own, else ``default_horizon_s``. ``cameras``
    (``head``, ``third``) are rendered into every observation; ``track`` (``state``, ``vision``) is what
    ``reset`` and ``step`` show the policy (:mod:`housebench.rollout.tracks`). ``events`` collects
    ``log(kind, **detail)`` calls stamped with the simulated time.
    """

    def __init__(
        self,
        scene: Path,
        task_file: Path,
        annotations: Path,
        backend: str = "mujoco",
        control_dt: float = 0.1,
        horizon_s: float | None = None,
        default_horizon_s: float | None = None,
        pose_noise_m: float = 0.0,
        cameras: tuple[str, ...] = (),
        image_size: tuple[int, int] = (320, 240),
        track: str = "state",
    ) -> None:
        self.track = check_track(track)
        if track == "vision" and VISION_CAMERA not in cameras:
            cameras = (*cameras, VISION_CAMERA)
        self.task = load_model(TaskVariant, Path(task_file))
        self.scene = load_model(SceneAnnotations, Path(annotations))
        horizon = horizon_s or self.task.horizon_s or default_horizon_s
        if horizon is None:
            raise ValueError(f"{task_file}: horizon_s: the task names none and no default was given")
        self.horizon_s, self.control_dt, self.pose_noise_m = float(horizon), float(control_dt), pose_noise_m
        self.cameras, self.image_size = tuple(cameras), image_size
        self.backend = make_backend(backend)
        self.sim = self.backend.load(Path(scene))
        self.substeps = max(1, round(self.control_dt / self.sim.timestep))
        self.events: list[Event] = []
        self.steps, self.stopped = 0, False
        self.initial: SimState | None = None
        self.thermal: ThermalModel | None = None
        self._last: Observation | None = None

    @property
    def name(self) -> str:
        return f"{self.task.task}/{self.task.variant}"

    @property
    def time(self) -> float:
        return self.sim.time

    @property
    def done(self) -> bool:
        """The horizon is reached or the policy said stop."""
        return self.stopped or self.sim.time >= self.horizon_s

    def log(self, kind: str, **detail) -> None:
        """Record an event at the current simulated time."""
        self.events.append((float(self.sim.time), kind, detail))

    def reset(self, seed: int) -> Observation:
        """The scene as settled, every prop shifted by the seed's pose noise, temperatures at their start."""
        self.sim.reset()
        self.sim.set_state(perturb(self.sim.get_state(), seed, self.name, self.pose_noise_m))
        self.thermal = ThermalModel(
            self.task.thermal or ThermalSetup(),
            self.scene.house,
            {name: obj.asset for name, obj in self.scene.objects.items()},
        )
        self.events, self.steps, self.stopped = [], 0, False
        self._last = self._observe()
        self.initial = self._last.state
        return view(self._last, self.track, self.task.instruction)

    def step(self, action: Action | None = None) -> Observation:
        """One control period: ``action``'s targets to the actuators (None keeps them), physics, heat."""
        if self.thermal is None:
            raise RuntimeError("Episode.step before reset")
        if action is not None:
            self.stopped = self.stopped or action.stop
            if targets := action_targets(action):
                self.sim.set_control(targets)
        self.sim.step(self.substeps)
        self.steps += self.substeps
        self._last = self._observe(self.substeps * self.sim.timestep)
        return view(self._last, self.track, self.task.instruction)

    @property
    def full_observation(self) -> Observation | None:
        """The last observation whole, whatever the track shows the policy (None before reset)."""
        return self._last

    def _observe(self, dt: float = 0.0) -> Observation:
        """The backend's observation, the thermal model stepped by ``dt`` on it, temperatures attached."""
        obs = self.sim.observe(self.cameras, self.image_size)
        if dt:
            self.thermal.step(obs.state, dt)
        temperatures = dict(self.thermal.temperatures_c)
        state = obs.state.model_copy(update={"temperatures_c": temperatures})
        return dataclasses.replace(obs, temperatures_c=temperatures, state=state)

    def state(self) -> SimState | None:
        """The state of the last observation (temperatures included); None before reset."""
        return self._last.state if self._last is not None else None

    def verdict(self) -> Verdict:
        """The task's evaluator on the current state (temperatures included) against the start."""
        if self._last is None:
            raise RuntimeError("Episode.verdict before reset")
        return evaluate(self.task.goal, self._last.state, self.scene, initial=self.initial)

    def render(self, camera: str = "third", width: int = 640, height: int = 480) -> np.ndarray:
        """An RGB frame from ``camera`` (``head`` or ``third``)."""
        return self.sim.render(camera, width, height)
