"""The state a backend returns and the evaluator reads; the observation and action of a policy.

A state is plain JSON-able data::

    {"time": 1.25,
     "objects": {"apple": {"pos": [x, y, z], "quat": [w, x, y, z],
                           "linvel": [vx, vy, vz], "angvel": [wx, wy, wz]}},
     "joints": {"robot0:torso_lift_joint": 0.1},
     "temperatures_c": {"oatmeal": 21.0},
     "contacts": {"left": ["apple"], "right": ["apple"]}}

Positions in metres (world frame, Z up), quaternions scalar-first, velocities in m/s and rad/s.
``linvel``/``angvel`` are optional for hand-written states; ``temperatures_c`` may be empty.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from pydantic import BaseModel, ConfigDict, Field


class ObjectState(BaseModel):
    model_config = ConfigDict(extra="forbid")
    pos: tuple[float, float, float]
    quat: tuple[float, float, float, float]
    linvel: tuple[float, float, float] | None = None
    angvel: tuple[float, float, float] | None = None


class SimState(BaseModel):
    model_config = ConfigDict(extra="forbid")
    time: float = 0.0
    objects: dict[str, ObjectState] = Field(default_factory=dict)
    joints: dict[str, float] = Field(default_factory=dict)
    temperatures_c: dict[str, float] = Field(default_factory=dict)
    contacts: dict[str, list[str]] = Field(default_factory=dict)  # finger ("left"/"right") -> what it touches


@dataclass(frozen=True)
class Observation:
    """What a policy sees each control step (backend-neutral)."""

    time: float
    joints: dict[str, float]
    joint_velocities: dict[str, float]
    base: tuple[float, float, float]  # x, y, yaw
    ee_pos: tuple[float, float, float]
    ee_quat: tuple[float, float, float, float]
    gripper_opening: float
    finger_contacts: dict[str, tuple[str, ...]]
    objects: dict[str, ObjectState]
    parts: dict[str, float]
    temperatures_c: dict[str, float]
    images: dict[str, np.ndarray]
    state: SimState


@dataclass(frozen=True)
class Action:
    """Targets for the next control step: arm / torso / head joints, the base pose, the finger gap."""

    joints: dict[str, float] = field(default_factory=dict)
    base: tuple[float, float, float] | None = None
    gripper: float | None = None
    stop: bool = False
