"""Gymnasium ids (``housebench/<task>-v1`` for every task spec) and the vector env over variants: made
through gymnasium itself, checked by Gymnasium's env checker, and (vector) stepped through an episode's end
and its autoreset against the same envs stepped in this process."""

from __future__ import annotations

import subprocess
import sys

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env, data_equivalence

import housebench.envs
from housebench.rollout.tracks import TRACKS
from tests.conftest import ROOT
from tests.rollout.test_tracks import hold, need_built

TASKS = sorted(p.stem for p in (ROOT / "tasks").glob("*.json"))
QUICK = {"put_fruit_in_container", "chill_drink", "heat_breakfast_combo", "shelve_books", "tidy_toys"}


def test_import_housebench_imports_no_gymnasium_and_registers_nothing():
    code = "import sys, housebench; print(sorted({'gymnasium', 'mujoco', 'housebench.envs'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_every_task_spec_has_an_id_registered_by_importing_housebench_envs_without_mujoco():
    assert len(TASKS) == 25 and housebench.envs.IDS == [f"housebench/{t}-v1" for t in TASKS]
    code = (
        "import sys, gymnasium as gym, housebench.envs; s = gym.spec('housebench/tidy_toys-v1');"
        "print(s.kwargs, s.entry_point, s.vector_entry_point, 'mujoco' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == [
        "{'task':", "'tidy_toys'}", "housebench.rollout.gym_env:make_env", "housebench.rollout.vector:make_vec_env",
        "False",
    ]  # fmt: skip


@pytest.mark.parametrize(
    "task", [t if t in QUICK else pytest.param(t, marks=pytest.mark.slow) for t in TASKS]
)  # fmt: skip
def test_gymnasium_make_passes_the_env_checker(task):
    need_built(task, "v000")
    for track in TRACKS:
        options = {"variant": "v000", "track": track, "root": ROOT, "horizon_s": 0.5, "image_size": (32, 24)}
        env = gym.make(f"housebench/{task}-v1", **options)
        assert env.unwrapped.track == track and env.unwrapped.episode.name == f"{task}/v000"
        check_env(env.unwrapped, skip_render_check=True)
        obs, _ = env.reset(seed=1)
        assert env.observation_space.contains(obs) and obs["instruction"] == env.unwrapped.episode.task.instruction
        assert ("objects" in obs) == (track == "state") and ("head_rgb" in obs) == (track == "vision")
        env.close()


def test_the_module_form_of_the_id_and_an_unknown_track():
    need_built()
    env = gym.make("housebench.envs:housebench/put_fruit_in_container-v1", track="vision", root=ROOT)
    assert env.unwrapped.track == "vision" and env.unwrapped.variant == "v000"
    env.close()
    with pytest.raises(ValueError, match=r"^track: 'depth' is not one of state, vision$"):
        gym.make("housebench/put_fruit_in_container-v1", track="depth", root=ROOT)


@pytest.mark.parametrize("track", TRACKS)
def test_the_async_vector_env_steps_resets_and_autoresets_like_the_envs_in_process(track):
    from housebench.rollout.vector import env_fns

    need_built("put_fruit_in_container", "v001")
    options = {"track": track, "root": ROOT, "horizon_s": 0.3, "image_size": (32, 24)}
    variants = ["v000", "v001"]
    vec = gym.make_vec("housebench/put_fruit_in_container-v1", variants=variants, **options)
    sync = gym.vector.SyncVectorEnv(env_fns("put_fruit_in_container", variants, render_mode=None, **options))
    try:
        assert isinstance(vec.unwrapped, gym.vector.AsyncVectorEnv) and vec.num_envs == 2
        assert vec.single_observation_space == sync.single_observation_space
        assert [v.episode.name for v in sync.envs] == ["put_fruit_in_container/v000", "put_fruit_in_container/v001"]
        obs, info = vec.reset(seed=7)
        expected, _ = sync.reset(seed=7)
        assert vec.observation_space.contains(obs) and data_equivalence(obs, expected)
        assert list(info["seed"]) == [7, 8]
        action = np.stack([hold(sync.envs[i], {k: v[i] for k, v in expected.items()}) for i in range(2)])
        assert vec.action_space.contains(action)
        ends = []
        for step in range(5):  # 3 steps to the horizon, then the autoreset step, then one more
            obs, reward, terminated, truncated, info = vec.step(action)
            got = sync.step(action)
            assert vec.observation_space.contains(obs) and data_equivalence((obs, reward, terminated, truncated),
                                                                            got[:4])  # fmt: skip
            ends.append((terminated | truncated).tolist())
            if step == 3:
                assert np.allclose(obs["time"], 0.0) and not reward.any()  # the step after the end is a reset
        assert ends == [[False, False], [False, False], [True, True], [False, False], [False, False]]
    finally:
        vec.close()
        sync.close()


def test_make_vec_env_cycles_the_variants_over_its_workers():
    import housebench

    need_built("put_fruit_in_container", "v001")
    vec = housebench.make_vec_env("put_fruit_in_container", ["v000", "v001"], num_envs=3, root=ROOT, horizon_s=0.2)
    try:
        assert vec.get_attr("variant") == ("v000", "v001", "v000")
    finally:
        vec.close()
