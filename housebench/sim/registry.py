"""Simulator backends by name; each is imported only when asked for."""

from __future__ import annotations

from housebench.sim.backend import Backend

BACKENDS = ("mujoco", "newton")


def make_backend(name: str, cache_max_mb: float | None = None) -> Backend:
    """The backend called ``name``; ``cache_max_mb`` bounds MuJoCo's compiled-model cache (None: its
    default). MuJoCo is the embedded default; Newton (``pip install -e .[newton]``) reads the same USD
    scenes with its own importer; an Isaac Sim backend (RTX GPU only) would register here under "isaacsim"."""
    if name == "mujoco":
        from housebench.sim.mujoco import MujocoBackend

        return MujocoBackend(cache_max_mb=cache_max_mb)
    if name == "newton":
        try:
            from housebench.sim.newton import NewtonBackend
        except ImportError as err:
            raise ValueError(f"backend: newton is not installed ({err}); pip install -e '.[newton]'") from err
        return NewtonBackend()
    raise ValueError(f"backend: unknown name '{name}' (available here: {', '.join(BACKENDS)})")


def check_backend(name: str) -> None:
    """Refuse a backend that cannot run here (unknown, or its extra not installed) with one line naming
    ``rollout.backend``, before a run touches any output (else every episode became a crash row)."""
    if name not in BACKENDS:
        raise ValueError(f"rollout.backend: unknown name '{name}' (available here: {', '.join(BACKENDS)})")
    if name == "newton":
        try:
            import housebench.sim.newton  # noqa: F401  (imports newton and warp)
        except ImportError as err:
            raise ValueError(f"rollout.backend: newton is not installed ({err}); pip install -e '.[newton]'") from None
