"""Gymnasium ids for the benchmark's tasks: ``housebench/<task>-v1`` for every task spec in ``tasks/``
(the spec's file name), made by :func:`housebench.rollout.gym_env.make_env` and vectorised over variants
by :func:`housebench.rollout.vector.make_vec_env`::

    import gymnasium as gym
    import housebench.envs  # noqa: F401  (registers the ids; or gym.make("housebench.envs:housebench/...-v1"))

    env = gym.make("housebench/put_fruit_in_container-v1", variant="v000", track="vision", root=".")
    vec = gym.make_vec("housebench/put_fruit_in_container-v1", variants=["v000", "v001"], track="vision")

Gymnasium 1.x dropped its plugin entry points (the ``gymnasium.envs`` group is no longer read at its import),
so the ids are registered by importing this module, as ale_py and gymnasium_robotics do; ``import housebench``
registers nothing and imports neither gymnasium nor MuJoCo. Registering reads only the spec folder's names
(the env and its simulator are imported when an id is made).
"""

from __future__ import annotations

from pathlib import Path

import gymnasium as gym

from housebench.paths import TASK_SPECS_DIR

NAMESPACE = "housebench"
VERSION = 1
SPECS = Path(__file__).resolve().parents[1] / TASK_SPECS_DIR  # the checkout's task specs


def env_id(task: str) -> str:
    """The Gymnasium id of ``task``: ``housebench/<task>-v1``."""
    return f"{NAMESPACE}/{task}-v{VERSION}"


def task_names(specs: Path = SPECS) -> list[str]:
    """The tasks of the spec folder, sorted (file stems of ``tasks/*.json``)."""
    return sorted(p.stem for p in specs.glob("*.json"))


def register_all(specs: Path = SPECS) -> list[str]:
    """Register every task of ``specs``; the ids, sorted. Registering again replaces the same spec."""
    ids = []
    for task in task_names(specs):
        ids.append(env_id(task))
        if ids[-1] in gym.registry:
            continue
        gym.register(
            id=ids[-1],
            entry_point="housebench.rollout.gym_env:make_env",
            vector_entry_point="housebench.rollout.vector:make_vec_env",
            kwargs={"task": task},
        )
    return ids


IDS = register_all()
