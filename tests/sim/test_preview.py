"""Scene previews frame the props: their largest group, from nearly overhead and close, so a wall
between the camera and the props (or between two groups of props) is not what the picture shows."""

from __future__ import annotations

import math

import pytest

from housebench.sim.preview import MAX_DISTANCE, frame_props
from housebench.state import ObjectState, SimState


def _state(**positions) -> SimState:
    return SimState(objects={n: ObjectState(pos=p, quat=(1, 0, 0, 0)) for n, p in positions.items()})


def test_the_largest_group_is_framed_not_the_wall_between_groups():
    state = _state(apple=(1.0, 1.0, 0.75), bowl=(1.3, 1.1, 0.75), book=(6.0, 4.0, 0.5))
    view = frame_props(state, eye=(1.2, 0.3))
    assert view.lookat == pytest.approx((1.15, 1.05, 0.75))
    assert view.azimuth == pytest.approx(math.degrees(math.atan2(1.05 - 0.3, 1.15 - 1.2)), abs=1e-4)


def test_the_camera_stands_over_the_props():
    view = frame_props(_state(a=(0.0, 0.0, 0.9), b=(0.5, 0.0, 0.9)), eye=None)
    horizontal = view.distance * math.cos(math.radians(view.elevation))
    assert view.elevation <= -60 and horizontal <= 0.7 and view.distance <= MAX_DISTANCE
