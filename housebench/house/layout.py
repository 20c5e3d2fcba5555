"""A seeded multi-room house as plain data: rooms, static boxes, articulated parts, appliances.

World frame: metres, Z up, floor top at z = 0, the house spans ``[0, width] x [0, depth]``. Static
boxes are named ``<owner>/<part>`` (``dining_table/top``, ``walls/x1_1_lintel_1``); moving parts are
:class:`~housebench.house.parts.Part` named ``<owner>/<part>`` (``fridge/door``). The seed moves the
room grid, the doorways and the furniture along their walls; same params, same house.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from housebench.house.appliances import Appliance
from housebench.house.furnish import furnish
from housebench.house.geometry import Box, penetration
from housebench.house.parts import Part
from housebench.house.plan import Room, floor_plan

__all__ = ["Box", "House", "body_overlaps", "generate_house"]


@dataclass(frozen=True)
class House:
    width: float
    depth: float
    door_height: float
    rooms: tuple[Room, ...]
    boxes: tuple[Box, ...]  # static colliders: floor, walls, furniture
    parts: tuple[Part, ...]  # articulated parts, closed
    appliances: tuple[Appliance, ...]
    robot_start: tuple[float, float, float]  # x, y, yaw


def generate_house(params: dict[str, Any]) -> House:
    """The house for the ``house:`` section of ``params.yaml`` (same params, same house)."""
    rng = np.random.default_rng(params["seed"])
    rooms, structure = floor_plan(params, rng)
    j = params["furniture_jitter"]
    boxes, parts, appliances = furnish(rooms, params, lambda: float(rng.uniform(-j, j)))
    x, y, yaw = (float(v) for v in params["robot_start"])
    return House(
        float(params["size"][0]),
        float(params["size"][1]),
        float(params["door_height"]),
        tuple(rooms),
        tuple(structure + boxes),
        tuple(parts),
        tuple(appliances),
        (x, y, yaw),
    )


def body_overlaps(house: House, tol: float = 1e-6) -> list[tuple[str, str, float]]:
    """Boxes of separate bodies that overlap by more than ``tol`` (m): each moving part against the
    static house and against every other part, as ``(box, box, depth)``. An engine that does not
    filter the pair (MuJoCo's backend does, in code) would push them apart."""
    found = []
    for i, part in enumerate(house.parts):
        others = [*house.boxes, *(b for q in house.parts[i + 1 :] for b in q.boxes)]
        for a in part.boxes:
            found += [(a.name, b.name, d) for b in others if (d := penetration(a, b)) > tol]
    return found
