"""The edges of a support (a table top, a shelf level): each edge's line and outward normal, how far an item sticks out
over it, the base poses facing it; flat items are pushed over one (:mod:`housebench.skills.flat_push`) and pinched at
it (:mod:`housebench.skills.flat_pinch`), side grasps enter through the open ones (:mod:`housebench.skills.side`)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from housebench.annotations.schema import Support
from housebench.skills.base import SkillContext
from housebench.skills.tuning import tuning
from housebench.skills.view import support_of
from housebench.state import ObjectState, Observation
from housebench.tasks.geometry import rotation, world_box


@dataclass(frozen=True)
class Edge:
    support: Support
    normal: tuple[float, float]  # outward unit normal (an axis of the world)
    coord: float  # the edge line: points p with p . normal == coord

    def out(self, box: tuple[float, ...]) -> float:
        """How far ``box`` (3-D world box) sticks out over this edge (negative: inside)."""
        nx, ny = self.normal
        face = box[3] if nx > 0 else -box[0] if nx < 0 else box[4] if ny > 0 else -box[1]
        return face - self.coord

    def pinch_out(self, pose: ObjectState, size) -> float:
        """How far the flat item at ``pose`` (footprint ``size[:2]``) sticks out over this edge on the line
        through its centre along the normal, where the pinch takes it (askew, it sticks out further at a
        corner: pushed to ``skills.edge.overhang_m`` there, a book was pinched 1.2 cm deep and crept out of the
        fingers)."""
        return float(np.asarray(pose.pos[:2]) @ self.normal) - self.coord + self._reach(pose, size)

    def pinch_short(self, pose: ObjectState, size, overhang: float | None = None) -> float:
        """How much further the item must go for :meth:`pinch_out` to reach ``overhang``, or as far as keeps
        its centre ``skills.edge.centre_in_m`` inside the edge."""
        te = tuning().edge
        overhang = te.overhang_m if overhang is None else overhang
        reach = self._reach(pose, size)
        return min(overhang, reach - te.centre_in_m) - self.pinch_out(pose, size)

    def _reach(self, pose: ObjectState, size) -> float:
        """From the item's centre to its side along the normal."""
        n, rot = np.array(self.normal), rotation(pose.quat)
        return min(size[k] / 2 / abs(float(rot[:2, k] @ n)) for k in (0, 1) if abs(float(rot[:2, k] @ n)) > 1e-6)

    def half(self, box: tuple[float, ...]) -> float:
        """Half the box's extent along the normal."""
        return (box[3] - box[0]) / 2 if self.normal[0] else (box[4] - box[1]) / 2

    def stances(self, at: np.ndarray, dists=None, shifts=None, turns=(0.0,)) -> Iterator[tuple[float, float, float]]:
        """Base poses in front of the edge opposite ``at`` (``dists`` out, ``shifts`` along), facing the
        support (turned ``turns`` rad off square); defaults: ``skills.edge.stand_m``, ``shifts_m``."""
        te = tuning().edge
        dists = te.stand_m if dists is None else dists
        shifts = te.shifts_m if shifts is None else shifts
        n = np.array(self.normal)
        t = np.array([-n[1], n[0]])
        foot = at[:2] + n * (self.coord - float(at[:2] @ n))
        for turn in turns:  # every pose square on first (a stance search tries a limited number)
            for dist in dists:
                for shift in shifts:
                    x, y = foot + n * dist + t * shift
                    yield float(x), float(y), math.atan2(-n[1], -n[0]) + turn


def edges(support: Support) -> list[Edge]:
    xmin, ymin, xmax, ymax = support.box
    return [
        Edge(support, (1.0, 0.0), xmax),
        Edge(support, (-1.0, 0.0), -xmin),
        Edge(support, (0.0, 1.0), ymax),
        Edge(support, (0.0, -1.0), -ymin),
    ]


def side_pinch(normal: tuple[float, float]) -> np.ndarray:
    """Hand horizontal, approaching the edge against ``normal``, fingers closing vertically."""
    x = np.array([-normal[0], -normal[1], 0.0])
    y = np.array([0.0, 0.0, 1.0])
    return np.column_stack([x, y, np.cross(x, y)])


def overhanging(ctx: SkillContext, obs: Observation, obj: str, at_least: float) -> Edge | None:
    """The edge of its support the item sticks out over by ``at_least`` where the pinch takes it, else by its
    box (a push that stalled short leaves a corner out: a light notebook is still taken there), if any."""
    support = support_of(ctx, obs, obj)
    if support is None:
        return None
    pose, size = obs.objects[obj], ctx.scene.objects[obj].asset.size
    box = world_box(pose, ctx.scene.objects[obj].asset)
    for out in (lambda e: e.pinch_out(pose, size), lambda e: e.out(box)):
        best = max(edges(support), key=out)
        if out(best) >= at_least:
            return best
    return None
