"""The horizontal sections of an asset's collision hulls: what a level hand's fingers close on at a height.

Each section is the convex outline (asset frame, x and y) of the hull material between two heights ``SLAB``
apart, from the asset's bottom up: the toy car's cabin (0.05 x 0.044 m over 0.035 m) is narrower than its
body, the rubber duck's head (0.055 x 0.04 m over 0.065 m) than its 0.1 m body. A hull is convex, so its
slab spans its vertices in the slab and its edges' crossings of the two planes; the outline is the
``SIDES``-gon round them all.
"""

from __future__ import annotations

import numpy as np

from housebench.annotations.schema import SECTION_HEIGHT as SLAB
from housebench.annotations.schema import HullSection

SIDES = 16  # an outline's corners
DIGITS = 4  # outline coordinates rounded to 0.1 mm


def _slab(vertices: np.ndarray, faces: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """The points (x, y) spanning one convex hull's material between heights ``lo`` and ``hi``."""
    inside = vertices[(vertices[:, 2] >= lo) & (vertices[:, 2] <= hi)]
    edges = np.concatenate([faces[:, [0, 1]], faces[:, [1, 2]], faces[:, [2, 0]]])
    a, b = vertices[edges[:, 0]], vertices[edges[:, 1]]
    dz = b[:, 2] - a[:, 2]
    crossings = [inside[:, :2]]
    with np.errstate(divide="ignore", invalid="ignore"):
        for z in (lo, hi):
            t = (z - a[:, 2]) / dz
            cut = (dz != 0) & (t > 0) & (t < 1)
            crossings.append((a[cut] + (b[cut] - a[cut]) * t[cut, None])[:, :2])
    return np.concatenate(crossings)


def _outline(points: np.ndarray) -> list[tuple[float, float]]:
    """The ``SIDES``-gon round ``points`` (x, y) whose sides touch them square to ``SIDES`` directions evenly
    apart, counter-clockwise: it holds them and overstates a round section's width by 2 % at most."""
    angles = 2 * np.pi * np.arange(SIDES) / SIDES
    normals = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    reach = (points @ normals.T).max(axis=0)
    corners = [np.linalg.solve(normals[[k, (k + 1) % SIDES]], reach[[k, (k + 1) % SIDES]]) for k in range(SIDES)]
    return [(round(float(x), DIGITS), round(float(y), DIGITS)) for x, y in corners]


def sections(hulls: list[tuple[np.ndarray, np.ndarray]], bottom: float) -> list[HullSection]:
    """The sections of ``hulls`` ((vertices, faces) in the asset frame) from ``bottom`` (the asset's lowest
    height) up, ``SLAB`` high each; heights are over the bottom."""
    top = max(float(v[:, 2].max()) for v, _ in hulls)
    out = []
    for k in range(int(np.ceil((top - bottom) / SLAB - 1e-9))):
        lo = bottom + k * SLAB
        points = np.concatenate([_slab(np.asarray(v, float), np.asarray(f), lo, lo + SLAB) for v, f in hulls])
        if len(points):
            out.append(HullSection(z=round(k * SLAB, DIGITS), outline=_outline(points)))
    return out
