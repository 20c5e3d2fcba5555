"""The MuJoCo backend: a composed USD stage in, a :class:`MujocoSimulation` out (cached compile)."""

from __future__ import annotations

from pathlib import Path

import mujoco

from housebench.sim.mujoco.cache import load_model
from housebench.sim.mujoco.compile import open_stage
from housebench.sim.mujoco.simulation import MujocoSimulation


class MujocoBackend:
    """:class:`housebench.sim.backend.Backend` for MuJoCo; ``cache_dir`` overrides the default."""

    name = "mujoco"
    version = mujoco.__version__

    def __init__(self, cache_dir: Path | None = None) -> None:
        self.cache_dir = cache_dir

    def load(self, stage_path: Path) -> MujocoSimulation:
        model, cache_file, hit = load_model(open_stage(Path(stage_path)), self.cache_dir)
        return MujocoSimulation(model, cache_file, hit)
