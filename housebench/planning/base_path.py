"""Base paths over the free-floor grid: A* on an 8-connected networkx grid graph, then shortcutting.

The grid is the house's (:class:`housebench.house.floor.FloorGrid`, from the annotations); a start or
goal off the floor's largest free piece (the base parked close to a table) snaps to its nearest cell.
The graph is built on first use; given the graph of a grid with fewer obstacles (the empty house's,
built once), it is that graph's view over this grid's free cells: the same nodes, edges and neighbour
order as a graph built afresh, so A* finds the same path. Given the cells with ``room`` (for the arm
held out: off door jambs and tall furniture by its reach), a ``roomy`` path keeps to them but within
:data:`ROOM_FREE` of its ends (a stance stands close to what it faces), where they join the ends.
"""

from __future__ import annotations

import math
from functools import cached_property

import networkx as nx
import numpy as np
from scipy import ndimage

from housebench.house.floor import FloorGrid

Point = tuple[float, float]
ROOM_FREE = 0.5  # m round a roomy path's start and goal where it may leave the cells with room


class NoPath(RuntimeError):
    """No free-floor path joins the two points."""


class BasePlanner:
    def __init__(
        self,
        grid: FloorGrid,
        wider: nx.Graph | None = None,
        room: np.ndarray | None = None,
        keep: np.ndarray | None = None,
    ) -> None:
        """``wider``: the graph of a grid on the same cells whose free cells include ``grid``'s; ``room``:
        the cells (of the same shape) a roomy path keeps to; ``keep``: those it keeps to round its goal too (off an
        open door's leaf, which gives way to the arm where a wall would stop it)."""
        self.grid, self.wider, self.room, self.keep = grid, wider, room, keep
        labels, count = ndimage.label(grid.free)
        sizes = np.bincount(labels.ravel())[1:] if count else np.zeros(1)
        self.main = labels == (int(np.argmax(sizes)) + 1) if count else grid.free  # the floor's largest piece

    @cached_property
    def graph(self) -> nx.Graph:
        return self._graph(self.grid.free)

    def _graph(self, free: np.ndarray) -> nx.Graph:
        if self.wider is None and free is self.grid.free:
            return grid_graph(free)
        whole = self.graph if self.wider is None else self.wider
        return nx.subgraph_view(whole, filter_node=lambda n: bool(free[n]))

    def world(self, cell: tuple[int, int]) -> Point:
        i, j = cell
        return self.grid.x0 + j * self.grid.resolution, self.grid.y0 + i * self.grid.resolution

    def nearest_free(self, p: Point, max_m: float = 0.8) -> tuple[int, int]:
        """The cell of the floor's largest free piece nearest ``p`` (within ``max_m``), else
        :class:`NoPath`: a pocket the conservative grid cuts off (the base parked in a corner, props on
        the floor) is left by a straight first leg."""
        i, j = self.grid.cell(*p)
        n = math.ceil(max_m / self.grid.resolution)
        free = self.main
        lo_i, lo_j = max(i - n, 0), max(j - n, 0)
        window = free[lo_i : i + n + 1, lo_j : j + n + 1]
        if not window.any():
            raise NoPath(f"no free floor within {max_m} m of ({p[0]:.3f}, {p[1]:.3f})")
        ii, jj = np.nonzero(window)
        k = int(np.argmin((ii + lo_i - i) ** 2 + (jj + lo_j - j) ** 2))
        return int(ii[k] + lo_i), int(jj[k] + lo_j)

    def segment_free(self, a: Point, b: Point, free: np.ndarray | None = None) -> bool:
        """Whether every grid cell along the straight segment a-b is free (in ``free``, default the grid's)."""
        free = self.grid.free if free is None else free
        steps = max(2, math.ceil(math.dist(a, b) / (self.grid.resolution / 2)))
        return all(
            self.grid.lookup(free, a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t) for t in np.linspace(0, 1, steps)
        )

    def path(self, start: Point, goal: Point, roomy: bool = False) -> list[Point]:
        """Waypoints from ``start`` to ``goal`` (both included), shortcut to as few as line of sight allows;
        ``roomy``: through the cells with room where they join the two (else as without)."""
        s, g = self.nearest_free(start), self.nearest_free(goal)
        if roomy and self.room is not None:
            free = self.grid.free & (self.room | self._near(start) | self._near(goal))
            if self.keep is not None:
                free &= self.keep | self._near(start)
            labels, _ = ndimage.label(free)
            if labels[s] and labels[s] == labels[g]:
                return self._path(start, goal, s, g, free)
        return self._path(start, goal, s, g, self.grid.free)

    def _near(self, p: Point) -> np.ndarray:
        """The cells within :data:`ROOM_FREE` of ``p``."""
        rows, cols = self.grid.free.shape
        ys = self.grid.y0 + np.arange(rows)[:, None] * self.grid.resolution
        xs = self.grid.x0 + np.arange(cols)[None, :] * self.grid.resolution
        return (xs - p[0]) ** 2 + (ys - p[1]) ** 2 <= ROOM_FREE**2

    def _path(self, start: Point, goal: Point, s: tuple[int, int], g: tuple[int, int], free: np.ndarray):
        graph = self.graph if free is self.grid.free else self._graph(free)
        try:
            cells = nx.astar_path(graph, s, g, heuristic=lambda u, v: math.dist(u, v), weight="weight")
        except nx.NetworkXNoPath:
            raise NoPath(f"no free-floor path from {start} to {goal}") from None
        points = [start, *(self.world(c) for c in cells[1:-1]), goal] if len(cells) > 1 else [start, goal]
        return self.shortcut(points, free)

    def shortcut(self, points: list[Point], free: np.ndarray | None = None) -> list[Point]:
        """Greedy line-of-sight shortcutting (over ``free``, default the grid's): from each kept point, jump
        to the furthest visible one."""
        out, i = [points[0]], 0
        while i < len(points) - 1:
            j = len(points) - 1
            while j > i + 1 and not self.segment_free(points[i], points[j], free):
                j -= 1
            out.append(points[j])
            i = j
        return out


def grid_graph(free: np.ndarray) -> nx.Graph:
    """8-connected graph over the free cells; edge weight the step length in cells."""
    graph = nx.Graph()
    ii, jj = np.nonzero(free)
    graph.add_nodes_from(zip(ii.tolist(), jj.tolist()))
    rows, cols = free.shape
    padded = np.pad(free, 1)
    for di, dj in ((0, 1), (1, 0), (1, 1), (1, -1)):
        both = free & padded[1 + di : 1 + di + rows, 1 + dj : 1 + dj + cols]
        ei, ej = np.nonzero(both)
        w = math.hypot(di, dj)
        graph.add_weighted_edges_from(((i, j), (i + di, j + dj), w) for i, j in zip(ei.tolist(), ej.tolist()))
    return graph
