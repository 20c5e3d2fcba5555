"""Static furniture from boxes: tables, bookcases, cabinets with doors and drawers, seats, beds.

Each builder takes the piece's name (the owner of its boxes and supports) and a :class:`Frame`
(front edge centre, facing) and returns ``(boxes, parts)``. Local ``u`` spans ``[-w/2, w/2]``,
``v`` spans ``[0, d]`` from the front to the back, ``z`` from the floor.
"""

from __future__ import annotations

from typing import Any

from housebench.house.geometry import Box, Frame
from housebench.house.parts import Part, door, drawer

Built = tuple[list[Box], list[Part]]
BOARD = 0.02  # shelf boards, carcass panels and table tops, metres
PLINTH = 0.1  # height of a cabinet's bottom board top


def table(name: str, f: Frame, w: float, d: float, h: float, leg: float = 0.05) -> Built:
    """A top at height ``h`` on four legs."""
    boxes = [f.box(f"{name}/top", (-w / 2, 0, h - 0.04), (w / 2, d, h))]
    for i, (u, v) in enumerate(((-w / 2, 0), (w / 2 - leg, 0), (-w / 2, d - leg), (w / 2 - leg, d - leg))):
        boxes.append(f.box(f"{name}/leg_{i + 1}", (u, v, 0), (u + leg, v + leg, h - 0.04)))
    return boxes, []


def bookcase(name: str, f: Frame, w: float, d: float, h: float, levels: list[float]) -> Built:
    """Sides, a back panel, shelf boards whose tops are at ``levels`` and a top board at ``h``."""
    inner = (-w / 2 + BOARD, w / 2 - BOARD)
    boxes = [
        f.box(f"{name}/side_left", (-w / 2, 0, 0), (inner[0], d, h - BOARD)),
        f.box(f"{name}/side_right", (inner[1], 0, 0), (w / 2, d, h - BOARD)),
        f.box(f"{name}/back", (inner[0], d - 0.01, 0), (inner[1], d, h - BOARD)),
        f.box(f"{name}/top", (-w / 2, 0, h - BOARD), (w / 2, d, h)),
    ]
    for i, z in enumerate(levels, start=1):
        boxes.append(f.box(f"{name}/level_{i}", (inner[0], 0, z - BOARD), (inner[1], d - 0.01, z)))
    return boxes, []


def cabinet(name: str, f: Frame, w: float, d: float, h: float, fronts: list[str], p: dict[str, Any]) -> Built:
    """A hollow carcass (plinth, bottom, sides, back, top at ``h``) closed by fronts, one column
    each: ``door_left`` / ``door_right`` (hinge side) or ``drawers:N`` (N stacked drawers)."""
    inner = (-w / 2 + BOARD, w / 2 - BOARD)
    boxes = [
        f.box(f"{name}/plinth", (-w / 2 + 0.02, 0.05, 0), (w / 2 - 0.02, d, PLINTH - BOARD)),
        f.box(f"{name}/bottom", (inner[0], 0, PLINTH - BOARD), (inner[1], d - BOARD, PLINTH)),
        f.box(f"{name}/side_left", (-w / 2, 0, PLINTH - BOARD), (inner[0], d, h - 0.03)),
        f.box(f"{name}/side_right", (inner[1], 0, PLINTH - BOARD), (w / 2, d, h - 0.03)),
        f.box(f"{name}/back", (inner[0], d - BOARD, PLINTH), (inner[1], d, h - 0.03)),
        f.box(f"{name}/top", (-w / 2 - 0.01, -0.02, h - 0.03), (w / 2 + 0.01, d, h)),
    ]
    if all(not c.startswith("drawers") for c in fronts):
        mid = PLINTH + (h - 0.03 - PLINTH) / 2
        boxes.append(f.box(f"{name}/shelf", (inner[0], 0.03, mid - BOARD), (inner[1], d - BOARD, mid)))
    parts, col, gap = [], (w - 0.004) / len(fronts), 0.002
    counts = {"door": 0, "drawer": 0}
    for i, front in enumerate(fronts):
        u = (-w / 2 + 0.002 + i * col + gap, -w / 2 + 0.002 + (i + 1) * col - gap)
        if front.startswith("drawers"):
            n = int(front.split(":")[1])
            row = (h - 0.03 - PLINTH) / n
            for k in range(n):
                counts["drawer"] += 1
                z = (PLINTH + k * row + gap, PLINTH + (k + 1) * row - gap)
                parts.append(drawer(f"{name}/drawer_{counts['drawer']}", f, u, z, d - 0.06, p))
        else:
            counts["door"] += 1
            parts.append(
                door(f"{name}/door_{counts['door']}", f, u, (PLINTH + gap, h - 0.03 - gap), front.split("_")[1], p)
            )
    return boxes, parts


def seat(name: str, f: Frame, w: float, d: float, seat_h: float, back_h: float, arms: bool = False) -> Built:
    """A sofa, armchair or chair: a solid seat block, a back rest, optional arm rests."""
    arm = 0.15 if arms else 0.0
    back = min(0.2, d / 4)
    boxes = [
        f.box(f"{name}/seat", (-w / 2 + arm, 0, 0), (w / 2 - arm, d - back, seat_h)),
        f.box(f"{name}/back", (-w / 2, d - back, 0), (w / 2, d, back_h)),
    ]
    if arms:
        boxes += [
            f.box(f"{name}/arm_left", (-w / 2, 0, 0), (-w / 2 + arm, d - back, seat_h + 0.2)),
            f.box(f"{name}/arm_right", (w / 2 - arm, 0, 0), (w / 2, d - back, seat_h + 0.2)),
        ]
    return boxes, []


def bed(name: str, f: Frame, w: float, length: float) -> Built:
    """A bed whose foot is the front edge and whose headboard is at the back."""
    return [
        f.box(f"{name}/frame", (-w / 2, 0, 0), (w / 2, length - 0.06, 0.3)),
        f.box(f"{name}/mattress", (-w / 2 + 0.03, 0.03, 0.3), (w / 2 - 0.03, length - 0.09, 0.5)),
        f.box(f"{name}/headboard", (-w / 2, length - 0.06, 0), (w / 2, length, 1.0)),
    ], []


def block(
    name: str, f: Frame, pieces: dict[str, tuple[tuple[float, float, float], tuple[float, float, float]]]
) -> Built:
    """A fixture made of named solid boxes given by local corners (toilet, bathtub, sink, TV)."""
    return [f.box(f"{name}/{part}", lo, hi) for part, (lo, hi) in pieces.items()], []


RIM = 0.08
BATHTUB = {  # 1.7 x 0.75 m, rims 0.55 m high
    "bottom": ((-0.85, 0.0, 0.0), (0.85, 0.75, 0.1)),
    "rim_front": ((-0.85, 0.0, 0.1), (0.85, RIM, 0.55)),
    "rim_back": ((-0.85, 0.75 - RIM, 0.1), (0.85, 0.75, 0.55)),
    "rim_left": ((-0.85, RIM, 0.1), (-0.85 + RIM, 0.75 - RIM, 0.55)),
    "rim_right": ((0.85 - RIM, RIM, 0.1), (0.85, 0.75 - RIM, 0.55)),
}
TOILET = {"bowl": ((-0.2, 0.0, 0.0), (0.2, 0.55, 0.42)), "tank": ((-0.22, 0.55, 0.0), (0.22, 0.75, 0.8))}
SINK = {"pedestal": ((-0.1, 0.2, 0.0), (0.1, 0.4, 0.8)), "basin": ((-0.28, 0.0, 0.8), (0.28, 0.45, 0.9))}
TV = {"foot": ((-0.15, 0.0, 0.5), (0.15, 0.15, 0.55)), "screen": ((-0.55, 0.05, 0.55), (0.55, 0.1, 1.2))}
