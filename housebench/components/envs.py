"""Component tasks as Gymnasium environments: ``make_component_env`` and the ``gymnasium.make`` ids.

``register()`` adds one id per shipped component, ``housebench/<verb>-<what>-v1`` for
``scenarios/<verb>_<what>.yaml``; ``gymnasium.make("housebench/pick-item-v1", start="s003")`` is that start
(its base scene's objects fix the observation space, so one env is one start). Rewards, termination on
success and truncation at the component's horizon are :class:`~housebench.rollout.gym_env.HousebenchEnv`'s.
Registering reads only the scenario folder's file names; the files, the simulator and the env are loaded when
an id is made.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import gymnasium as gym

if TYPE_CHECKING:
    from housebench.rollout.gym_env import HousebenchEnv

SCENARIOS = Path(__file__).with_name("scenarios")
NAMESPACE, VERSION = "housebench", 1


def gym_id(name: str) -> str:
    """``housebench/<verb>-<what>-v1`` for the component ``<verb>_<what>`` (verbs are one word)."""
    verb, _, what = name.partition("_")
    return f"{NAMESPACE}/{verb}-{what or verb}-v{VERSION}"


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
    image_size: tuple[int, int] = (160, 120),
) -> HousebenchEnv:
    """Start ``start`` (default: the first) of component ``name`` (a shipped one, or a scenario file's path)
    on the built scenes under ``root``, on observation ``track`` (images at ``image_size``, width x height)."""
    from housebench.paths import Layout
    from housebench.rollout.gym_env import HousebenchEnv
    from housebench.sim.offscreen import use_offscreen_gl

    from .scenario import component
    from .task import ComponentEpisode, scene_files

    comp = component(name)
    if cameras or render_mode or track == "vision":
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
        image_size=tuple(image_size),
        track=track,
    )
    return HousebenchEnv(episode, render_mode=render_mode)


def register(folder: Path = SCENARIOS) -> list[str]:
    """Register every shipped component's id (idempotent); the ids, sorted by component."""
    ids = []
    for path in sorted(Path(folder).glob("*.yaml")):
        ids.append(gym_id(path.stem))
        if ids[-1] not in gym.registry:
            gym.register(ids[-1], entry_point=f"{__name__}:make_component_env", kwargs={"name": path.stem})
    return ids
