"""MuJoCo backend (the default): every MuJoCo-specific line of the simulator layer lives here.

Rendering is offscreen; set ``MUJOCO_GL=egl`` (or ``osmesa``) before mujoco is first imported.
"""

from housebench.sim.mujoco.backend import MujocoBackend

__all__ = ["MujocoBackend"]
