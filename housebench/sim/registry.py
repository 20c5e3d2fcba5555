"""Simulator backends by name; each is imported only when asked for."""

from __future__ import annotations

from housebench.sim.backend import Backend

BACKENDS = ("mujoco",)


def make_backend(name: str) -> Backend:
    """The backend called ``name``. MuJoCo is the embedded default; an Isaac Sim backend (RTX GPU
    only) would register here under "isaacsim" and read the same USD scenes."""
    if name == "mujoco":
        from housebench.sim.mujoco import MujocoBackend

        return MujocoBackend()
    raise ValueError(f"backend: unknown name '{name}' (available here: {', '.join(BACKENDS)})")
