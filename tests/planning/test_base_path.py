"""Base paths: A* over the free-floor grid, shortcut by line of sight."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import ndimage

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


def _wide_gap() -> tuple[FloorGrid, np.ndarray]:
    """The room split at x = 2 m with a 1.2 m gap at y 1.6-2.8 m, and the cells with room: 0.3 m off the wall."""
    free = np.ones((60, 80), dtype=bool)
    free[:, 39:41] = False
    free[32:56, 39:41] = True
    grid = FloorGrid(0.025, 0.025, 0.05, free)
    wall = ~free
    wall[:, :39] = wall[:, 41:] = False
    room = free & (ndimage.distance_transform_edt(~wall) * 0.05 > 0.3)
    return grid, room


def _crossing(path) -> float:
    """Where the path crosses x = 2 m."""
    for (x0, y0), (x1, y1) in zip(path, path[1:]):
        if min(x0, x1) <= 2.0 <= max(x0, x1):
            return y0 + (y1 - y0) * (2.0 - x0) / (x1 - x0)
    raise AssertionError(path)


def test_a_roomy_path_keeps_off_the_door_jamb_where_cells_with_room_join_its_ends():
    grid, room = _wide_gap()
    planner = BasePlanner(grid, room=room)
    plain = planner.path((0.5, 0.5), (3.5, 0.5))
    roomy = planner.path((0.5, 0.5), (3.5, 0.5), roomy=True)
    assert _crossing(plain) < 1.75  # round the lower jamb, as close as the grid lets it
    assert 1.85 < _crossing(roomy) < 2.55  # through the middle of the gap
    assert all(planner.segment_free(a, b) for a, b in zip(roomy, roomy[1:]))
    near_wall = planner.path((1.85, 0.5), (3.5, 0.5), roomy=True)  # a start with no room round it
    assert near_wall[0] == (1.85, 0.5) and 1.85 < _crossing(near_wall) < 2.55


def test_a_roomy_path_where_no_cells_with_room_join_its_ends_is_the_plain_one():
    grid, room = _wide_gap()
    room[:, 30:50] = False  # no room through the gap
    planner = BasePlanner(grid, room=room)
    assert planner.path((0.5, 0.5), (3.5, 0.5), roomy=True) == planner.path((0.5, 0.5), (3.5, 0.5))
