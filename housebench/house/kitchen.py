"""Kitchens of several layouts: counter runs on the walls (galley, L, U or a single wall) and a free-standing
island, with the fridge, the stove and the microwave in seeded places.

A run is a row of units against one wall, in the order along it: the two counters the tasks name
(``counter_south`` and ``counter_west``: the first and the second counter, whichever wall they stand on), the
stove, the fridge (at an open end of a run, 0.1 m from its neighbour, so its door opens past it), and blind
blocks in the corners (``counter_corner_N``: a solid block with a top, no front, so that no handle sits where
no base can stand); a U also has a ``kitchen_counter`` filling its middle wall and a ``kitchen_pantry``. A
cabinet's doors hinge at its ends, but at a run's end it has drawers there, so a run asks for floor before its
fronts (a drawer's travel and a stance) and beyond its ends only where the fridge ends it (its open door, its
tall sides). The microwave stands at the right end of a seeded counter. Every layout has the ``kitchen_island``
(drawers), free-standing with floor round it and more before its drawers. A layout is tried on each wall as its
first (or middle) run, in seeded orders, until one fits.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from housebench.house.appliances import Appliance, fridge, microwave, stove
from housebench.house.arrange import (
    FRONT_GAP,
    SIDES,
    Rect,
    Space,
    drawn,
    lo_is_left,
    put_free,
    wall_length,
)
from housebench.house.furniture import Built, block, cabinet
from housebench.house.program import Unplaceable

DEPTH, HEIGHT = 0.6, 0.9  # counters
FRIDGE = (0.7, 0.7, 1.8)  # width, depth, height
BLIND = 1.0  # m of a corner block on the run that owns the corner
SHORT = 0.4  # m of a corner block on the run that meets it
CLOSED = 0.15  # m of floor beyond a run's end at a corner
AROUND = 0.9  # m of floor round the island
LAYOUTS = ("single", "galley", "L", "U")
OPPOSITE = {"S": "N", "N": "S", "E": "W", "W": "E"}

Unit = tuple[str, str, float]  # kind (counter, stove, fridge, blind, gap), name, width along the wall


def wall_rect(space: Space, side: str, a: tuple[float, float], d: tuple[float, float]) -> Rect:
    """The plan of ``a`` along wall ``side`` (from the end nearest the room's lower-left) and ``d`` from it."""
    r = space.room
    return {
        "S": (r.x0 + a[0], r.y0 + d[0], r.x0 + a[1], r.y0 + d[1]),
        "N": (r.x0 + a[0], r.y1 - d[1], r.x0 + a[1], r.y1 - d[0]),
        "W": (r.x0 + d[0], r.y0 + a[0], r.x0 + d[1], r.y0 + a[1]),
        "E": (r.x1 - d[1], r.y0 + a[0], r.x1 - d[0], r.y0 + a[1]),
    }[side]


def _fronts(width: float, left: bool, right: bool) -> list[str]:
    """Drawers between doors hinged at the cabinet's ends; drawers at an end that is the run's (``left``,
    ``right``: no floor beyond it need be kept for a door's handle)."""
    n = max(2, int(width / 0.5))
    return ["drawers:3" if left else "door_left", *["drawers:3"] * (n - 2), "drawers:3" if right else "door_right"]


def _margin(unit: Unit) -> float:
    """Floor kept beyond the run's end at ``unit``: a fridge needs it (its open door, and its tall sides keep the
    robot's arm from its handle near the end)."""
    return SIDES[0] if unit[0] == "fridge" else CLOSED


def _depth(kind: str) -> float:
    return FRIDGE[1] if kind == "fridge" else DEPTH


def _place_run(
    space: Space, side: str, units: list[Unit], rng: np.random.Generator, reach: float, pin: str = ""
) -> float:
    """Where along wall ``side`` the run starts: at the lower end (``pin`` "lo"), flush with the upper one
    ("hi"), or a seeded spot where it fits ("": both ends open); its plan and floor taken."""
    total, length = sum(u[2] for u in units), wall_length(space.room, side)
    starts = {"lo": [0.0], "hi": [length - total]}.get(pin) or list(rng.permutation(np.arange(0, length - total, 0.05)))
    edges = np.cumsum([0.0] + [u[2] for u in units])
    handled = [i for i, u in enumerate(units) if u[0] not in ("blind", "gap")]
    lo_end, hi_end = edges[handled[0]], edges[handled[-1] + 1]
    lo_m, hi_m = _margin(units[handled[0]]), _margin(units[handled[-1]])
    for a0 in starts:
        if a0 < -1e-9:
            break
        plans = [
            wall_rect(space, side, (a0 + edges[i], a0 + edges[i + 1]), (0, _depth(u[0])))
            for i, u in enumerate(units)
            if u[0] != "gap"
        ]
        floor = wall_rect(space, side, (a0 + lo_end - lo_m, a0 + hi_end + hi_m), (DEPTH + FRONT_GAP, DEPTH + reach))
        if space.fits(plans, [floor]):
            space.take(plans, [floor])
            return float(a0)
    raise Unplaceable(f"{space.room.name}: no {side} wall for a run of {[u[1] for u in units]}")


def _build_run(space: Space, side: str, units: list[Unit], a0: float, p: dict[str, Any], out: dict) -> None:
    starts = a0 + np.cumsum([0.0] + [u[2] for u in units])
    for i, ((kind, name, width), start) in enumerate(zip(units, starts)):
        depth = _depth(kind)
        f = space.room.against(side, float(start + width / 2), depth)
        if kind == "counter":
            ends = (i == 0 or units[i - 1][0] == "blind", i == len(units) - 1 or units[i + 1][0] == "blind")
            left, right = ends if lo_is_left(side) else ends[::-1]
            out["built"].append(cabinet(name, f, width, depth, HEIGHT, _fronts(width, left, right), p["parts"]))
            out["counters"].append((f, width))
        elif kind == "blind":
            out["built"].append(block(name, f, {"body": ((-width / 2, 0.0, 0.0), (width / 2, depth, HEIGHT))}))
        elif kind == "stove":
            b, q, a = stove(name, f, width, depth, HEIGHT, p["parts"])
            out["built"].append((b, q))
            out["appliances"].append(a)
        elif kind == "fridge":
            b, q, a = fridge(name, f, width, depth, FRIDGE[2], [0.5, 0.9, 1.3], p["parts"])
            out["built"].append((b, q))
            out["appliances"].append(a)


def _runs(layout: str, first: str, space: Space, rng: np.random.Generator) -> list[tuple[str, list[Unit], str]]:
    """The runs of ``layout`` with its first (or middle) run on wall ``first``: (wall, units in order along it,
    pin)."""
    south = ("counter", "counter_south", round(float(rng.uniform(1.4, 2.0)), 1))
    west = ("counter", "counter_west", round(float(rng.uniform(1.2, 1.6)), 1))
    cooker, cold = ("stove", "stove", 0.6), ("fridge", "fridge", FRIDGE[0])
    gap = ("gap", "", 0.1)
    r = space.room
    pair = [south, cooker] if rng.uniform() < 0.5 else [cooker, south]
    if layout == "single":
        row = [*pair, west] if rng.uniform() < 0.5 else [west, *pair]
        row = [cold, gap, *row] if rng.uniform() < 0.5 else [*row, gap, cold]
        return [(first, row, "")]
    if layout == "galley":
        if rng.uniform() < 0.5:
            return [(first, [*pair, gap, cold], ""), (OPPOSITE[first], [west], "")]
        return [(first, pair, ""), (OPPOSITE[first], [cold, gap, west], "")]
    if layout == "L":  # `first` owns the corner with a wall beside it
        second = str(rng.choice(list("WE" if first in "SN" else "SN")))
        return [_owner(first, second, [*pair]), _side(second, first, [west, gap, cold], 2)]
    ends = "WE" if first in "SN" else "SN"  # U: `first` and both walls beside it
    middle = [("blind", "counter_corner_1", BLIND), *pair]
    fill = wall_length(r, first) - sum(u[2] for u in middle)
    if fill < BLIND:
        raise Unplaceable(f"{r.name}: the {first} wall is too short for a U kitchen")
    if fill >= BLIND + 0.6:  # a plain counter (drawers) before the corner
        middle.append(("counter", "kitchen_counter", round(fill - BLIND, 6)))
    middle.append(("blind", "counter_corner_2", round(BLIND if fill >= BLIND + 0.6 else fill, 6)))
    pantry = ("counter", "kitchen_pantry", 1.0)
    lo = _meets_lo(first, ends[0])
    return [
        (first, middle if lo else middle[::-1], "lo"),
        _side(ends[0], first, [west, gap, cold], 3),
        _side(ends[1], first, [pantry], 4),
    ]


def _meets_lo(wall: str, other: str) -> bool:
    """Whether wall ``other`` meets wall ``wall`` at its lower end (S and N walls run from the west wall, W
    and E walls from the south wall)."""
    return other == ("W" if wall in "SN" else "S")


def _owner(wall: str, other: str, units: list[Unit]) -> tuple[str, list[Unit], str]:
    """A run that owns the corner with wall ``other``: a blind block in the corner, then ``units``."""
    row = [("blind", "counter_corner_1", BLIND), *units]
    return (wall, row, "lo") if _meets_lo(wall, other) else (wall, row[::-1], "hi")


def _side(wall: str, other: str, units: list[Unit], k: int) -> tuple[str, list[Unit], str]:
    """A run that meets the corner run on wall ``other``: past its depth a short blind block, then ``units``."""
    row = [("gap", "", DEPTH), ("blind", f"counter_corner_{k}", SHORT), *units]
    return (wall, row, "lo") if _meets_lo(wall, other) else (wall, row[::-1], "hi")


def kitchen(space: Space, p: dict[str, Any], rng: np.random.Generator, n) -> tuple[list[Built], list[Appliance], str]:
    """The kitchen's runs, island and appliances in the first layout and first wall (seeded orders) that fit; the
    layout's name."""
    why = []
    for layout, first in itertools.product(rng.permutation(LAYOUTS), rng.permutation(list("NESW"))):
        trial = Space(space.room, list(space.solid), list(space.clear))
        out: dict = {"built": [], "appliances": [], "counters": []}
        try:
            for wall, units, pin in _runs(str(layout), str(first), trial, rng):
                _build_run(
                    trial, wall, units, _place_run(trial, wall, units, rng, drawn(DEPTH, p["parts"]), pin), p, out
                )
            isle = put_free(trial, "kitchen_island", 1.4, 0.7, AROUND, rng, drawn(0.7, p["parts"]))
        except Unplaceable as e:
            why.append(f"{layout} from {first}: {e}")
            continue
        out["built"].append(cabinet("kitchen_island", isle, 1.4, 0.7, HEIGHT, ["drawers:2", "drawers:2"], p["parts"]))
        f, width = out["counters"][int(rng.integers(len(out["counters"])))]
        b, q, a = microwave("microwave", f.shifted(width / 2 - 0.3, 0.2), 0.5, 0.38, 0.3, HEIGHT, p["parts"])
        space.solid, space.clear = trial.solid, trial.clear
        return [*out["built"], (b, q)], [*out["appliances"], a], str(layout)
    raise Unplaceable(f"{space.room.name}: no kitchen layout fits ({'; '.join(why)})")
