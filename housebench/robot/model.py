"""Fetch's robot-only kinematic model, for IK (mink) and collision checks off the running physics.

Same joint names as the simulator (``robot0:`` prefix): planar base x / y / yaw in the world, torso,
arm, head and fingers; the ``robot0:pad`` site is the grasp frame (centre of the finger pads).
"""

from __future__ import annotations

import mujoco

from housebench.robot.fetch import PREFIX
from housebench.sim.mujoco.fetch import fetch_spec


def kinematic_model() -> mujoco.MjModel:
    """Fetch alone, attached with its ``robot0:`` prefix at the world origin."""
    spec = mujoco.MjSpec()
    spec.attach(fetch_spec(), prefix=PREFIX, frame=spec.worldbody.add_frame())
    return spec.compile()
