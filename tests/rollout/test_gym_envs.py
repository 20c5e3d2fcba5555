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
from tests.builtdata import built
from tests.conftest import ROOT
from tests.rollout.test_tracks import hold

TASK = "put_fruit_in_container"
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
    root = built(task, "v000").root  # the slow tasks' v000 are in SLOW_VARIANTS
    for track in TRACKS:
        options = {"variant": "v000", "track": track, "root": root, "horizon_s": 0.5, "image_size": (32, 24)}
        env = gym.make(f"housebench/{task}-v1", **options)
        assert env.unwrapped.track == track and env.unwrapped.episode.name == f"{task}/v000"
        check_env(env.unwrapped, skip_render_check=True)
        obs, _ = env.reset(seed=1)
        assert env.observation_space.contains(obs) and obs["instruction"] == env.unwrapped.episode.task.instruction
        assert ("objects" in obs) == (track == "state") and ("head_rgb" in obs) == (track == "vision")
        env.close()


def test_the_module_form_of_the_id_and_an_unknown_track():
    root = built(TASK, "v000").root
    env = gym.make("housebench.envs:housebench/put_fruit_in_container-v1", track="vision", root=root)
    assert env.unwrapped.track == "vision" and env.unwrapped.variant == "v000"
    env.close()
    with pytest.raises(ValueError, match=r"^track: 'depth' is not one of state, vision$"):
        gym.make("housebench/put_fruit_in_container-v1", track="depth", root=root)


@pytest.mark.parametrize("track", ["vision", pytest.param("state", marks=pytest.mark.slow)])
def test_the_async_vector_env_steps_resets_and_autoresets_like_the_envs_in_process(track):
    """Worker processes (spawned) against the same envs stepped here: the same observations (images and the
    instruction included), rewards and ends; the autoreset on the step after the horizon; resets asked for a
    variant; and the variants drawn by autoresets."""
    from housebench.rollout.vector import env_fns

    variants = ["v000", "v001"]  # two variants: the autoresets switch scenes
    root = built(TASK, variants[-1]).root
    options = {"track": track, "root": root, "horizon_s": 0.3, "image_size": (32, 24)}
    vec = gym.make_vec(f"housebench/{TASK}-v1", num_envs=2, variants=variants, **options)
    sync = gym.vector.SyncVectorEnv(env_fns(TASK, variants, 2, render_mode=None, **options))
    try:
        assert isinstance(vec.unwrapped, gym.vector.AsyncVectorEnv) and vec.num_envs == 2
        assert vec.metadata["autoreset_mode"] == gym.vector.AutoresetMode.NEXT_STEP
        assert vec.single_observation_space == sync.single_observation_space
        obs, info = vec.reset(seed=7)
        expected, expected_info = sync.reset(seed=7)
        assert vec.observation_space.contains(obs) and data_equivalence(obs, expected)
        assert obs["instruction"] == (sync.envs[0].episode.task.instruction,) * 2
        assert list(info["variant"]) == list(expected_info["variant"]) and set(info["variant"]) <= set(variants)
        action = np.stack([hold(sync.envs[i], {k: v[i] for k, v in expected.items()}) for i in range(2)])
        assert vec.action_space.contains(action)
        ends, seen = [], set()
        for step in range(9):  # 3 steps to the horizon, then the autoreset step: 2 more episodes and a step
            obs, reward, terminated, truncated, info = vec.step(action)
            got = sync.step(action)
            assert vec.observation_space.contains(obs)
            assert data_equivalence((obs, reward, terminated, truncated, info), got)
            ends.append(bool((terminated | truncated).all()))
            if step % 4 == 3:  # the step after the end is a reset: time 0, no reward, the reset's info
                assert np.allclose(obs["time"], 0.0) and not reward.any() and info["_seed"].all()
                seen |= set(info["variant"])
        assert ends == [False, False, True, False] * 2 + [False] and seen == set(variants), seen
        obs, info = vec.reset(seed=0, options={"variant": variants[-1]})
        assert list(info["variant"]) == [variants[-1]] * 2 and vec.observation_space.contains(obs)
    finally:
        vec.close()
        sync.close()


def test_each_reset_draws_a_variant_from_the_seed_or_takes_the_one_asked_for():
    from housebench.rollout.gym_env import make_env

    env = make_env(TASK, root=built(TASK, "v002").root, variants=["v000", "v001", "v002"], render_mode=None)
    drawn = [env.reset(seed=s)[1]["variant"] for s in (1, 2, 3, 4, 5, 1)]
    assert drawn[0] == drawn[-1] and len(set(drawn)) >= 2 and env.episode.name == f"{TASK}/{drawn[-1]}"
    obs, info = env.reset(options={"variant": "v002"})
    assert info["variant"] == "v002" and env.episode.name == f"{TASK}/v002" and env.observation_space.contains(obs)
    env.close()


def test_a_variant_whose_objects_differ_is_refused_at_its_reset():
    from housebench.rollout.env import Episode
    from housebench.rollout.gym_env import HousebenchEnv
    from tests.conftest import built_job

    def opener(name: str) -> Episode:  # "v001" opens another task's scene: other objects in the rows
        job = built_job(TASK if name == "v000" else "chill_drink", "v000", "noop", horizon_s=1.0)
        return Episode(job.scene, job.task_file, job.annotations, horizon_s=1.0)

    env = HousebenchEnv(opener("v000"), render_mode=None, variants=["v000", "v001"], opener=opener)
    with pytest.raises(ValueError, match=r"^chill_drink/v000: its objects, parts or spaces differ from "):
        env.reset(options={"variant": "v001"})
