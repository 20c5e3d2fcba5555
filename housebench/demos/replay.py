"""Replay a recorded episode in its scene.

``from_state``: restore the recorded simulator state of step ``start`` (MuJoCo's integration state, and
the thermal model's temperatures and microwave timers), then step the recorded actuator targets; after
every step the simulator state is compared with the recorded one, and at the end the task's evaluator
judges the final state. In the same build and process this is bitwise: MuJoCo's step is a deterministic
function of the integration state and the controls.

Replay by actions (``actions="env"`` or ``"env32"``): from the seed's reset, step the recorded env
action vectors (arm, torso, base, gripper; ``env32``: cast to float32 as the exported dataset stores them)
the way the Gymnasium env applies them, as a learner replaying a dataset open loop would. The vector
leaves out the head's targets and float32 rounds the rest, so this drifts; the drift is measured, not
assumed away (:func:`replay` returns the largest difference of any joint position and of a prop's position,
and the first step where anything in the state, the sleep state included, differs).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from housebench.demos.recording import Recording
from housebench.paths import Layout
from housebench.robot.fetch import ARM_JOINTS, TORSO_JOINT
from housebench.rollout.env import Episode
from housebench.state import Action

ACTIONS = ("ctrl", "env", "env32")  # every actuator's target; the env's action vector; the same in float32


@dataclass(frozen=True)
class ReplayResult:
    start: int  # the step replayed from
    steps: int  # steps replayed
    max_qpos_diff: float  # the largest |replayed - recorded| joint position (m, rad, quaternion) over the steps
    max_object_pos_diff_m: float  # the same over the props' positions only, metres
    first_diverged_step: int | None  # the first step whose state differs at all (None: bitwise throughout)
    success: bool  # the replay's verdict
    recorded_success: bool
    progress: float

    @property
    def bitwise(self) -> bool:
        return self.first_diverged_step is None

    @property
    def verdict_holds(self) -> bool:
        return self.success == self.recorded_success


def open_episode(rec: Recording, layout: Layout) -> Episode:
    """The recorded episode's scene, loaded as it was recorded (control period, horizon, noise)."""
    m = rec.meta
    return Episode(
        layout.settled_scene(m["task"], m["variant"]),
        layout.task_dir(m["task"], m["variant"]) / "task.json",
        layout.scene_annotations(m["task"], m["variant"]),
        backend=m["backend"],
        control_dt=m["control_dt"],
        horizon_s=m["horizon_s"],
        pose_noise_m=m["pose_noise_m"],
    )


def restore(episode: Episode, rec: Recording, step: int) -> None:
    """Put ``episode`` (reset with the recording's seed, so its start state and thermal model are the
    recording's) at row ``step``: simulator, temperatures, microwave timers, step count."""
    row = rec.frames.slice(step, 1).to_pylist()[0]
    episode.sim.set_physics_state(np.array(row["physics"]))
    thermal = episode.thermal
    names = rec.meta["names"]
    temps = row["obs.temperatures_c"]
    for name, value in zip(names["objects"], temps):
        if name in thermal.temperatures_c:
            thermal.temperatures_c[name] = float(value)
    for name, value in zip(names["microwaves"], row["thermal_run_left_s"]):
        thermal.run_left_s[name] = float(value)
    episode.steps = row["step"] * episode.substeps
    episode.stopped = False
    episode._last = episode._observe()  # the state the verdict reads (Episode keeps it privately)


def env_action(vector: np.ndarray) -> Action:
    """The Action the Gymnasium env makes of an action vector (:data:`ACTION_LAYOUT`)."""
    a = np.asarray(vector, dtype=np.float64)
    n = len(ARM_JOINTS) + 1
    return Action(
        joints=dict(zip((*ARM_JOINTS, TORSO_JOINT), a[:n].tolist())),
        base=tuple(a[n : n + 3].tolist()),
        gripper=float(a[n + 3]),
    )


def replay(
    rec: Recording, layout: Layout, start: int = 0, restore_state: bool = True, actions: str = "ctrl"
) -> ReplayResult:
    """Replay ``rec`` from row ``start`` (see the module's doc); the comparison and the verdict.
    ``restore_state=False`` starts from the seed's reset instead (``start`` must then be 0)."""
    if not 0 <= start < rec.steps:
        raise ValueError(f"{rec.path}: start {start}: the recording has steps 0..{rec.steps - 1}")
    if actions not in ACTIONS:
        raise ValueError(f"replay: actions {actions!r}: one of {', '.join(ACTIONS)}")
    if not restore_state and start:
        raise ValueError("replay: without restoring a state, replay starts at step 0")
    episode = open_episode(rec, layout)
    try:
        episode.reset(rec.meta["seed"])
        if restore_state:
            restore(episode, rec, start)
        recorded = rec.array("physics")
        ctrl = rec.array("ctrl")
        vectors = rec.array("action")
        if actions == "env32":
            vectors = vectors.astype(np.float32)
        qpos, props = _qpos_index(episode), _object_pos_index(rec, episode)
        first = None if np.array_equal(episode.sim.get_physics_state(), recorded[start]) else start
        max_qpos = max_pos = 0.0
        for k in range(start, rec.steps):
            if actions == "ctrl":
                episode.sim.set_control(dict(zip(rec.meta["actuators"], ctrl[k].tolist())))
                episode.step(None)
            else:
                episode.step(env_action(vectors[k]))
            diff = np.abs(episode.sim.get_physics_state() - recorded[k + 1])
            max_qpos = max(max_qpos, float(diff[qpos].max()))
            max_pos = max(max_pos, float(diff[props].max(initial=0.0)))
            if first is None and diff.any():
                first = k + 1
        verdict = episode.verdict()
        return ReplayResult(
            start=start,
            steps=rec.steps - start,
            max_qpos_diff=max_qpos,
            max_object_pos_diff_m=max_pos,
            first_diverged_step=first,
            success=verdict.success,
            recorded_success=rec.success,
            progress=verdict.progress,
        )
    finally:
        close = getattr(episode.sim, "close", None)
        if close:
            close()


def _qpos_index(episode: Episode) -> np.ndarray:
    """Where the joint positions sit in the state vector: after the time (1 value)."""
    return np.arange(1, 1 + episode.sim.model.nq)


def _object_pos_index(rec: Recording, episode: Episode) -> np.ndarray:
    """Where the props' positions sit in the integration state vector: after time (1 value), qpos."""
    sim = episode.sim
    model = sim.model
    index = []
    for name in rec.meta["names"]["objects"]:
        joint = model.joint(name)
        adr = int(model.jnt_qposadr[joint.id])
        index.extend(1 + adr + i for i in range(3))
    return np.array(index, dtype=int)
