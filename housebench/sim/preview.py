"""Preview pictures of settled scenes: a free camera framing the props from where the robot stands.

The camera looks at the props' centre from above the first robot base pose that the task's sampler
recorded (inside a room, clear of furniture), so walls don't hide the props.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from PIL import Image

from housebench.io import r6, r6s
from housebench.sim.backend import Simulation, View
from housebench.state import SimState

ELEVATION = -35.0  # degrees
MIN_DISTANCE, MAX_DISTANCE = 1.2, 3.0


def frame_props(state: SimState, eye: tuple[float, float] | None) -> View:
    """A view of every object in ``state`` from above ``eye`` (x, y; None: from the south-east)."""
    points = np.array([o.pos for o in state.objects.values()])
    centre = points.mean(axis=0)
    spread = float(np.ptp(points[:, :2], axis=0).max())
    eye = eye or (centre[0] + 1.0, centre[1] - 1.0)
    dx, dy = centre[0] - eye[0], centre[1] - eye[1]
    horizontal = math.hypot(dx, dy) or 1.0
    distance = horizontal / math.cos(math.radians(ELEVATION))
    distance = min(max(distance, MIN_DISTANCE, 1.5 * spread), MAX_DISTANCE)
    return View(r6s(centre), r6(distance), r6(math.degrees(math.atan2(dy, dx))), ELEVATION)


def write_preview(sim: Simulation, eye: tuple[float, float] | None, size: tuple[int, int], out: Path) -> None:
    """Render the props of ``sim`` (at its current state) to the PNG ``out``."""
    state = sim.get_state()
    view = frame_props(state, eye) if state.objects else None
    Image.fromarray(sim.render(view, *size)).save(out)
