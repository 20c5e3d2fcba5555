"""Boxes and placement frames: every piece of the house is built from axis-aligned boxes.

World frame: metres, Z up, floor top at z = 0. A :class:`Frame` places a piece of furniture that
faces one of the four compass directions: local ``u`` runs along its front (to the right of the
front normal's left), ``v`` runs from the front face (``v = 0``) back into the piece, ``z`` up. Turns
by multiples of 90 degrees keep boxes axis-aligned.
"""

from __future__ import annotations

from dataclasses import dataclass

from housebench.io import r6

Vec3 = tuple[float, float, float]
FACING = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}


@dataclass(frozen=True)
class Box:
    name: str  # "<owner>/<part>" (moving parts: "<owner>/<part>/<piece>")
    center: Vec3
    size: Vec3  # full extents x, y, z

    @property
    def owner(self) -> str:
        return self.name.split("/")[0]

    @property
    def bounds(self) -> tuple[float, float, float, float, float, float]:
        """``[xmin, ymin, zmin, xmax, ymax, zmax]``."""
        lo = [c - s / 2 for c, s in zip(self.center, self.size)]
        hi = [c + s / 2 for c, s in zip(self.center, self.size)]
        return tuple(r6(v) for v in (*lo, *hi))  # type: ignore[return-value]


def box(name: str, lo: Vec3, hi: Vec3) -> Box:
    """The box spanning corners ``lo`` and ``hi`` (any order per axis)."""
    lo, hi = tuple(map(min, lo, hi)), tuple(map(max, lo, hi))
    return Box(
        name,
        tuple(r6((a + b) / 2) for a, b in zip(lo, hi)),  # type: ignore[arg-type]
        tuple(r6(b - a) for a, b in zip(lo, hi)),
    )


@dataclass(frozen=True)
class Frame:
    """A piece's placement: ``(x, y)`` is the centre of its front edge on the floor."""

    x: float
    y: float
    facing: str  # "N", "E", "S" or "W": the direction its front looks

    @property
    def front(self) -> Vec3:
        fx, fy = FACING[self.facing]
        return (float(fx), float(fy), 0.0)

    @property
    def right(self) -> Vec3:
        fx, fy = FACING[self.facing]
        return (float(fy), float(-fx), 0.0)

    def point(self, u: float, v: float, z: float) -> Vec3:
        (fx, fy, _), (rx, ry, _) = self.front, self.right
        return (r6(self.x + u * rx - v * fx), r6(self.y + u * ry - v * fy), r6(z))

    def shifted(self, u: float, v: float) -> Frame:
        """The same facing, moved to local ``(u, v)`` (e.g. an appliance on a counter)."""
        x, y, _ = self.point(u, v, 0.0)
        return Frame(x, y, self.facing)

    def box(self, name: str, lo: Vec3, hi: Vec3) -> Box:
        """A box given by local corners ``(u, v, z)``."""
        return box(name, self.point(*lo), self.point(*hi))


def penetration(a: Box, b: Box) -> float:
    """How deep ``a`` and ``b`` overlap (metres, the smallest overlap over the three axes); <= 0 apart."""
    lo_a, lo_b = a.bounds, b.bounds
    return min(min(lo_a[i + 3], lo_b[i + 3]) - max(lo_a[i], lo_b[i]) for i in range(3))
