"""A Gymnasium environment over the episode loop, so outside policies (RL, imitation learning, a VLA
behind a socket) run through the same physics, thermal model and evaluator as the benchmark.

Actions are one float vector of position targets, laid out as :data:`ACTION_LAYOUT`: the seven arm joints,
the torso, the base's x, y and yaw (world frame) and the finger gap. Observations are a dict of arrays and
the instruction (see :meth:`HousebenchEnv._spaces`), per observation track (:mod:`housebench.rollout.tracks`):
both carry the robot's proprioception, whether each finger touches something (``finger_contacts``, left and
right) and the instruction (a ``Text`` entry); ``state`` adds every object (sorted by name:
``object_names``), part (``part_names``) and temperature, and the images of the cameras asked for;
``vision`` adds the head camera's ``head_rgb`` and ``head_depth`` and nothing about props or parts. The
reward is 1 while the task's goal holds; an episode terminates on success and is truncated at the task's
horizon; the final verdict is ``info["verdict"]``. ``info["phase"]`` is the current phase
(:mod:`housebench.rollout.phases`, judged on the ground truth whatever the track), and ``info["phases"]`` the
episode's phase records at its end.
"""

from __future__ import annotations

import dataclasses
import math
import string
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from housebench.params import PARAMS, load_section
from housebench.paths import Layout
from housebench.robot.fetch import ARM_JOINTS, BASE_JOINTS, GRIPPER_OPENING, TORSO_JOINT
from housebench.robot.model import kinematic_model
from housebench.rollout.env import Episode
from housebench.rollout.phases import PhaseMonitor
from housebench.rollout.plan import RolloutParams
from housebench.rollout.tracks import DEFAULT_IMAGE_SIZE, VISION_CAMERAS
from housebench.sim.offscreen import use_offscreen_gl
from housebench.state import FINGERS, Action, Observation

ACTION_LAYOUT = (*ARM_JOINTS, TORSO_JOINT, *BASE_JOINTS, "gripper")
_F64 = np.float64
# The instruction's Text space: printable ASCII (Text's default charset has no space or punctuation), at most
# this long; a task whose instruction does not fit is refused when its env is made.
INSTRUCTION_CHARSET = string.ascii_letters + string.digits + string.punctuation + " "
INSTRUCTION_MAX = 256


def _joint_bounds(names: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """The kinematic model's limits of ``names``; an unlimited revolute joint gets one turn either way."""
    model = kinematic_model()
    low, high = [], []
    for name in names:
        joint = model.joint(name)
        limited = bool(model.jnt_limited[joint.id])
        low.append(float(joint.range[0]) if limited else -2 * math.pi)
        high.append(float(joint.range[1]) if limited else 2 * math.pi)
    return np.array(low), np.array(high)


class HousebenchEnv(gym.Env):
    """A task variant as a ``gymnasium.Env`` (``render_mode="rgb_array"``: a third-person RGB frame).

    With several ``variants`` (and ``opener``, which opens a variant's episode) every reset draws its variant
    from the env's seeded generator (``options={"variant": "v003"}`` picks one), then the episode seed: a
    reset with a seed is reproducible, and autoresets walk the variants. The variants of a task must share
    the observation space (the same objects on the state track; any variants on the vision track).
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 10}

    def __init__(
        self,
        episode: Episode,
        render_mode: str | None = "rgb_array",
        render_size=(640, 480),
        variants: Sequence[str] = (),
        opener: Callable[[str], Episode] | None = None,
    ) -> None:
        self.render_mode, self.render_size = render_mode, tuple(render_size)
        if render_mode is not None or episode.cameras:
            use_offscreen_gl()
        self.variants, self._opener = tuple(variants) or (episode.task.variant,), opener
        if len(self.variants) > 1 and opener is None:
            raise ValueError("variants: several variants need an opener")
        self._use(episode)
        self.observation_space, self.action_space = self._spaces()
        self._obs: Observation | None = None

    def _use(self, episode: Episode) -> None:
        """Make ``episode`` the env's episode; its names give the rows of the arrays, its plan the phases."""
        self.episode = episode
        self.phases = PhaseMonitor.of(episode.task, episode.scene)  # planned once per variant, followed every episode
        self.track, self.task, self.variant = episode.track, episode.task.task, episode.task.variant
        privileged = self.track == "state"
        self.object_names = sorted(episode.scene.objects) if privileged else []
        self.part_names = sorted(p.name for p in episode.scene.house.articulated) if privileged else []
        self.image_cameras = episode.cameras if privileged else VISION_CAMERAS
        instruction = episode.task.instruction
        if len(instruction) > INSTRUCTION_MAX or not set(instruction) <= set(INSTRUCTION_CHARSET):
            raise ValueError(
                f"{episode.name}: instruction: longer than {INSTRUCTION_MAX} or not printable ASCII: {instruction!r}"
            )
        self.robot_joints: tuple[str, ...] = ()

    def _switch(self, variant: str) -> None:
        """Open ``variant``'s episode in place of the current one (same spaces, else a one-line error)."""
        if self._opener is None:
            raise ValueError(f"reset options: variant {variant!r}: this env has only {self.variant}")
        old = self.episode
        before = (self.observation_space, self.action_space, self.object_names, self.part_names)
        self._use(self._opener(variant))
        self.close_episode(old)
        if (*self._spaces(), self.object_names, self.part_names) != before:  # the rows must mean the same
            raise ValueError(f"{self.episode.name}: its objects, parts or spaces differ from {old.name}'s")

    def _spaces(self) -> tuple[gym.spaces.Dict, gym.spaces.Box]:
        model = kinematic_model()
        self.robot_joints = tuple(model.joint(j).name for j in range(model.njnt))
        arm_low, arm_high = _joint_bounds((*ARM_JOINTS, TORSO_JOINT))
        bounds = self.episode.scene.house.bounds or (-100.0, -100.0, 100.0, 100.0)
        low = np.concatenate([arm_low, [bounds[0], bounds[1], -2 * math.pi, 0.0]])
        high = np.concatenate([arm_high, [bounds[2], bounds[3], 2 * math.pi, GRIPPER_OPENING]])
        action = gym.spaces.Box(low.astype(np.float32), high.astype(np.float32), dtype=np.float32)

        def box(*shape: int) -> gym.spaces.Box:
            return gym.spaces.Box(-np.inf, np.inf, shape=shape, dtype=_F64)

        width, height = self.episode.image_size
        spaces = {
            "time": box(1),
            "joints": box(len(self.robot_joints)),
            "joint_velocities": box(len(self.robot_joints)),
            "base": box(3),
            "ee_pos": box(3),
            "ee_quat": box(4),
            "gripper_opening": box(1),
            "finger_contacts": gym.spaces.MultiBinary(len(FINGERS)),  # left, right: touching anything
            "instruction": gym.spaces.Text(INSTRUCTION_MAX, min_length=1, charset=INSTRUCTION_CHARSET),
        }
        if self.track == "state":
            spaces["objects"] = box(len(self.object_names), 13)  # pos, quat (w, x, y, z), linvel, angvel
            spaces["parts"] = box(len(self.part_names))
            spaces["temperatures_c"] = box(len(self.object_names))
        for cam in self.image_cameras:
            spaces[f"{cam}_rgb"] = gym.spaces.Box(0, 255, (height, width, 3), dtype=np.uint8)
            spaces[f"{cam}_depth"] = gym.spaces.Box(0.0, np.inf, (height, width), dtype=np.float32)
        return gym.spaces.Dict(spaces), action

    def _arrays(self, obs: Observation) -> dict[str, np.ndarray]:
        def objects() -> np.ndarray:
            rows = []
            for name in self.object_names:
                o = obs.objects[name]
                rows.append([*o.pos, *o.quat, *(o.linvel or (0, 0, 0)), *(o.angvel or (0, 0, 0))])
            return np.array(rows, dtype=_F64).reshape(len(self.object_names), 13)

        out = {
            "time": np.array([obs.time], dtype=_F64),
            "joints": np.array([obs.joints[j] for j in self.robot_joints], dtype=_F64),
            "joint_velocities": np.array([obs.joint_velocities[j] for j in self.robot_joints], dtype=_F64),
            "base": np.array(obs.base, dtype=_F64),
            "ee_pos": np.array(obs.ee_pos, dtype=_F64),
            "ee_quat": np.array(obs.ee_quat, dtype=_F64),
            "gripper_opening": np.array([obs.gripper_opening], dtype=_F64),
            "finger_contacts": np.array([bool(obs.finger_contacts.get(f)) for f in FINGERS], dtype=np.int8),
            "instruction": obs.instruction,
        }
        if self.track == "state":
            out["objects"] = objects()
            out["parts"] = np.array([obs.parts.get(p, 0.0) for p in self.part_names], dtype=_F64)
            out["temperatures_c"] = np.array([obs.temperatures_c.get(n, np.nan) for n in self.object_names], _F64)
        for cam in self.image_cameras:
            out[f"{cam}_rgb"] = obs.images[f"{cam}/rgb"]
            out[f"{cam}_depth"] = obs.images[f"{cam}/depth"].astype(np.float32)
        return out

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        variant = (options or {}).get("variant")
        if variant is None and len(self.variants) > 1:
            variant = self.variants[int(self.np_random.integers(len(self.variants)))]
        if variant is not None and variant != self.variant:
            self._switch(variant)
        episode_seed = seed if seed is not None else int(self.np_random.integers(2**31 - 1))
        self._obs = self.episode.reset(episode_seed)
        self.phases.start(self.episode.state(), self._obs.time)
        info = {"time": self._obs.time, "seed": episode_seed, "variant": self.variant, "phase": self.phases.info()}
        return self._arrays(self._obs), info

    def step(self, action: np.ndarray):
        if self._obs is None:
            raise RuntimeError("HousebenchEnv.step before reset")
        a = np.clip(np.asarray(action, dtype=_F64), self.action_space.low, self.action_space.high)
        n = len(ARM_JOINTS) + 1
        command = Action(
            joints=dict(zip((*ARM_JOINTS, TORSO_JOINT), a[:n].tolist())),
            base=tuple(a[n : n + 3].tolist()),
            gripper=float(a[n + 3]),
        )
        self._obs = self.episode.step(command)
        verdict = self.episode.verdict()
        terminated, truncated = verdict.success, self.episode.done and not verdict.success
        info: dict[str, Any] = {"time": self._obs.time, "success": verdict.success, "progress": verdict.progress}
        if terminated or truncated:
            info["verdict"] = verdict.model_dump(mode="json")
            info["phases"] = [dataclasses.asdict(r) for r in self.phases.finish(self.episode.state(), self._obs.time)]
        else:
            self.phases.observe(self.episode.state(), self._obs.time)
        info["phase"] = self.phases.info()
        return self._arrays(self._obs), float(verdict.success), terminated, truncated, info

    def render(self) -> np.ndarray | None:
        if self.render_mode != "rgb_array":
            return None
        return self.episode.render("third", *self.render_size)

    def close(self) -> None:
        self.close_episode(self.episode)

    @staticmethod
    def close_episode(episode: Episode) -> None:
        close = getattr(episode.sim, "close", None)
        if close:
            close()


def make_env(
    task: str,
    variant: str = "v000",
    root: Path | str = ".",
    backend: str = "mujoco",
    control_dt: float = 0.1,
    horizon_s: float | None = None,
    pose_noise_m: float = 0.002,
    cameras: tuple[str, ...] = (),
    render_mode: str | None = "rgb_array",
    track: str = "state",
    image_size: tuple[int, int] = DEFAULT_IMAGE_SIZE,
    variants: Sequence[str] | None = None,
) -> HousebenchEnv:
    """The settled scene ``<task>/<variant>`` of the DVC layout under ``root`` as a Gymnasium env on
    observation ``track`` (``state`` or ``vision``; images at ``image_size``, width and height); with
    ``variants``, each reset draws one of them instead (:class:`HousebenchEnv`). The horizon defaults to the
    task's own, else ``rollout.horizon_s`` of ``root``'s params.yaml."""
    layout = Layout(root=Path(root))
    if cameras or render_mode or track == "vision":
        use_offscreen_gl()
    default_horizon_s = load_section("rollout", RolloutParams, layout.at(PARAMS)).horizon_s

    def open_variant(name: str) -> Episode:
        return Episode(
            layout.settled_scene(task, name),
            layout.task_dir(task, name) / "task.json",
            layout.scene_annotations(task, name),
            backend=backend,
            control_dt=control_dt,
            horizon_s=horizon_s,
            default_horizon_s=default_horizon_s,
            pose_noise_m=pose_noise_m,
            cameras=tuple(cameras),
            image_size=tuple(image_size),
            track=track,
        )

    variants = tuple(variants or (variant,))
    return HousebenchEnv(open_variant(variants[0]), render_mode=render_mode, variants=variants, opener=open_variant)
