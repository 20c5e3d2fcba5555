"""Preview pictures of settled scenes: a free camera framing the props from where the robot stands.

The camera looks steeply down at the props (their largest group) from the side of the first robot
base pose that the task's sampler recorded (inside a room, clear of furniture), and close, so walls
don't hide the props.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from PIL import Image

from housebench.io import r6, r6s
from housebench.sim.backend import Simulation, View
from housebench.state import SimState

ELEVATION = -72.0  # degrees: nearly overhead, so the camera stays over the props, clear of walls
MIN_DISTANCE, MAX_DISTANCE = 1.0, 2.2  # close in: a far camera ends up behind a wall
CLUSTER = 1.5  # metres: the props framed are those this close (xy) to the one with most neighbours


def _group(points: np.ndarray) -> np.ndarray:
    """The props worth one picture: those near the prop with the most neighbours within CLUSTER
    (props spread over two rooms would put the camera's target in the wall between them)."""
    near = np.hypot(*(points[:, None, :2] - points[None, :, :2]).transpose(2, 0, 1)) <= CLUSTER
    return points[near[int(np.argmax(near.sum(1)))]]


def frame_props(state: SimState, eye: tuple[float, float] | None) -> View:
    """A steep view of the props in ``state`` (its largest group), from the side of ``eye`` (x, y;
    the robot's base pose for them; None: from the south-east)."""
    points = _group(np.array([state.objects[n].pos for n in sorted(state.objects)]))
    centre = points.mean(axis=0)
    spread = float(np.ptp(points[:, :2], axis=0).max())
    eye = eye or (centre[0] + 1.0, centre[1] - 1.0)
    dx, dy = centre[0] - eye[0], centre[1] - eye[1]
    distance = min(max(MIN_DISTANCE, 1.8 * spread), MAX_DISTANCE)
    return View(r6s(centre), r6(distance), r6(math.degrees(math.atan2(dy, dx))), ELEVATION)


def write_preview(sim: Simulation, eye: tuple[float, float] | None, size: tuple[int, int], out: Path) -> None:
    """Render the props of ``sim`` (at its current state) to the PNG ``out``."""
    state = sim.get_state()
    view = frame_props(state, eye) if state.objects else None
    Image.fromarray(sim.render(view, *size)).save(out)
