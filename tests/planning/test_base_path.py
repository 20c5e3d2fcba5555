"""Base paths: A* over the free-floor grid, shortcut by line of sight."""

from __future__ import annotations

import math

import numpy as np
import pytest

from housebench.house.floor import FloorGrid
from housebench.planning.base_path import BasePlanner, NoPath


def _room_with_wall(gap: bool) -> FloorGrid:
    """A 4 x 3 m floor at 5 cm cells split by a wall at x = 2 m, with a 0.6 m gap at y 2.2-2.8 m."""
    free = np.ones((60, 80), dtype=bool)
    free[:, 39:41] = False
    if gap:
        free[44:56, 39:41] = True
    return FloorGrid(0.025, 0.025, 0.05, free)


def test_path_goes_through_the_gap_and_every_leg_is_free():
    planner = BasePlanner(_room_with_wall(gap=True))
    path = planner.path((0.5, 0.5), (3.5, 0.5))
    assert path[0] == (0.5, 0.5) and path[-1] == (3.5, 0.5)
    assert all(planner.segment_free(a, b) for a, b in zip(path, path[1:]))
    crossing = [p for p in path if 1.9 <= p[0] <= 2.1]
    assert crossing and all(2.15 <= p[1] <= 2.85 for p in crossing)
    assert len(path) <= 5  # shortcut: a handful of corners, not one waypoint per cell
    length = sum(math.dist(a, b) for a, b in zip(path, path[1:]))
    assert length < 1.1 * (math.dist((0.5, 0.5), (2.0, 2.5)) + math.dist((2.0, 2.5), (3.5, 0.5)))


def test_no_gap_no_path():
    with pytest.raises(NoPath):
        BasePlanner(_room_with_wall(gap=False)).path((0.5, 0.5), (3.5, 0.5))


def test_a_start_just_off_the_free_floor_snaps_to_the_nearest_free_cell():
    planner = BasePlanner(_room_with_wall(gap=True))
    path = planner.path((1.99, 0.5), (0.5, 0.5))  # inside the wall
    assert path[0] == (1.99, 0.5) and path[-1] == (0.5, 0.5)
    assert planner.grid.is_free(*path[1]) or path[1] == path[-1]
