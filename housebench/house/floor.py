"""Where the robot's base may stand, with heights: the free-floor grid for base planning and the
collision test of one base pose.

The robot is its :class:`Footprint`: a base disc up to ``base_height`` and a column above it up to
``height``. A box blocks the base where it reaches down into the base's heights (above the floor
skin), the column where it spans the column's heights; a box above the robot (a door lintel) or
only above the base (a tabletop, which the base slides under) blocks less or nothing.

- :func:`free_grid`: cells whose centre keeps the base disc (``radius``) and the column
  (``column_radius``, any heading) clear of every box; 4-connected reachability by flood fill.
- :class:`Obstacles` / :meth:`Obstacles.fits`: poses ``(x, y, yaw)`` whose base disc and column
  (its rectangle in the base frame, turned by ``yaw``) touch no box, many poses at once.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from scipy import ndimage

from housebench.annotations.schema import Footprint

FLOOR_SKIN = 0.02  # boxes that end below this (the floor slab) do not block the base

Box2 = tuple[float, float, float, float]
Box3 = tuple[float, float, float, float, float, float]


def blocks_base(fp: Footprint, zmin: float, zmax: float) -> bool:
    """Whether a box spanning ``zmin``..``zmax`` reaches into the base's heights."""
    return FLOOR_SKIN < zmax and zmin < fp.base_height


def blocks_column(fp: Footprint, zmin: float, zmax: float) -> bool:
    """Whether a box spanning ``zmin``..``zmax`` reaches into the column's heights."""
    return fp.base_height < zmax and zmin < fp.height


def clearance(fp: Footprint, zmin: float, zmax: float) -> float | None:
    """How far the base centre must keep from a box at these heights, any heading (None: never hit)."""
    radii = [r for r, hit in ((fp.radius, blocks_base), (fp.column_radius, blocks_column)) if hit(fp, zmin, zmax)]
    return max(radii, default=None)


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
        return bool(self.lookup(self.free, x, y))

    def lookup(self, mask: np.ndarray, x: float, y: float) -> bool:
        """``mask`` at the cell of ``(x, y)`` (False outside the grid)."""
        i, j = self.cell(x, y)
        return 0 <= i < mask.shape[0] and 0 <= j < mask.shape[1] and bool(mask[i, j])

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


def grid_axes(bounds: Box2, resolution: float) -> tuple[np.ndarray, np.ndarray]:
    """The x and y of the cell centres of the grid over ``bounds`` (``[xmin, ymin, xmax, ymax]``)."""
    return (
        np.arange(bounds[0] + resolution / 2, bounds[2], resolution),
        np.arange(bounds[1] + resolution / 2, bounds[3], resolution),
    )


def free_grid(obstacles: Iterable[Box3], bounds: Box2, fp: Footprint, resolution: float) -> FloorGrid:
    """The grid over ``bounds`` (``[xmin, ymin, xmax, ymax]``) for the robot of footprint ``fp``."""
    xs, ys = grid_axes(bounds, resolution)
    free = np.ones((len(ys), len(xs)), dtype=bool)
    for xmin, ymin, zmin, xmax, ymax, zmax in obstacles:
        radius = clearance(fp, zmin, zmax)
        if radius is None:
            continue
        # only the cells within ``radius`` of the box can be blocked: a window of the grid, one cell wider
        i0, i1 = np.searchsorted(ys, ymin - radius) - 1, np.searchsorted(ys, ymax + radius) + 1
        j0, j1 = np.searchsorted(xs, xmin - radius) - 1, np.searchsorted(xs, xmax + radius) + 1
        i0, j0 = max(i0, 0), max(j0, 0)
        gx, gy = np.meshgrid(xs[j0:j1], ys[i0:i1])
        dx = np.maximum(np.maximum(xmin - gx, gx - xmax), 0.0)
        dy = np.maximum(np.maximum(ymin - gy, gy - ymax), 0.0)
        free[i0:i1, j0:j1] &= dx * dx + dy * dy >= radius * radius
    return FloorGrid(float(xs[0]), float(ys[0]), resolution, free)


class Obstacles:
    """The boxes that can touch the base or the column, as arrays, for collision tests of poses."""

    def __init__(self, boxes: Iterable[Box3], fp: Footprint) -> None:
        boxes = list(boxes)
        self.fp = fp
        self.base = np.array([b for b in boxes if blocks_base(fp, b[2], b[5])], dtype=float).reshape(-1, 6)
        self.column = np.array([b for b in boxes if blocks_column(fp, b[2], b[5])], dtype=float).reshape(-1, 6)

    def fits(self, x: np.ndarray, y: np.ndarray, yaw: np.ndarray) -> np.ndarray:
        """For each pose, whether neither the base disc nor the turned column touches a box."""
        x, y, yaw = (np.asarray(v, dtype=float)[:, None] for v in (x, y, yaw))
        b = self.base
        dx = np.maximum(np.maximum(b[:, 0] - x, x - b[:, 3]), 0.0)
        dy = np.maximum(np.maximum(b[:, 1] - y, y - b[:, 4]), 0.0)
        base_hit = (dx * dx + dy * dy < self.fp.radius**2).any(axis=1)
        return ~base_hit & ~self._column_hits(x, y, yaw).any(axis=1)

    def _column_hits(self, x: np.ndarray, y: np.ndarray, yaw: np.ndarray) -> np.ndarray:
        """Separating-axis test of the turned column rectangle against every column box, (poses, boxes)."""
        x0, y0, x1, y1 = self.fp.column
        c, s = np.cos(yaw), np.sin(yaw)
        mu, mv, hu, hv = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2, (y1 - y0) / 2
        cx, cy = x + c * mu - s * mv, y + s * mu + c * mv
        b = self.column
        bx, by, ex, ey = (
            (b[:, 0] + b[:, 3]) / 2,
            (b[:, 1] + b[:, 4]) / 2,
            (b[:, 3] - b[:, 0]) / 2,
            (b[:, 4] - b[:, 1]) / 2,
        )
        dx, dy = bx - cx, by - cy
        ac, as_ = np.abs(c), np.abs(s)
        apart = (
            (np.abs(dx) >= ex + hu * ac + hv * as_)
            | (np.abs(dy) >= ey + hu * as_ + hv * ac)
            | (np.abs(dx * c + dy * s) >= hu + ex * ac + ey * as_)
            | (np.abs(-dx * s + dy * c) >= hv + ex * as_ + ey * ac)
        )
        return ~apart
