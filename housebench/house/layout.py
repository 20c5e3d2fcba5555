"""A seeded one-room house as plain data: floor, four walls (one with a doorway), a table, a shelf.

World frame: metres, Z up; the room spans ``[0, width] x [0, depth]`` with the floor top at z = 0.
Every static part is an axis-aligned :class:`Box` named ``<owner>/<part>`` (e.g. ``table/top``).
The seed moves the table, the shelf and the doorway along their walls; nothing else is random.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Box:
    name: str  # "<owner>/<part>"
    center: tuple[float, float, float]
    size: tuple[float, float, float]  # full extents x, y, z

    @property
    def owner(self) -> str:
        return self.name.split("/")[0]

    @property
    def bounds(self) -> tuple[float, float, float, float, float, float]:
        """``[xmin, ymin, zmin, xmax, ymax, zmax]``."""
        lo = [c - s / 2 for c, s in zip(self.center, self.size)]
        hi = [c + s / 2 for c, s in zip(self.center, self.size)]
        return tuple(round(v, 6) for v in (*lo, *hi))  # type: ignore[return-value]


@dataclass(frozen=True)
class House:
    width: float
    depth: float
    wall_height: float
    boxes: tuple[Box, ...]
    robot_start: tuple[float, float, float]  # x, y, yaw


def _box(name: str, lo: tuple[float, float, float], hi: tuple[float, float, float]) -> Box:
    center = tuple(round((a + b) / 2, 6) for a, b in zip(lo, hi))
    size = tuple(round(b - a, 6) for a, b in zip(lo, hi))
    return Box(name, center, size)  # type: ignore[arg-type]


def _walls(w: float, d: float, h: float, t: float, door: tuple[float, float, float]) -> list[Box]:
    x0, x1, door_h = door
    return [
        _box("floor/slab", (-t, -t, -t), (w + t, d + t, 0.0)),
        _box("walls/north", (-t, d, 0.0), (w + t, d + t, h)),
        _box("walls/west", (-t, 0.0, 0.0), (0.0, d, h)),
        _box("walls/east", (w, 0.0, 0.0), (w + t, d, h)),
        _box("walls/south_left", (-t, -t, 0.0), (x0, 0.0, h)),
        _box("walls/south_right", (x1, -t, 0.0), (w + t, 0.0, h)),
        _box("walls/south_lintel", (x0, -t, door_h), (x1, 0.0, h)),
    ]


def _table(cx: float, cy: float, p: dict[str, Any]) -> list[Box]:
    sx, sy = p["size"]
    h, top, leg = p["height"], p["top_thickness"], p["leg"]
    boxes = [_box("table/top", (cx - sx / 2, cy - sy / 2, h - top), (cx + sx / 2, cy + sy / 2, h))]
    for i, (fx, fy) in enumerate(((-1, -1), (1, -1), (-1, 1), (1, 1))):
        lx, ly = cx + fx * (sx / 2 - leg / 2), cy + fy * (sy / 2 - leg / 2)
        boxes.append(_box(f"table/leg_{i}", (lx - leg / 2, ly - leg / 2, 0.0),
                          (lx + leg / 2, ly + leg / 2, h - top)))
    return boxes


def _shelf(cx: float, back: float, p: dict[str, Any]) -> list[Box]:
    sx, sy = p["size"]
    h, board, side = p["height"], p["board"], p["side"]
    y0, y1 = back - sy, back
    boxes = [_box("shelf/side_left", (cx - sx / 2, y0, 0.0), (cx - sx / 2 + side, y1, h)),
             _box("shelf/side_right", (cx + sx / 2 - side, y0, 0.0), (cx + sx / 2, y1, h))]
    for i, z in enumerate(p["levels"], start=1):
        boxes.append(_box(f"shelf/level_{i}", (cx - sx / 2 + side, y0, z - board),
                          (cx + sx / 2 - side, y1, z)))
    return boxes


def generate_house(params: dict[str, Any]) -> House:
    """The house for the ``house:`` section of ``params.yaml`` (same params, same house)."""
    rng = np.random.default_rng(params["seed"])
    w, d = params["room_size"]
    h, t = params["wall_height"], params["wall_thickness"]
    door_w = params["door_width"]
    door_x = round(float(rng.uniform(0.5, w - door_w - 0.5)), 3)
    table_xy = (round(w * 0.6 + float(rng.uniform(-0.3, 0.3)), 3),
                round(d * 0.5 + float(rng.uniform(-0.3, 0.3)), 3))
    shelf_x = round(float(rng.uniform(0.3 * w, w - params["shelf"]["size"][0])), 3)
    boxes = (_walls(w, d, h, t, (door_x, door_x + door_w, params["door_height"]))
             + _table(*table_xy, params["table"])
             + _shelf(shelf_x, d, params["shelf"]))
    start = (float(params["robot_start"][0]), float(params["robot_start"][1]),
             float(params["robot_start"][2]))
    return House(w, d, h, tuple(boxes), start)
