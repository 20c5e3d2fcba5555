"""Where a prop may go: draw a pose on a support or in a container prop, and the collision tests.

A prop's footprint is the axis-aligned box around its turned size (:func:`geometry.footprint`). On a
support it stays ``margin - overhang`` inside the edges; in a container it stays ``clearance`` inside
the cavity's walls. It must not come within ``margin`` of another prop's box (unless it is that prop's
container) nor within ``clearance`` of an obstacle of the house.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from housebench.annotations.schema import AssetAnnotation, HouseAnnotations, Support
from housebench.tasks.geometry import footprint


@dataclass(frozen=True)
class Spot:
    """A drawn pose of a prop: bottom-centre position, yaw, and the box it occupies."""

    asset: AssetAnnotation
    support: Support
    x: float
    y: float
    z: float  # the bottom of the prop
    yaw: float
    inside: str | None = None  # the container prop it stands in

    @property
    def box(self) -> tuple[float, float, float, float, float, float]:
        hx, hy = footprint(self.asset.size, self.yaw)
        return self.x - hx, self.y - hy, self.z, self.x + hx, self.y + hy, self.z + self.asset.size[2]


def overlap(a: tuple, b: tuple, gap: float) -> bool:
    """Whether 3-D boxes ``a`` and ``b`` come closer than ``gap`` in x and y while overlapping in z."""
    return (
        a[0] < b[3] + gap
        and b[0] < a[3] + gap
        and a[1] < b[4] + gap
        and b[1] < a[4] + gap
        and a[2] < b[5]
        and b[2] < a[5]
    )


def _yaw(options: list[float] | None, rng: np.random.Generator) -> float:
    if options is None:
        return float(rng.uniform(-math.pi, math.pi))
    return math.radians(options[int(rng.integers(len(options)))])


def on_support(
    support: Support,
    asset: AssetAnnotation,
    yaws: list[float] | None,
    overhang: float,
    margin: float,
    clearance: float,
    rng: np.random.Generator,
    near: tuple[float, float, float] | None = None,
) -> Spot | None:
    """A uniform pose on ``support`` (within ``near = (x, y, distance)`` if given); None if it misses."""
    yaw = _yaw(yaws, rng)
    hx, hy = footprint(asset.size, yaw)
    inset = margin - overhang
    lo = [support.box[0] + hx + inset, support.box[1] + hy + inset]
    hi = [support.box[2] - hx - inset, support.box[3] - hy - inset]
    if near is not None:
        lo = [max(lo[0], near[0] - near[2]), max(lo[1], near[1] - near[2])]
        hi = [min(hi[0], near[0] + near[2]), min(hi[1], near[1] + near[2])]
    if lo[0] > hi[0] or lo[1] > hi[1]:
        return None
    x, y = float(rng.uniform(lo[0], hi[0])), float(rng.uniform(lo[1], hi[1]))
    if near is not None and math.hypot(x - near[0], y - near[1]) > near[2]:
        return None
    return Spot(asset, support, x, y, support.height + clearance, yaw)


def in_container(
    container: Spot,
    name: str,
    asset: AssetAnnotation,
    yaws: list[float] | None,
    clearance: float,
    rng: np.random.Generator,
) -> Spot | None:
    """A uniform pose on the floor of container prop ``name`` (placed at ``container``), its footprint
    ``clearance`` inside the walls; None if it misses."""
    profile = container.asset.container
    rel = _yaw(yaws, rng)
    hx, hy = profile.inner_half_extents
    if profile.shape == "round":
        radius = hx - math.hypot(asset.size[0], asset.size[1]) / 2 - clearance
        if radius < 0:
            return None
        r, a = radius * math.sqrt(rng.uniform()), rng.uniform(-math.pi, math.pi)
        lx, ly = r * math.cos(a), r * math.sin(a)
    else:
        fx, fy = footprint(asset.size, rel)
        if fx + clearance > hx or fy + clearance > hy:
            return None
        lx, ly = (
            rng.uniform(fx + clearance - hx, hx - fx - clearance),
            rng.uniform(fy + clearance - hy, hy - fy - clearance),
        )
    c, s = math.cos(container.yaw), math.sin(container.yaw)
    return Spot(
        asset,
        container.support,
        container.x + c * lx - s * ly,
        container.y + s * lx + c * ly,
        container.z + profile.floor_z + clearance,
        container.yaw + rel,
        name,
    )


def is_free(spot: Spot, placed: dict[str, Spot], house: HouseAnnotations, margin: float, clearance: float) -> bool:
    """No other prop within ``margin`` (its own container aside), no obstacle within ``clearance``."""
    if any(overlap(spot.box, other.box, margin) for name, other in placed.items() if name != spot.inside):
        return False
    return not any(overlap(spot.box, ob.box, clearance) for ob in house.obstacles)
