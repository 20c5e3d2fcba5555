"""Component tasks as Gymnasium environments: ``make_component_env`` and the ``gymnasium.make`` ids.

``register()`` adds one id per shipped component, ``housebench/<verb>-<what>-v1`` for
``scenarios/<verb>_<what>.yaml``; ``gymnasium.make("housebench/pick-fruit-v1", start="s003")`` is that start
(its base scene's objects fix the observation space, so one env is one start). Rewards, termination on
success and truncation at the component's horizon are :class:`~housebench.rollout.gym_env.HousebenchEnv`'s.
"""

from __future__ import annotations

from pathlib import Path

import gymnasium as gym

from housebench.paths import Layout
from housebench.rollout.gym_env import HousebenchEnv
from housebench.sim.offscreen import use_offscreen_gl

from .scenario import component, components
from .task import ComponentEpisode, scene_files


def make_component_env(
    name: str,
    start: str | None = None,
    root: Path | str = ".",
    backend: str = "mujoco",
    control_dt: float = 0.1,
    horizon_s: float | None = None,
    pose_noise_m: float = 0.0,
    cameras: tuple[str, ...] = (),
    render_mode: str | None = "rgb_array",
    track: str = "state",
) -> HousebenchEnv:
    """Start ``start`` (default: the first) of component ``name`` (a shipped one, or a scenario file's path)
    on the built scenes under ``root``."""
    comp = component(name)
    if cameras or render_mode:
        use_offscreen_gl()
    start = start or comp.spec.starts[0].id
    episode = ComponentEpisode(
        comp,
        start,
        scene_files(Layout(root=Path(root)), comp, start),
        backend=backend,
        control_dt=control_dt,
        horizon_s=horizon_s,
        pose_noise_m=pose_noise_m,
        cameras=tuple(cameras),
        track=track,
    )
    return HousebenchEnv(episode, render_mode=render_mode)


def register() -> list[str]:
    """Register every shipped component's id (idempotent); returns the ids."""
    ids = []
    for name, comp in components().items():
        if comp.gym_id not in gym.registry:
            gym.register(comp.gym_id, entry_point=f"{__name__}:make_component_env", kwargs={"name": name})
        ids.append(comp.gym_id)
    return ids
