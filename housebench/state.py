"""The plain data at the bottom of the library: the simulator state that every backend returns and the
evaluator reads, and the observations and actions of the episode loop.

A state is plain JSON-able data::

    {"time": 1.25,
     "objects": {"apple": {"pos": [x, y, z], "quat": [w, x, y, z],
                           "linvel": [vx, vy, vz], "angvel": [wx, wy, wz]}},
     "joints": {"robot0:torso_lift_joint": 0.1},
     "temperatures_c": {"oatmeal": 21.0}}

Positions in metres (world frame, Z up), quaternions scalar-first, velocities in m/s and rad/s.
``linvel``/``angvel`` are optional for hand-written states; ``temperatures_c`` may be empty. Every
number is finite and in range, and a quaternion is unit length within 1e-3 (refused, never
normalised): NaN from a simulator that blew up is an error, never a verdict.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from housebench.numbers import Celsius, Finite, Quat, Seconds, Speed, Vec3


class ObjectState(BaseModel):
    """One body's pose and velocity: finite, in range, the quaternion unit length (housebench.numbers)."""

    model_config = ConfigDict(extra="forbid")
    pos: Vec3
    quat: Quat
    linvel: tuple[Speed, Speed, Speed] | None = None
    angvel: tuple[Speed, Speed, Speed] | None = None


class SimState(BaseModel):
    model_config = ConfigDict(extra="forbid")
    time: Seconds = 0.0
    objects: dict[str, ObjectState] = Field(default_factory=dict)
    joints: dict[str, Finite] = Field(default_factory=dict)
    temperatures_c: dict[str, Celsius] = Field(default_factory=dict)
    contacts: dict[str, list[str]] = Field(default_factory=dict)  # robot finger -> what it touches


FINGERS = ("left", "right")
HOUSE_CONTACT = "house"  # what a finger touching static house geometry reports


@dataclass(frozen=True)
class Observation:
    """What a policy sees after each control step, the same for every backend.

    ``joints``/``joint_velocities`` are the robot's (``robot0:`` names, base joints included);
    ``base`` is x, y, yaw; ``ee_pos``/``ee_quat`` the gripper frame in the world; ``gripper_opening`` the
    finger gap in metres; ``finger_contacts`` what each finger touches (prop names, part names such as
    ``fridge/door``, or ``house``); ``parts`` the articulated part joint values (closed at 0);
    ``images`` only the cameras asked for (``head/rgb``, ``head/depth``, ``third/rgb``, ...);
    ``state`` the full :class:`SimState` the evaluator reads, temperatures included (None on the ``vision``
    track, which shows no prop or part pose); ``instruction`` the task's instruction in words.
    """

    time: float
    joints: dict[str, float]
    joint_velocities: dict[str, float]
    base: tuple[float, float, float]
    ee_pos: tuple[float, float, float]
    ee_quat: tuple[float, float, float, float]
    gripper_opening: float
    finger_contacts: dict[str, tuple[str, ...]]
    objects: dict[str, ObjectState]
    parts: dict[str, float]
    temperatures_c: dict[str, float]
    state: SimState | None
    images: dict[str, np.ndarray] = field(default_factory=dict)
    instruction: str = ""

    def holding(self, obj: str) -> bool:
        """Whether both fingers touch ``obj``."""
        return all(obj in self.finger_contacts.get(f, ()) for f in ("left", "right"))

    def touching(self) -> bool:
        """Whether either finger touches anything."""
        return any(self.finger_contacts.get(f) for f in ("left", "right"))


@dataclass(frozen=True)
class Action:
    """Targets for the robot's position actuators; what an action leaves out keeps its current target.

    ``joints``: arm, torso and head joint targets (``robot0:`` names); ``base``: x, y, yaw in the world;
    ``gripper``: the finger gap in metres (0 closed .. 0.1 open); ``stop``: the policy is done, the episode
    ends and is scored.
    """

    joints: dict[str, float] = field(default_factory=dict)
    base: tuple[float, float, float] | None = None
    gripper: float | None = None
    stop: bool = False
