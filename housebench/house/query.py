"""Questions skills ask of the house, answered from its annotations alone (``house.json``).

``HouseQuery(annotations)``: which room a point is in, the free-floor grid for base planning, the
floor the base can reach from the robot's start and the rooms on it, the obstacles as arrays for
testing base poses and sight lines, the support under a point, and where a handle is at a joint value.
:meth:`HouseQuery.with_props` asks the same of the house with props standing in it (their boxes block the
base and the floor too, not the sight lines).
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from housebench.annotations.schema import ArticulatedPart, HouseAnnotations, Support
from housebench.house.floor import Box3, FloorGrid, Obstacles, free_grid

GRID = 0.05  # default free-floor grid resolution, metres


def inside(x: float, y: float, polygon: list[tuple[float, float]]) -> bool:
    """Even-odd rule point-in-polygon."""
    hit = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def _rotate(v: np.ndarray, axis: np.ndarray, angle: float) -> np.ndarray:
    """Rodrigues' rotation of ``v`` about the unit ``axis``."""
    c, s = np.cos(angle), np.sin(angle)
    return v * c + np.cross(axis, v) * s + axis * np.dot(axis, v) * (1 - c)


class HouseQuery:
    def __init__(self, house: HouseAnnotations, resolution: float = GRID, props: tuple[Box3, ...] = ()) -> None:
        self.house, self.resolution, self.props = house, resolution, tuple(props)
        self.parts = {p.name: p for p in house.articulated}

    def with_props(self, props: list[Box3]) -> HouseQuery:
        """The same house with ``props`` (boxes ``[xmin, ymin, zmin, xmax, ymax, zmax]``) standing in it; the
        house's own free floor is computed once and shared."""
        query = HouseQuery(self.house, self.resolution, tuple(props))
        query.house_grid, query.house_reachable = self.house_grid, self.house_reachable
        return query

    def room_at(self, x: float, y: float) -> str | None:
        return next((r.name for r in self.house.rooms if inside(x, y, r.polygon)), None)

    @cached_property
    def bounds(self) -> tuple[float, float, float, float]:
        """The house's ``[xmin, ymin, xmax, ymax]`` (its annotated bounds, else its rooms')."""
        h = self.house
        return h.bounds or tuple(
            f(c[i] for r in h.rooms for c in r.polygon) for f, i in ((min, 0), (min, 1), (max, 0), (max, 1))
        )

    @cached_property
    def house_grid(self) -> FloorGrid:
        """Free floor of the house alone (closed doors, every obstacle box, the robot's footprint)."""
        h = self.house
        return free_grid((o.box for o in h.obstacles), self.bounds, h.robot.footprint, self.resolution)

    @cached_property
    def grid(self) -> FloorGrid:
        """Free floor for the robot's base: the house's, less what :attr:`props` block."""
        if not self.props:
            return self.house_grid
        house = self.house_grid
        props = free_grid(self.props, self.bounds, self.house.robot.footprint, self.resolution)
        return FloorGrid(house.x0, house.y0, house.resolution, house.free & props.free)

    @cached_property
    def reachable_floor(self) -> np.ndarray:
        """The free cells the base can drive to from the robot's start (a mask over :attr:`grid`)."""
        return self.grid.reachable(*self.house.robot.start[:2])

    @cached_property
    def house_reachable(self) -> np.ndarray:
        """:attr:`reachable_floor` of the house alone."""
        return self.house_grid.reachable(*self.house.robot.start[:2])

    def cut_off(self) -> float:
        """Floor (m²) the base reaches in the house alone that :attr:`props` cut off: still free, not reached."""
        cut = self.grid.free & self.house_reachable & ~self.reachable_floor
        return float(cut.sum()) * self.resolution**2

    @cached_property
    def obstacles(self) -> Obstacles:
        """The house's obstacle boxes and the props', for base pose tests."""
        return Obstacles([*(o.box for o in self.house.obstacles), *self.props], self.house.robot.footprint)

    @cached_property
    def boxes(self) -> np.ndarray:
        """Every obstacle's box ``[xmin, ymin, zmin, xmax, ymax, zmax]``, shape (n, 6), in annotation order (the
        house's alone: the sight lines)."""
        return np.array([o.box for o in self.house.obstacles], dtype=float).reshape(-1, 6)

    @cached_property
    def moving_owners(self) -> np.ndarray:
        """For each of :attr:`boxes`, the furniture whose door or drawer it belongs to ('' for static boxes)."""
        owners = {p.name: p.owner for p in self.house.articulated}
        return np.array(
            [next((v for k, v in owners.items() if f"{o.name}/".startswith(f"{k}/")), "") for o in self.house.obstacles]
        )

    def reachable_rooms(self) -> set[str]:
        """Rooms with a free floor cell the base can drive to from the robot's start."""
        return {name for px, py in self.grid.points(self.reachable_floor) if (name := self.room_at(px, py))}

    def support_under(self, x: float, y: float, z: float = np.inf) -> Support | None:
        """The highest support whose box holds ``(x, y)`` and whose surface is at or below ``z``."""
        found = [
            s
            for s in self.house.supports
            if s.height <= z + 1e-9 and s.box[0] <= x <= s.box[2] and s.box[1] <= y <= s.box[3]
        ]
        return max(found, key=lambda s: (s.height, s.name), default=None)

    def handle_pose(self, joint: str, q: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Handle centre, outward normal and grasp direction of part ``joint`` at value ``q``."""
        part: ArticulatedPart = self.parts[joint]
        axis, pivot = np.array(part.axis), np.array(part.pivot)
        centre, normal = np.array(part.handle.center), np.array(part.handle.normal)
        if part.joint == "prismatic":
            return centre + axis * (q - part.closed), normal, -normal
        angle = q - part.closed
        turned = pivot + _rotate(centre - pivot, axis, angle)
        normal = _rotate(normal, axis, angle)
        return turned, normal, -normal
