"""Observation tracks: the vision track hides every prop and part (names and poses), both carry the
instruction; walked over a hand-made observation, a real episode's and the Gymnasium env's."""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pytest

from housebench.rollout.tracks import TOUCH, TRACKS, cameras_for, view
from housebench.sim.offscreen import use_offscreen_gl
from housebench.state import ObjectState, Observation, SimState
from tests.builtdata import built
from tests.conftest import built_job

TASK, VARIANT = "put_fruit_in_container", "v000"


def leaks(shown, full: Observation, names: set[str]) -> list[str]:
    """Every prop or part name (in a key or string, the instruction aside) and every pose-like number of
    ``full``'s props and parts (positions, quaternions, part joint values) found anywhere in ``shown``
    (an Observation or the gym dict), walked nested."""
    secrets = []
    for obj in full.state.objects.values():
        secrets += [*obj.pos, *obj.quat]
    secrets += list(full.parts.values())
    # 0 and +-1 are everyone's values (a closed door, an identity quaternion); a real pose is neither
    secrets = np.array([v for v in secrets if abs(v) > 1e-6 and abs(abs(v) - 1.0) > 1e-6])
    assert secrets.size, "nothing to look for: the test would pass vacuously"
    words = [re.compile(rf"(?<![\w]){re.escape(n)}(?![\w])") for n in sorted(names)]
    found: list[str] = []

    def text(where: str, s: str) -> None:
        found.extend(f"{where}: name {w.pattern!r} in {s!r}" for w in words if w.search(s))

    def walk(where: str, x) -> None:
        if dataclasses.is_dataclass(x):
            for f in dataclasses.fields(x):
                if f.name != "instruction":  # the task's own words, public on every track
                    walk(f"{where}.{f.name}", getattr(x, f.name))
        elif isinstance(x, dict):
            for key, value in x.items():
                text(where, str(key))
                if key != "instruction":
                    walk(f"{where}[{key}]", value)
        elif isinstance(x, (list, tuple)):
            for i, value in enumerate(x):
                walk(f"{where}[{i}]", value)
        elif isinstance(x, str):
            text(where, x)
        elif hasattr(x, "model_dump"):  # a pydantic model (SimState, ObjectState)
            walk(where, x.model_dump())
        elif isinstance(x, (float, int, np.ndarray, np.number)):
            values = np.asarray(x)
            if values.dtype.kind == "f":
                hits = np.isin(values, secrets.astype(values.dtype))
                if hits.any():
                    found.append(f"{where}: pose values {values[hits][:3].tolist()}")
        elif x is not None:
            raise AssertionError(f"{where}: unexpected {type(x).__name__}")

    walk("obs", shown)
    return found


def made_up() -> Observation:
    """An observation whose fingers hold a prop and touch a part, with a part opened and a thermal prop."""
    apple = ObjectState(pos=(1.25, -2.5, 0.75), quat=(0.6, 0.0, 0.0, 0.8))
    state = SimState(
        time=1.0,
        objects={"apple": apple},
        joints={"robot0:torso_lift_joint": 0.1, "fridge/door": 0.4},
        temperatures_c={"apple": 7.5},
        contacts={"left": ["apple"], "right": ["fridge/door"]},
    )
    return Observation(
        time=1.0,
        joints={"robot0:torso_lift_joint": 0.1},
        joint_velocities={"robot0:torso_lift_joint": 0.0},
        base=(0.5, 0.5, 0.0),
        ee_pos=(1.2, -2.4, 0.9),
        ee_quat=(1.0, 0.0, 0.0, 0.0),
        gripper_opening=0.04,
        finger_contacts={"left": ("apple",), "right": ("fridge/door",)},
        objects={"apple": apple},
        parts={"fridge/door": 0.4},
        temperatures_c={"apple": 7.5},
        state=state,
        images={"head/rgb": np.zeros((2, 3, 3), np.uint8), "third/rgb": np.zeros((2, 3, 3), np.uint8)},
        instruction="Put the apple in the fridge.",
    )


def test_the_vision_view_keeps_the_robot_and_drops_every_prop_and_part():
    full = made_up()
    shown = view(full, "vision")
    assert leaks(shown, full, {"apple", "fridge/door", "fridge"}) == []
    assert leaks(full, full, {"apple", "fridge/door"}), "the walker finds what the state track shows"
    assert shown.finger_contacts == {"left": (TOUCH,), "right": (TOUCH,)} and shown.touching()
    assert (shown.objects, shown.parts, shown.temperatures_c, shown.state) == ({}, {}, {}, None)
    assert set(shown.images) == {"head/rgb"} and shown.instruction == full.instruction
    assert (shown.joints, shown.base, shown.ee_pos, shown.gripper_opening) == (
        full.joints, full.base, full.ee_pos, full.gripper_opening
    )  # fmt: skip
    assert view(full, "state") is full


def test_tracks_are_checked_and_the_vision_track_renders_the_head():
    assert TRACKS == ("state", "vision")
    assert cameras_for("state") == () and cameras_for("vision", ("third",)) == ("head", "third")
    with pytest.raises(ValueError, match=r"^track: 'depth' is not one of state, vision$"):
        view(made_up(), "depth")


def open_episode(track: str, **kwargs):
    """The built scene of :data:`TASK` (the tests' small build) as an episode on ``track``."""
    from housebench.rollout.env import Episode

    job = built_job(TASK, VARIANT, "noop", horizon_s=1.0)
    return Episode(job.scene, job.task_file, job.annotations, horizon_s=1.0, track=track, **kwargs)


def test_a_real_episode_on_the_vision_track_shows_no_prop_or_part():
    use_offscreen_gl()
    vision = open_episode("vision", image_size=(80, 60), pose_noise_m=0.002)
    names = set(vision.scene.objects) | {p.name for p in vision.scene.house.articulated}
    shown = vision.reset(0)
    for _ in range(2):
        full = vision.full_observation
        assert full.state is not None and set(full.objects) == set(vision.scene.objects)
        assert leaks(shown, full, names) == []
        assert shown.instruction == vision.task.instruction != ""
        assert shown.images["head/rgb"].shape == (60, 80, 3) and shown.images["head/depth"].shape == (60, 80)
        shown = vision.step(None)
    assert vision.state() is vision.full_observation.state and vision.verdict().success is False


def test_the_state_track_is_the_full_observation_with_the_instruction():
    state = open_episode("state")
    obs = state.reset(0)
    assert obs is state.full_observation and obs.instruction == state.task.instruction
    assert obs.state is not None and set(obs.objects) == set(state.scene.objects) and obs.images == {}


def test_the_vision_gym_dict_shows_no_prop_or_part():
    from housebench.rollout.gym_env import make_env

    root = built(TASK, VARIANT).root
    env = make_env(TASK, VARIANT, root=root, track="vision", render_mode=None, horizon_s=1.0)
    names = set(env.episode.scene.objects) | {p.name for p in env.episode.scene.house.articulated}
    obs, _ = env.reset(seed=0)
    obs, *_ = env.step(hold(env, obs))
    full = env.episode.full_observation
    assert leaks(obs, full, names) == []
    assert set(obs) == {
        "time", "joints", "joint_velocities", "base", "ee_pos", "ee_quat", "gripper_opening", "finger_contacts",
        "instruction", "head_rgb", "head_depth",
    }  # fmt: skip
    assert obs["instruction"] == env.episode.task.instruction and obs["head_rgb"].shape == (120, 160, 3)
    assert env.observation_space.contains(obs)
    state_env = make_env(TASK, VARIANT, root=root, render_mode=None, horizon_s=1.0)
    state_obs, _ = state_env.reset(seed=0)
    assert leaks(state_obs, state_env.episode.full_observation, names), "the state track's dict shows them"
    assert state_obs["instruction"] == obs["instruction"] and state_env.observation_space.contains(state_obs)


def hold(env, obs) -> np.ndarray:
    """The action that keeps the robot of ``env`` where it is (its joints, base, an open gripper)."""
    return hold_joints(env.robot_joints, obs)


def hold_joints(robot_joints: tuple[str, ...], obs: dict) -> np.ndarray:
    """The action that keeps the robot where it is, given the row order of ``obs["joints"]``."""
    from housebench.robot.fetch import ARM_JOINTS, TORSO_JOINT

    arm = [obs["joints"][robot_joints.index(j)] for j in (*ARM_JOINTS, TORSO_JOINT)]
    return np.concatenate([arm, obs["base"], [0.1]]).astype(np.float32)
