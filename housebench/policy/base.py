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

TRACKS = ("state", "vision")  # what a policy is shown: privileged state, or what the robot's own sensors see


@dataclass(frozen=True)
class PolicyContext:
    """What a policy is given at reset: the resolved task (goal, objects, thermal setup), the scene's
    ground-truth annotations, the control period and horizon, and ``log(kind, **detail)``, which records an
    event at the current simulated time in the ``events`` table. On the ``vision`` track ``task`` and ``scene``
    are None (they hold every prop's pose): the policy has the ``instruction`` and its observations."""

    task: TaskVariant | None
    scene: SceneAnnotations | None
    control_dt: float
    horizon_s: float
    log: Callable[..., None]
    track: str = "state"
    instruction: str = ""


class TrackError(ValueError):
    """A policy was given a track it cannot work on (the scripted policy needs the state track)."""


def require_state(ctx: PolicyContext, policy: str) -> tuple[TaskVariant, SceneAnnotations]:
    """The task and annotations of a policy that plans on ground truth; refused on any other track."""
    if ctx.task is None or ctx.scene is None:
        raise TrackError(f"policy '{policy}' needs the state track (it plans on ground truth), not '{ctx.track}'")
    return ctx.task, ctx.scene


class PolicyParams(BaseModel):
    """A policy's section of ``params.yaml`` (``policies.<name>``): strict, empty unless it says more."""

    model_config = ConfigDict(extra="forbid")


class Policy(Protocol):
    name: ClassVar[str]
    Params: ClassVar[type[PolicyParams]]
    tracks: ClassVar[tuple[str, ...]]  # the observation tracks it works on (an outside class without it: both)

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
    tracks = TRACKS

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
    """Every quantity of the scene the policy observes, flat: prop poses, robot and part joints, temperatures
    (the state track: all a verdict can read), and the camera images (the vision track sees props only there)."""
    values = [v for o in obs.objects.values() for v in (*o.pos, *o.quat)]
    values += list(obs.joints.values()) + list(obs.parts.values()) + list(obs.temperatures_c.values())
    images = [np.asarray(obs.images[k], dtype=float).ravel() for k in sorted(obs.images)]
    return np.concatenate([np.array(values, dtype=float), *images])
