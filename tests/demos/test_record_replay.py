"""A recorded episode holds what the env gives at every control step, and replaying it from any
recorded state reproduces every later state bitwise and the verdict."""

from __future__ import annotations

import numpy as np
import pytest

from housebench.demos.recorder import action_vector
from housebench.demos.recording import find_recordings, load_recording
from housebench.demos.replay import replay
from tests.demos.conftest import layout


def test_a_recording_holds_every_control_step(recordings):
    for path in recordings:
        rec = load_recording(path)
        m = rec.meta
        steps = rec.array("step")
        assert steps.tolist() == list(range(rec.steps + 1)), "one row per control step, plus the terminal row"
        assert rec.array("terminal").tolist() == [False] * rec.steps + [True]
        assert rec.steps == m["steps"] == round(m["sim_s"] / m["control_dt"])
        for key, shape in m["observation"].items():
            assert rec.array(f"obs.{key}").shape == (rec.steps + 1, int(np.prod(shape)))
        assert rec.array("physics").shape == (rec.steps + 1, m["physics_size"])
        # the env's action vector is the actuator targets, the gripper as the finger gap
        for ctrl, action in zip(rec.array("ctrl"), rec.array("action")):
            assert np.array_equal(action, action_vector(dict(zip(m["actuators"], ctrl))))
        joints = rec.array("obs.joints")
        assert np.abs(joints - joints[0]).max() > 0.05, "the scripted robot moved (its base or its arm)"
        labels = {(s, t) for s, t in zip(rec.array("skill"), rec.array("target")) if s}
        assert labels, "the scripted policy's skill_start events label the steps"
        looks, seen = rec.array("look"), rec.array("in_view").astype(bool)
        assert set(looks) - {""}, "the skills' look events name what the head should see"
        assert not (seen & (looks == "")).any(), "with nothing to see, nothing is in view"
        assert seen.any(), "the scripted head, aimed by the skills, sees its target"
        for key in ("code_commit", "scene_hash", "seed", "policy", "split", "verdict"):
            assert key in m
        if m["images"]:
            every = m["images"]["every"]
            assert m["images"]["frames"] == len([s for s in steps if s % every == 0])
            assert (path / m["images"]["file"]).stat().st_size > 0
    assert find_recordings([recordings[0].parent.parent.parent]) == sorted(recordings)


@pytest.mark.parametrize("where", ["start", "middle", "last"])
def test_replay_from_a_recorded_state_is_bitwise(recordings, where):
    for path in recordings:
        rec = load_recording(path)
        start = {"start": 0, "middle": rec.steps // 2, "last": rec.steps - 1}[where]
        result = replay(rec, layout(), start)
        assert result.steps == rec.steps - start
        assert result.bitwise, f"{path}: diverged at step {result.first_diverged_step} by {result.max_qpos_diff}"
        assert result.success == rec.success
        assert result.progress == rec.meta["verdict"]["progress"]


def test_a_wrong_physics_state_is_refused(recordings):
    from housebench.demos.replay import open_episode

    rec = load_recording(recordings[0])
    episode = open_episode(rec, layout())
    with pytest.raises(ValueError, match="physics state"):
        episode.sim.set_physics_state(np.zeros(3))


def test_replay_by_float32_actions_runs_and_measures_its_drift(recordings):
    rec = load_recording(recordings[-1])
    result = replay(rec, layout(), 0, restore_state=False, actions="env32")
    assert result.steps == rec.steps
    assert np.isfinite(result.max_qpos_diff) and result.max_object_pos_diff_m <= result.max_qpos_diff


def test_bad_replay_requests_are_one_line(recordings):
    rec = load_recording(recordings[0])
    with pytest.raises(ValueError, match="start 99999"):
        replay(rec, layout(), 99999)
    with pytest.raises(ValueError, match="starts at step 0"):
        replay(rec, layout(), 3, restore_state=False)
