"""A vector env over a task's variants: one :class:`HousebenchEnv` per worker process, in Gymnasium's
:class:`~gymnasium.vector.AsyncVectorEnv` (shared memory, autoreset on the step after an episode ends).

Worker ``i`` runs variant ``variants[i % len(variants)]``; ``reset(seed=s)`` seeds worker ``i`` with
``s + i`` and every autoreset draws the next episode seed from that worker's generator, so a seeded run
replays exactly. Every worker must have the same observation space: on the ``state`` track the variants
of a task carry the same objects; the ``vision`` track's space is the same for every variant of every task.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import gymnasium as gym

from housebench.rollout.gym_env import make_env
from housebench.sim.offscreen import use_offscreen_gl

DEFAULT_CONTEXT = "spawn"  # each worker starts its own MuJoCo and EGL context (nothing forked from the parent)


def make_vec_env(
    task: str,
    variants: Sequence[str] | None = None,
    num_envs: int | None = None,
    track: str = "state",
    context: str | None = DEFAULT_CONTEXT,
    autoreset_mode: gym.vector.AutoresetMode = gym.vector.AutoresetMode.NEXT_STEP,
    render_mode: str | None = None,
    variant: str | None = None,
    **options: Any,
) -> gym.vector.AsyncVectorEnv:
    """``num_envs`` workers (default: one per variant) over ``variants`` (default: ``[variant or "v000"]``)
    of ``task`` on ``track``;
    ``options`` go to :func:`~housebench.rollout.gym_env.make_env` (``root``, ``horizon_s``,
    ``image_size``, ...). Also the vector entry point of the ``housebench/<task>-v1`` ids
    (``gymnasium.make_vec(id, variants=[...])``)."""
    if isinstance(variants, str):
        variants = (variants,)
    variants = tuple(variants) if variants is not None else (variant or "v000",)
    if not variants:
        raise ValueError("variants: give at least one variant")
    use_offscreen_gl()  # before the workers start: they inherit MUJOCO_GL and import MuJoCo with it
    fns = env_fns(task, variants, num_envs, track=track, render_mode=render_mode, **options)
    return gym.vector.AsyncVectorEnv(fns, context=context, autoreset_mode=autoreset_mode)


def env_fns(task: str, variants: Sequence[str], num_envs: int | None = None, **options: Any) -> list[functools.partial]:
    """The workers' env makers (picklable): ``num_envs`` (default: one per variant), cycling over ``variants``."""
    count = num_envs or len(variants)
    return [functools.partial(make_env, task, variants[i % len(variants)], **options) for i in range(count)]
