"""housebench: an asset and benchmark factory for household mobile manipulation."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from housebench.rollout.gym_env import HousebenchEnv

__version__ = "0.1.0"


def make_env(task: str, variant: str = "v000", **kwargs: Any) -> HousebenchEnv:
    """A settled task scene as a ``gymnasium.Env`` (see :func:`housebench.rollout.gym_env.make_env`);
    imported on call, so ``import housebench`` stays light."""
    from housebench.rollout.gym_env import make_env as _make_env

    return _make_env(task, variant, **kwargs)
