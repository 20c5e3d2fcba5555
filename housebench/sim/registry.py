"""Simulator backends by name; each is imported only when asked for."""

from __future__ import annotations

from housebench.sim.backend import Backend

BACKENDS = ("mujoco",)


def make_backend(name: str, cache_max_mb: float | None = None) -> Backend:
    """The backend called ``name``; ``cache_max_mb`` bounds its compiled-model cache (None: the
    backend's default). MuJoCo is the embedded default; an Isaac Sim backend (RTX GPU only) would
    register here under "isaacsim" and read the same USD scenes."""
    if name == "mujoco":
        from housebench.sim.mujoco import MujocoBackend

        return MujocoBackend(cache_max_mb=cache_max_mb)
    raise ValueError(f"backend: unknown name '{name}' (available here: {', '.join(BACKENDS)})")
