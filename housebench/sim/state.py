"""The simulator state format shared by every backend, the evaluator and the rollout.

A state is plain JSON-able data::

    {"time": 1.25,
     "objects": {"apple": {"pos": [x, y, z], "quat": [w, x, y, z],
                           "linvel": [vx, vy, vz], "angvel": [wx, wy, wz]}},
     "joints": {"robot0:torso_lift_joint": 0.1},
     "temperatures_c": {"oatmeal": 21.0}}

Positions in metres (world frame, Z up), quaternions scalar-first, velocities in m/s and rad/s.
``linvel``/``angvel`` are optional for hand-written states; ``temperatures_c`` may be empty.
"""

from __future__ import annotations

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
