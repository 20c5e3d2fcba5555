"""housebench: an asset and benchmark factory for household mobile manipulation."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from housebench.policy.base import Policy
    from housebench.rollout.gym_env import HousebenchEnv

__version__ = "0.1.0"


def make_env(task: str, variant: str = "v000", **kwargs: Any) -> HousebenchEnv:
    """A settled task scene as a ``gymnasium.Env`` (see :func:`housebench.rollout.gym_env.make_env`);
    imported on call, so ``import housebench`` stays light."""
    from housebench.rollout.gym_env import make_env as _make_env

    return _make_env(task, variant, **kwargs)


def make_policy(name: str, root: str = ".") -> Policy:
    """The policy ``name`` means in the project at ``root``: its ``policies.<name>`` entry of params.yaml (an
    import path ``class: module:Class``, ``class: remote``, or a built-in's params), a built-in or an installed
    entry point (:mod:`housebench.policy.registry`); imported on call."""
    from pathlib import Path

    from housebench.params import PARAMS
    from housebench.policy.registry import make_policy as _make_policy
    from housebench.policy.registry import policy_entries

    return _make_policy(name, policy_entries(Path(root) / PARAMS).get(name))
