"""Policies: given the resolved task, the scene's annotations and an :class:`Observation` each control
step, choose an :class:`Action`. A policy never sees the simulator; planning code gets the robot's
kinematic model (:func:`housebench.robot.model.kinematic_model`) instead."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Protocol

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


class NoopPolicy:
    """The matched control: it never acts, so an episode measures what the scene does on its own."""

    name = "noop"
    Params = PolicyParams

    def __init__(self, params: PolicyParams) -> None:
        self.params = params

    def reset(self, ctx: PolicyContext, obs: Observation) -> None:
        del ctx, obs

    def act(self, obs: Observation) -> Action | None:
        del obs
        return None
