"""Per-step recording of one episode: at the control rate, the observation arrays (the Gymnasium env's
layout), the action as the env's action vector and as the full actuator targets, the simulator's
integration state (enough to restore the step bitwise), the thermal model's state, and the skill the
policy is in, what its head should see (``look``: the skills' ``look`` events) and whether that is in the head
image (``in_view``: the ground-truth point of :func:`housebench.skills.look.where` projected through the head
camera, :class:`~housebench.robot.head.HeadCamera`, at the recorded image size; no occlusion test). Head images
are optional, at a stated size and every ``image_every`` control steps.

The :class:`Recorder` is the ``on_step(obs_full, action, obs_policy)`` hook of the episode driver: it is
called once per control step after the policy chose ``action`` on ``obs_policy`` and before the step,
so row ``i`` holds the state the action was chosen in and the action taken from it. :meth:`Recorder.finish`
adds the terminal row (the state the verdict judged) and closes the folder (:mod:`housebench.demos.recording`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from housebench.demos.recording import RecordingWriter
from housebench.robot.fetch import FINGER_JOINTS, action_targets
from housebench.robot.head import HeadCamera
from housebench.rollout.env import Episode
from housebench.rollout.gym_env import ACTION_LAYOUT, HousebenchEnv
from housebench.skills.look import where
from housebench.state import Action, Observation

LABEL_EVENTS = {"skill_start": ("skill", "target"), "node_path": ("verb", "node")}  # scripted, planned
LOOK_EVENT = "look"  # housebench.skills.look: what the head should see from now on (target '' for nothing)


@dataclass(frozen=True)
class ImageOptions:
    """Head images in the recording: ``size`` (width, height; even, for the video's 4:2:0 colour) every
    ``every`` control steps (a frame rate of ``1 / (control_dt * every)``)."""

    camera: str = "head"
    size: tuple[int, int] = (160, 120)
    every: int = 1

    def __post_init__(self) -> None:
        if any(v <= 0 or v % 2 for v in self.size):
            raise ValueError(f"images.size: {self.size}: width and height must be positive and even")
        if self.every < 1:
            raise ValueError(f"images.every: {self.every}: must be at least 1")


def action_vector(targets: dict[str, float]) -> np.ndarray:
    """The env's action vector (:data:`ACTION_LAYOUT`) of the actuator targets ``targets``: the gripper
    as the finger gap (the two fingers' targets summed, as :func:`action_targets` halves it)."""
    gap = sum(targets[f] for f in FINGER_JOINTS)
    return np.array([gap if name == "gripper" else targets[name] for name in ACTION_LAYOUT], dtype=np.float64)


class Recorder:
    """Records ``episode`` (loaded, reset by the driver) into the folder ``out``; ``meta`` is merged into
    the folder's meta.json (provenance: task, variant, seed, policy, split, commit, scene hash)."""

    def __init__(self, episode: Episode, out: Path, meta: dict, images: ImageOptions | None = None) -> None:
        self.episode, self.images = episode, images
        self.sim = episode.sim
        self.env = HousebenchEnv(episode, render_mode=None)  # only its observation layout, never stepped
        self.actuators = self.sim.actuator_names
        self.label: tuple[str, str] = ("", "")
        self.look = ""
        self.head = HeadCamera()
        self.view_size = images.size if images is not None else episode.image_size  # the image in_view judges
        self._seen_events = 0
        self.writer = RecordingWriter(Path(out), self._meta(meta), video_fps=self._video_fps())

    def _video_fps(self) -> float | None:
        if self.images is None:
            return None
        return 1.0 / (self.episode.control_dt * self.images.every)

    def _meta(self, meta: dict) -> dict:
        ep = self.episode
        space = self.env.observation_space
        return {
            **meta,
            "task": ep.task.task,
            "variant": ep.task.variant,
            "instruction": ep.task.instruction,
            "control_dt": ep.control_dt,
            "substeps": ep.substeps,
            "timestep": self.sim.timestep,
            "horizon_s": ep.horizon_s,
            "physics_spec": "mjSTATE_INTEGRATION",
            "physics_size": self.sim.physics_state_size,
            "actuators": list(self.actuators),
            "action_layout": list(ACTION_LAYOUT),
            "observation": {  # the arrays (the instruction, a Text entry, is above; images are the video)
                key: list(space[key].shape)
                for key in space
                if space[key].shape is not None and not key.endswith(("_rgb", "_depth"))
            },
            "names": {
                "joints": list(self.env.robot_joints),
                "objects": list(self.env.object_names),
                "parts": list(self.env.part_names),
                "microwaves": sorted(ep.thermal.run_left_s) if ep.thermal else [],
            },
            "images": None
            if self.images is None
            else {
                "camera": self.images.camera,
                "size": list(self.images.size),
                "every": self.images.every,
                "fps": self._video_fps(),
                "file": f"{self.images.camera}.mp4",
            },
        }

    def _update_label(self) -> None:
        """The latest skill the policy started (scripted: ``skill_start``; planned: ``node_path``)."""
        events = self.episode.events
        for _, kind, detail in events[self._seen_events :]:
            if kind in LABEL_EVENTS:
                skill, target = LABEL_EVENTS[kind]
                self.label = (str(detail.get(skill, "")), str(detail.get(target, "")))
            elif kind == LOOK_EVENT:
                self.look = str(detail.get("target", ""))
        self._seen_events = len(events)

    def in_view(self, obs: Observation) -> bool:
        """Whether the point of what the head should see lands in the head image (False when nothing)."""
        if not self.look:
            return False
        scene = self.episode.scene
        point = where(scene, self.episode.task.goal.places, obs, self.look)
        return point is not None and self.head.sees(obs.joints, point, self.view_size)

    def _row(self, obs: Observation, ctrl: np.ndarray, stop: bool, terminal: bool) -> dict:
        arrays = self.env._arrays(obs)  # the env's own layout (images are recorded apart, as video)
        thermal = self.episode.thermal
        step = self.episode.steps // self.episode.substeps
        if self.images is not None and step % self.images.every == 0:
            self.writer.add_image(self.episode.render(self.images.camera, *self.images.size))
        return {
            "step": step,
            "time": float(obs.time),
            "terminal": terminal,
            **{f"obs.{k}": v.reshape(-1) for k, v in arrays.items() if k in self.writer.meta["observation"]},
            "action": action_vector(dict(zip(self.actuators, ctrl.tolist()))),
            "ctrl": ctrl,
            "stop": stop,
            "physics": self.sim.get_physics_state(),
            "thermal_run_left_s": np.array([thermal.run_left_s[m] for m in sorted(thermal.run_left_s)]),
            "skill": self.label[0],
            "target": self.label[1],
            "look": self.look,
            "in_view": self.in_view(obs),
        }

    def on_step(self, obs_full: Observation, action: Action | None, obs_policy: Observation) -> None:
        """One control step: ``action`` was chosen on ``obs_policy`` (the track's view of ``obs_full``)."""
        del obs_policy  # the full observation is recorded; an exporter derives each track's view from it
        self._update_label()
        ctrl = self.sim.get_control()
        stop = False
        if action is not None:
            stop = action.stop
            for name, value in action_targets(action).items():
                ctrl[self.actuators.index(name)] = value
        self.writer.add_row(self._row(obs_full, ctrl, stop, terminal=False))

    def finish(self, obs_final: Observation, summary: dict) -> Path:
        """The terminal row (the state the verdict judged, its targets held) and meta.json's ``summary``
        (verdict, steps, sim and wall seconds); the folder."""
        self._update_label()
        self.writer.add_row(self._row(obs_final, self.sim.get_control(), stop=False, terminal=True))
        return self.writer.close(summary)

    def abort(self) -> None:
        """Drop the partial folder (a crashed episode leaves no recording)."""
        self.writer.abort()
