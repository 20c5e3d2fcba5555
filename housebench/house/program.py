"""The room program of a procedural house: which rooms, how big, and which may share a doorway.

Every house has the rooms the tasks name (kitchen, living room, bedroom, study) plus a dining room and a
bathroom; the seed adds up to four more (bedrooms, a second bathroom, a hallway, a laundry), so a house has
6 to 10 rooms. A room's name is its type, numbered from the second of a type on (``bedroom_2``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np


class Unplaceable(RuntimeError):
    """A house the rules cannot build from its seed: no plan fits the program, or a piece finds no spot."""


@dataclass(frozen=True)
class RoomType:
    area: float  # m², the share of the footprint it asks for
    short: float  # m, its shortest side at least (the furniture and the robot's floor need it)
    aspect: float  # longest over shortest side at most


TYPES = {
    "kitchen": RoomType(23.0, 4.2, 1.8),
    "living_room": RoomType(22.0, 3.8, 2.0),
    "dining_room": RoomType(15.0, 3.6, 2.0),
    "bedroom": RoomType(17.0, 3.5, 2.0),
    "study": RoomType(11.0, 3.0, 2.0),
    "bathroom": RoomType(7.0, 2.3, 2.3),
    "hallway": RoomType(7.0, 1.6, 5.0),
    "laundry": RoomType(6.0, 2.1, 2.5),
}
CORE = ("kitchen", "living_room", "dining_room", "bedroom", "study", "bathroom")
EXTRAS = ("bedroom", "bedroom", "bathroom", "hallway", "laundry")
NO_DOOR = {("bathroom", "kitchen"), ("bathroom", "dining_room"), ("kitchen", "bedroom"), ("bathroom", "laundry")}
PRIVATE = ("bathroom", "laundry")  # rooms that keep one doorway


@functools.cache
def room_type(name: str) -> str:
    """``bedroom_2`` -> ``bedroom``."""
    head, _, tail = name.rpartition("_")
    return head if tail.isdigit() else name


def room_program(rng: np.random.Generator) -> list[str]:
    """The rooms of one house: the core six and 0-4 extras, each name unique."""
    extras = [str(e) for e in rng.permutation(EXTRAS)[: int(rng.integers(0, 5))]]
    names, count = [], {}
    for kind in (*CORE, *sorted(extras)):
        count[kind] = count.get(kind, 0) + 1
        names.append(kind if count[kind] == 1 else f"{kind}_{count[kind]}")
    return names


def may_connect(a: str, b: str) -> bool:
    """Whether a doorway may join rooms ``a`` and ``b`` (no bathroom off the kitchen, no two private rooms)."""
    ta, tb = room_type(a), room_type(b)
    pair = tuple(sorted((ta, tb)))
    return pair not in {tuple(sorted(p)) for p in NO_DOOR} and not (ta in PRIVATE and tb in PRIVATE)
