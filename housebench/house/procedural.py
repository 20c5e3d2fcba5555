"""Procedural houses: a seeded floor plan (:mod:`.split`) furnished by rules (:mod:`.kitchen`, :mod:`.rooms`).

``procedural_house(seed, params)`` reads the ``house:`` params for what all houses share (wall height and
thickness, door sizes, bookcases, the articulated parts); the seed makes everything else: the footprint, the
rooms and their doorways, the kitchen's layout, where every piece stands. The robot starts in the open
middle of the living room. A plan the rules cannot furnish is furnished again with the seed's next
draws, then the next plan is drawn, a few times, then the seed is refused with the reason
(:class:`~housebench.house.program.Unplaceable`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from housebench.house.arrange import Space, doorway_floor, open_spot
from housebench.house.kitchen import kitchen
from housebench.house.layout import House
from housebench.house.program import Unplaceable, room_type
from housebench.house.rooms import ROOMS
from housebench.house.split import Plan, floor_plan

PLANS = 8  # floor plans drawn before the seed is refused
TRIES = 2  # furnishings of one plan before the next plan is drawn
START_KEEP = 0.7  # m from the robot's start to every wall and piece


@dataclass(frozen=True)
class Generated:
    house: House
    plan: Plan
    kitchen: str  # the kitchen's layout: single, galley, L or U


def _furnish(plan: Plan, p: dict[str, Any], rng: np.random.Generator) -> Generated:
    boxes, parts, appliances, layout, spaces = list(plan.boxes), [], [], "", {}
    for room in plan.rooms:
        space = spaces[room.name] = Space(room)
        doorway_floor(space, list(plan.doors), p["door_width"])
        kind = room_type(room.name)

        def name(piece: str, room: str = room.name) -> str:
            return piece if room == room_type(room) else f"{room}_{piece}"

        if kind == "kitchen":
            built, found, layout = kitchen(space, p, rng, name)
        else:
            built, found = ROOMS[kind](space, p, rng, name)
        for b, q in built:
            boxes += b
            parts += q
        appliances += found
    start = open_spot(spaces["living_room"], START_KEEP)
    if start is None:
        raise Unplaceable(f"living_room: no open floor {START_KEEP} m from everything for the robot's start")
    house = House(
        plan.width,
        plan.depth,
        float(p["door_height"]),
        plan.rooms,
        tuple(boxes),
        tuple(parts),
        tuple(appliances),
        (*start, 0.0),
    )
    return Generated(house, plan, layout)


def generate(seed: int, p: dict[str, Any]) -> Generated:
    """House ``seed`` with its plan and kitchen layout (same seed and params, same house)."""
    why = []
    for k in range(PLANS):
        try:
            plan = floor_plan((seed, k), p)
        except Unplaceable as e:
            why.append(str(e))
            continue
        rng = np.random.default_rng((seed, k, 1))
        for _ in range(TRIES):
            try:
                return _furnish(plan, p, rng)
            except Unplaceable as e:
                why.append(str(e))
    raise Unplaceable(f"house {seed}: {why[-1]}")


def procedural_house(seed: int, p: dict[str, Any]) -> House:
    return generate(seed, p).house
