"""The floor plan: six rooms on a 3 x 2 grid, outer and inner walls, doorways between rooms.

South row (y from 0 to the split): kitchen, dining room, living room; north row: bathroom, bedroom,
study. The seed moves the grid lines and each doorway along its wall by up to ``jitter``. Doorways
(kitchen-dining, dining-living, dining-bedroom, bedroom-bathroom, living-study) connect every room.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from housebench.house.geometry import Box, Frame, box
from housebench.io import r6

GRID = (("kitchen", "dining_room", "living_room"), ("bathroom", "bedroom", "study"))
# (wall, segment, position of the doorway centre as a fraction of the segment)
DOORS = (("x1", 0, 0.5), ("x1", 1, 0.2), ("x2", 0, 0.5), ("y1", 1, 0.5), ("y1", 2, 0.25))


@dataclass(frozen=True)
class Room:
    name: str
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def polygon(self) -> list[tuple[float, float]]:
        return [(self.x0, self.y0), (self.x1, self.y0), (self.x1, self.y1), (self.x0, self.y1)]

    def against(self, side: str, at: float, depth: float) -> Frame:
        """The frame of a piece ``depth`` deep with its back on wall ``side`` (N/E/S/W), its centre
        ``at`` metres along the wall from the room's lower-left corner, facing into the room."""
        return {
            "S": Frame(r6(self.x0 + at), r6(self.y0 + depth), "N"),
            "N": Frame(r6(self.x0 + at), r6(self.y1 - depth), "S"),
            "W": Frame(r6(self.x0 + depth), r6(self.y0 + at), "E"),
            "E": Frame(r6(self.x1 - depth), r6(self.y0 + at), "W"),
        }[side]

    def centred(self, dx: float, dy: float, depth: float, facing: str) -> Frame:
        """The frame of a free-standing piece centred ``(dx, dy)`` from the room's lower-left."""
        f = Frame(0.0, 0.0, facing)
        return Frame(r6(self.x0 + dx + f.front[0] * depth / 2), r6(self.y0 + dy + f.front[1] * depth / 2), facing)


def wall_boxes(
    name: str, axis: str, at: float, span: tuple[float, float], doors: list[float], p: dict[str, Any]
) -> list[Box]:
    """A straight wall centred on ``at`` (x = at for axis "x", y = at for "y"), cut by doorways."""
    t, h, dw, dh = p["wall_thickness"], p["wall_height"], p["door_width"], p["door_height"]

    def piece(suffix: str, a: float, b: float, z0: float) -> Box:
        lo, hi = (at - t / 2, a, z0), (at + t / 2, b, h)
        if axis == "y":
            lo, hi = (a, at - t / 2, z0), (b, at + t / 2, h)
        return box(f"walls/{name}_{suffix}", lo, hi)

    edges = [span[0]] + [e for c in sorted(doors) for e in (c - dw / 2, c + dw / 2)] + [span[1]]
    boxes = [piece(str(i + 1), edges[2 * i], edges[2 * i + 1], 0.0) for i in range(len(doors) + 1)]
    boxes += [piece(f"lintel_{i + 1}", edges[2 * i + 1], edges[2 * i + 2], dh) for i in range(len(doors))]
    return boxes


def shell(w: float, d: float, p: dict[str, Any]) -> list[Box]:
    """The floor slab and the four outer walls around ``[0, w] x [0, d]``."""
    t, h = p["wall_thickness"], p["wall_height"]
    return [
        box("floor/slab", (-t, -t, -t), (w + t, d + t, 0.0)),
        box("walls/south", (-t, -t, 0), (w + t, 0, h)),
        box("walls/north", (-t, d, 0), (w + t, d + t, h)),
        box("walls/west", (-t, 0, 0), (0, d, h)),
        box("walls/east", (w, 0, 0), (w + t, d, h)),
    ]


def floor_plan(p: dict[str, Any], rng: np.random.Generator) -> tuple[list[Room], list[Box]]:
    """The rooms (inside their walls) and the structure boxes: floor slab, outer and inner walls."""
    (w, d), t, j = p["size"], p["wall_thickness"], p["jitter"]
    xs = [0.0, *(r6(x + rng.uniform(-j, j)) for x in p["splits_x"]), w]
    ys = [0.0, r6(p["split_y"] + rng.uniform(-j, j)), d]
    rooms = [
        Room(
            name,
            r6(xs[c] + (t / 2 if c else 0)),
            r6(ys[r] + (t / 2 if r else 0)),
            r6(xs[c + 1] - (t / 2 if c < 2 else 0)),
            r6(ys[r + 1] - (t / 2 if r < 1 else 0)),
        )
        for r, row in enumerate(GRID)
        for c, name in enumerate(row)
    ]
    cuts: dict[tuple[str, int], list[float]] = {}
    for wall, seg, frac in DOORS:
        lo, hi = (ys[seg], ys[seg + 1]) if wall.startswith("x") else (xs[seg], xs[seg + 1])
        cuts.setdefault((wall, seg), []).append(r6(lo + frac * (hi - lo) + rng.uniform(-j, j)))
    boxes = shell(w, d, p)
    for k in (1, 2):
        for seg in (0, 1):
            lo, hi = ys[seg] + (t / 2 if seg else 0), ys[seg + 1] - (0 if seg else t / 2)
            boxes += wall_boxes(f"x{k}_{seg + 1}", "x", xs[k], (lo, hi), cuts.get((f"x{k}", seg), []), p)
    for seg in range(3):
        boxes += wall_boxes(f"y1_{seg + 1}", "y", ys[1], (xs[seg], xs[seg + 1]), cuts.get(("y1", seg), []), p)
    return rooms, boxes
