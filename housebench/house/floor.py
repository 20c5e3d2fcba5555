"""The free-floor grid for base planning: which cells the robot's base centre may occupy, and
which of them it can reach from a start pose (4-connected flood fill).

A cell is free when its centre is at least ``radius`` from every obstacle box that the base could
hit: boxes that rise above the floor skin and start below the robot's height (door lintels don't
block). Everything is computed from the annotations' obstacle boxes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from scipy import ndimage

FLOOR_SKIN = 0.02  # boxes that end below this (the floor slab) do not block the base
ROBOT_HEIGHT = 1.2  # boxes that start above this (lintels) do not block it either

Box2 = tuple[float, float, float, float]
Box3 = tuple[float, float, float, float, float, float]


def blocks_base(zmin: float, zmax: float) -> bool:
    """Whether a box spanning ``zmin``..``zmax`` in height stands in the base's way."""
    return FLOOR_SKIN < zmax and zmin < ROBOT_HEIGHT


@dataclass(frozen=True)
class FloorGrid:
    """``free[i, j]`` for the cell centred at ``(x0 + j * res, y0 + i * res)``."""

    x0: float
    y0: float
    resolution: float
    free: np.ndarray

    def cell(self, x: float, y: float) -> tuple[int, int]:
        return round((y - self.y0) / self.resolution), round((x - self.x0) / self.resolution)

    def is_free(self, x: float, y: float) -> bool:
        i, j = self.cell(x, y)
        return 0 <= i < self.free.shape[0] and 0 <= j < self.free.shape[1] and bool(self.free[i, j])

    def reachable(self, x: float, y: float) -> np.ndarray:
        """The free cells connected to the cell of ``(x, y)`` (empty if that cell is not free)."""
        if not self.is_free(x, y):
            return np.zeros_like(self.free)
        labels, _ = ndimage.label(self.free)
        return labels == labels[self.cell(x, y)]

    def points(self, mask: np.ndarray) -> np.ndarray:
        """World ``(x, y)`` of the cells in ``mask``, shape (n, 2)."""
        i, j = np.nonzero(mask)
        return np.stack([self.x0 + j * self.resolution, self.y0 + i * self.resolution], axis=1)


def free_grid(obstacles: Iterable[Box3], bounds: Box2, radius: float, resolution: float) -> FloorGrid:
    """The grid over ``bounds`` (``[xmin, ymin, xmax, ymax]``) for a base of ``radius``."""
    xs = np.arange(bounds[0] + resolution / 2, bounds[2], resolution)
    ys = np.arange(bounds[1] + resolution / 2, bounds[3], resolution)
    gx, gy = np.meshgrid(xs, ys)
    free = np.ones(gx.shape, dtype=bool)
    for xmin, ymin, zmin, xmax, ymax, zmax in obstacles:
        if not blocks_base(zmin, zmax):
            continue
        dx = np.maximum(np.maximum(xmin - gx, gx - xmax), 0.0)
        dy = np.maximum(np.maximum(ymin - gy, gy - ymax), 0.0)
        free &= dx * dx + dy * dy >= radius * radius
    return FloorGrid(float(xs[0]), float(ys[0]), resolution, free)
