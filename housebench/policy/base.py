"""Policies: given the resolved task, the scene's annotations and an :class:`Observation` each control
step, choose an :class:`Action`. A policy never sees the simulator; planning code gets the robot's
kinematic model (:func:`housebench.robot.model.kinematic_model`) instead."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Protocol

import numpy as np
from pydantic import BaseModel, ConfigDict

from housebench.annotations.schema import SceneAnnotations
from housebench.state import Action, Observation
from housebench.tasks.spec import TaskVariant


@dataclass(frozen=True)
class PolicyContext:
    """What a policy is given at reset: the resolved task (goal, objects, thermal setup), the scene's
    ground-truth annotations, the control period and horizon, and ``log(kind, **detail)``, which records an
    event at the current simulated time in the ``events`` table."""

    task: TaskVariant
    scene: SceneAnnotations
    control_dt: float
    horizon_s: float
    log: Callable[..., None]


class PolicyParams(BaseModel):
    """A policy's section of ``params.yaml`` (``policies.<name>``): strict, empty unless it says more."""

    model_config = ConfigDict(extra="forbid")


class Policy(Protocol):
    name: ClassVar[str]
    Params: ClassVar[type[PolicyParams]]

    def __init__(self, params: PolicyParams) -> None: ...

    def reset(self, ctx: PolicyContext, obs: Observation) -> None:
        """Called once, with the first observation, before the first step of an episode."""

    def act(self, obs: Observation) -> Action | None:
        """The next action (None: keep the current targets)."""


REST_S = 2.0  # the control ends its episode once nothing has changed for this long, s
REST_TOL = 1e-6  # change over that window that counts as none: m, rad, quaternion, °C


class NoopPolicy:
    """The matched control: it never acts, so an episode measures what the scene does on its own. Once
    nothing in the scene has changed for ``REST_S`` (props asleep, robot still, temperatures steady) nothing
    can change any more, and it stops: the verdict is the horizon's, without simulating the idle rest."""

    name = "noop"
    Params = PolicyParams

    def __init__(self, params: PolicyParams) -> None:
        self.params = params
        self.still_since: tuple[float, np.ndarray] | None = None

    def reset(self, ctx: PolicyContext, obs: Observation) -> None:
        del ctx
        self.still_since = (obs.time, snapshot(obs))

    def act(self, obs: Observation) -> Action | None:
        since, then = self.still_since
        now = snapshot(obs)
        if now.shape != then.shape or np.max(np.abs(now - then), initial=0.0) > REST_TOL:
            self.still_since = (obs.time, now)
        elif obs.time - since >= REST_S:
            return Action(stop=True)
        return None


def snapshot(obs: Observation) -> np.ndarray:
    """Every quantity of the scene a verdict can read, flat: prop poses, robot and part joints, temperatures."""
    values = [v for o in obs.objects.values() for v in (*o.pos, *o.quat)]
    values += list(obs.joints.values()) + list(obs.parts.values()) + list(obs.temperatures_c.values())
    return np.array(values)
