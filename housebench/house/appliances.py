"""Kitchen appliances from boxes: a refrigerator with shelves and a door, a microwave with a hinged
door and a push start button, a stove with four burners and a rotary power key.

Each builder returns ``(boxes, parts, appliance)``; :class:`Appliance` names the cavity (heated or
cooled), the door and the switch, and the heating zones, for the task-level thermal model.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from housebench.house.furniture import BOARD
from housebench.house.geometry import Box, Frame
from housebench.house.parts import CLEAR, Part, button, door, knob


@dataclass(frozen=True)
class Appliance:
    name: str
    kind: str  # fridge, microwave or stove
    cavity: Box | None  # the inside that is heated or cooled
    door: str | None  # joint name of its door
    switch: str | None  # joint name of its start button or power key
    zones: tuple[Box, ...] = ()  # heating zones (burners)


def _shell(name: str, f: Frame, w: float, d: float, z: tuple[float, float], right: float) -> list[Box]:
    """Bottom, top, left side, back and a solid right block ``right`` wide (control panel or side)."""
    z0, z1 = z
    return [
        f.box(f"{name}/bottom", (-w / 2, 0, z0), (w / 2, d, z0 + BOARD)),
        f.box(f"{name}/top", (-w / 2, 0, z1 - BOARD), (w / 2, d, z1)),
        f.box(f"{name}/side_left", (-w / 2, 0, z0 + BOARD), (-w / 2 + BOARD, d, z1 - BOARD)),
        f.box(f"{name}/side_right", (w / 2 - right, 0, z0 + BOARD), (w / 2, d, z1 - BOARD)),
        f.box(f"{name}/back", (-w / 2 + BOARD, d - BOARD, z0 + BOARD), (w / 2 - right, d, z1 - BOARD)),
    ]


def fridge(
    name: str, f: Frame, w: float, d: float, h: float, levels: list[float], p: dict[str, Any]
) -> tuple[list[Box], list[Part], Appliance]:
    """A tall refrigerator on a plinth, shelf boards at ``levels``, one door hinged on the left."""
    boxes = [f.box(f"{name}/plinth", (-w / 2, 0.05, 0), (w / 2, d, 0.05))]
    boxes += _shell(name, f, w, d, (0.05, h), BOARD)
    for i, z in enumerate(levels, start=1):
        boxes.append(f.box(f"{name}/shelf_{i}", (-w / 2 + BOARD, 0.03, z - BOARD), (w / 2 - BOARD, d - BOARD, z)))
    hinge = door(f"{name}/door", f, (-w / 2, w / 2), (0.05, h), "left", p)
    cavity = f.box(f"{name}/cavity", (-w / 2 + BOARD, 0, 0.05 + BOARD), (w / 2 - BOARD, d - BOARD, h - BOARD))
    return boxes, [hinge], Appliance(name, "fridge", cavity, hinge.name, None)


def microwave(
    name: str, f: Frame, w: float, d: float, h: float, base: float, p: dict[str, Any]
) -> tuple[list[Box], list[Part], Appliance]:
    """A microwave standing at height ``base``: cavity on the left, control panel with the start
    button on the right, the door hinged on the left edge."""
    panel = 0.14
    boxes = _shell(name, f, w, d, (base, base + h), panel)
    hinge = door(f"{name}/door", f, (-w / 2, w / 2 - panel - CLEAR), (base + CLEAR, base + h), "left", p)
    start = button(f"{name}/start_button", f, w / 2 - panel / 2, base + 0.4 * h, 0.04, p)
    cavity = f.box(f"{name}/cavity", (-w / 2 + BOARD, 0, base + BOARD), (w / 2 - panel, d - BOARD, base + h - BOARD))
    return boxes, [hinge, start], Appliance(name, "microwave", cavity, hinge.name, start.name)


def stove(
    name: str, f: Frame, w: float, d: float, h: float, p: dict[str, Any]
) -> tuple[list[Box], list[Part], Appliance]:
    """A solid stove body with four burners on top and a power key on its front."""
    boxes = [f.box(f"{name}/body", (-w / 2, 0, 0), (w / 2, d, h))]
    burners = []
    for i, (u, v) in enumerate(((-w / 4, d / 4), (w / 4, d / 4), (-w / 4, 3 * d / 4), (w / 4, 3 * d / 4))):
        burners.append(f.box(f"{name}/burner_{i + 1}", (u - 0.1, v - 0.1, h), (u + 0.1, v + 0.1, h + 0.01)))
    key = knob(f"{name}/power_key", f, w / 2 - 0.08, h - 0.08, p)
    return boxes + burners, [key], Appliance(name, "stove", None, None, key.name, tuple(burners))
