"""A vector env over a task's variants: :class:`HousebenchEnv` workers, one process each, in Gymnasium's
:class:`~gymnasium.vector.AsyncVectorEnv` (autoreset on the step after an episode ends).

Every worker holds the whole list of variants and draws one at each reset from its seeded generator
(:class:`~housebench.rollout.gym_env.HousebenchEnv`); ``reset(seed=s)`` seeds worker ``i`` with ``s + i``
and each autoreset draws the next variant and episode seed from that worker's generator, so a seeded run
replays exactly. Every variant must give the same observation space: on the ``state`` track the variants
of a task carry the same objects; the ``vision`` track's space is the same for every variant of a task.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from typing import Any

import gymnasium as gym

from housebench.rollout.gym_env import make_env
from housebench.sim.offscreen import use_offscreen_gl

DEFAULT_CONTEXT = "spawn"  # each worker starts its own MuJoCo and EGL context (nothing forked from the parent)
# Observations travel through pipes, not shared memory: Gymnasium 1.4's AsyncVectorEnv decodes a shared-memory
# observation's Text entries (the instruction) once, when it is made, and hands out those stale strings after
# every step ("aaaa..."); arrays are views and stay right. bench/bench_vector.py measures what pipes cost.
DEFAULT_SHARED_MEMORY = False


def make_vec_env(
    task: str,
    variants: Sequence[str] | None = None,
    num_envs: int | None = None,
    track: str = "state",
    context: str | None = DEFAULT_CONTEXT,
    autoreset_mode: gym.vector.AutoresetMode = gym.vector.AutoresetMode.NEXT_STEP,
    render_mode: str | None = None,
    variant: str | None = None,
    shared_memory: bool = DEFAULT_SHARED_MEMORY,
    **options: Any,
) -> gym.vector.AsyncVectorEnv:
    """``num_envs`` workers (default: one per variant, at most one per core) over ``variants`` (default:
    ``[variant or "v000"]``) of ``task`` on ``track``; ``options`` go to
    :func:`~housebench.rollout.gym_env.make_env` (``root``, ``horizon_s``, ``image_size``, ...). Also the
    vector entry point of the ``housebench/<task>-v1`` ids: ``gymnasium.make_vec(id, num_envs=4, variants=[...])``."""
    if isinstance(variants, str):
        variants = (variants,)
    variants = tuple(variants) if variants is not None else (variant or "v000",)
    if not variants:
        raise ValueError("variants: give at least one variant")
    use_offscreen_gl()  # before the workers start: they inherit MUJOCO_GL and import MuJoCo with it
    count = num_envs or min(len(variants), os.cpu_count() or 1)
    fns = env_fns(task, variants, count, track=track, render_mode=render_mode, **options)
    return gym.vector.AsyncVectorEnv(fns, shared_memory=shared_memory, context=context, autoreset_mode=autoreset_mode)


def env_fns(task: str, variants: Sequence[str], num_envs: int, **options: Any) -> list[functools.partial]:
    """The workers' env makers (picklable, for any vector env): ``num_envs`` envs over all of ``variants``."""
    return [functools.partial(make_env, task, variants=tuple(variants), **options) for _ in range(num_envs)]
