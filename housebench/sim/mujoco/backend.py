"""The MuJoCo backend: a composed USD stage in, a :class:`MujocoSimulation` out (cached compile)."""

from __future__ import annotations

from pathlib import Path

import mujoco

from housebench.sim.mujoco.cache import MAX_BYTES, load_model
from housebench.sim.mujoco.compile import open_stage
from housebench.sim.mujoco.simulation import MujocoSimulation


class MujocoBackend:
    """:class:`housebench.sim.backend.Backend` for MuJoCo; ``cache_dir`` overrides the default compiled-model
    cache, ``cache_max_mb`` its bound."""

    name = "mujoco"
    version = mujoco.__version__

    def __init__(self, cache_dir: Path | None = None, cache_max_mb: float | None = None) -> None:
        self.cache_dir = cache_dir
        self.cache_max_bytes = MAX_BYTES if cache_max_mb is None else int(cache_max_mb * 2**20)

    def load(self, stage_path: Path) -> MujocoSimulation:
        model, cache_file, hit = load_model(open_stage(Path(stage_path)), self.cache_dir, self.cache_max_bytes)
        return MujocoSimulation(model, cache_file, hit)
