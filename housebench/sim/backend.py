"""The simulator backend interface. MuJoCo (``housebench.sim.mujoco``) is the default; an Isaac Sim
backend would implement the same two protocols over the same USD files."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from housebench.state import Observation, SimState


@dataclass(frozen=True)
class View:
    """A free camera: looks at ``lookat`` from ``distance`` metres, ``azimuth`` (degrees from +x,
    counter-clockwise, the direction the camera looks) and ``elevation`` (degrees, negative: down)."""

    lookat: tuple[float, float, float]
    distance: float
    azimuth: float = 135.0
    elevation: float = -40.0


class Simulation(Protocol):
    """One loaded scene: a composed USD stage (house + task layer + assets + robot)."""

    timestep: float  # seconds per physics step

    @property
    def time(self) -> float: ...

    def step(self, n: int = 1) -> None:
        """Advance the physics by ``n`` steps."""

    def get_state(self) -> SimState:
        """Every prop's pose and velocities, every joint value, in the shared state format."""

    def set_state(self, state: SimState) -> None:
        """Set object poses/velocities and joint values named in ``state`` (others unchanged)."""

    def set_control(self, targets: dict[str, float]) -> None:
        """Position targets for named actuators (e.g. ``robot0:torso_lift_joint``)."""

    def observe(self, cameras: tuple[str, ...] = (), size: tuple[int, int] = (320, 240)) -> Observation:
        """The robot, props and parts as an :class:`Observation` (temperatures empty: the episode's
        thermal model adds them), with RGB and depth images of ``cameras`` (``head``, ``third``)."""

    def render(
        self,
        camera: str | View | None = None,
        width: int = 640,
        height: int = 480,
        depth: bool = False,
        collision: bool = False,
    ) -> np.ndarray:
        """An RGB image (H, W, 3 uint8), or with ``depth`` metres (H, W float32), from a named camera
        (``head`` and ``third`` are the robot's, following it), a :class:`View`, or (None) a free camera
        over the whole scene; ``collision``: the collision shapes instead of the visual meshes."""


class Backend(Protocol):
    name: str  # "mujoco"
    version: str  # the simulator's version string

    def load(self, stage_path: Path) -> Simulation:
        """Compile and load the composed USD stage at ``stage_path``."""
