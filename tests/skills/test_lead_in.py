"""The straight lead-in of a side place starts on the free floor: the study desk's stance has a wall 0.43 m
behind it, and a lead-in 0.35 m back, off the free floor, stalled the base on the wall before the place."""

from __future__ import annotations

import math

import numpy as np

from housebench.house.floor import FloorGrid
from housebench.skills.carry import floor_lead_in
from housebench.skills.tuning import tuning


def _floor_up_to(x_max: float) -> FloorGrid:
    """2 x 2 m of floor at 5 cm cells, free where x <= ``x_max`` (a wall beyond)."""
    xs = np.arange(41) * 0.05
    return FloorGrid(0.0, 0.0, 0.05, np.tile(xs <= x_max + 1e-9, (41, 1)))


def test_a_lead_in_on_the_free_floor_keeps_its_full_length():
    assert floor_lead_in(_floor_up_to(1.5), (0.5, 1.0, math.pi)) == (0.5 + tuning().pick.lead_ins_m[0], 1.0, math.pi)


def test_a_lead_in_shortens_to_stay_on_the_free_floor_or_is_none():
    x, y, yaw = floor_lead_in(_floor_up_to(0.8), (0.5, 1.0, math.pi))
    assert 0.5 < x <= 0.8 and y == 1.0 and yaw == math.pi
    assert floor_lead_in(_floor_up_to(0.6), (0.5, 1.0, math.pi)) is None  # no lead-in: driven straight to the stance
