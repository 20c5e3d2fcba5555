"""Building the house set of the ``houses:`` params (:mod:`.houses`): the grid house, then each procedural seed
built and put through the access tests; a seed that fails is a :class:`~housebench.house.houses.BadHouse` with its
reason."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from housebench.annotations.schema import HouseAnnotations
from housebench.house.access import Needs, check_house
from housebench.house.annotate import house_annotations
from housebench.house.houses import BadHouse, HouseEntry, HousesParams, house_id
from housebench.house.layout import House, generate_house
from housebench.house.procedural import procedural_house
from housebench.house.program import Unplaceable
from housebench.house.query import HouseQuery
from housebench.paths import GRID


@dataclass(frozen=True)
class Built:
    entry: HouseEntry
    house: House
    annotations: HouseAnnotations


def grid_house(house_params: dict[str, Any]) -> Built:
    """The ``house:`` section's house; a room its robot cannot reach is a one-line exit (the stage fails)."""
    house = generate_house(house_params)
    ann = house_annotations(house)
    unreachable = {r.name for r in ann.rooms} - HouseQuery(ann, house_params["grid"]).reachable_rooms()
    if unreachable:
        raise SystemExit(f"params.yaml house: rooms not reachable from the robot start: {sorted(unreachable)}")
    return Built(HouseEntry(id=GRID, seed=None, held_out=False), house, ann)


def build_set(
    params: HousesParams, house_params: dict[str, Any], needs: Needs | None
) -> tuple[Built, list[Built], list[BadHouse]]:
    """The grid house, the set's houses that pass the access tests (the grid house first when ``grid``) and the bad
    houses with their reasons, each in the order named."""
    grid = grid_house(house_params)
    built, bad = [grid] if params.grid else [], []
    for seed, held in [*((s, False) for s in params.procedural), *((s, True) for s in params.held_out)]:
        try:
            house = procedural_house(seed, house_params)
        except Unplaceable as err:
            bad.append(BadHouse(id=house_id(seed), seed=seed, reason=f"not built: {err}"))
            continue
        if reasons := check_house(house, needs or Needs()):
            bad.append(BadHouse(id=house_id(seed), seed=seed, reason="; ".join(reasons)))
            continue
        built.append(Built(HouseEntry(id=house_id(seed), seed=seed, held_out=held), house, house_annotations(house)))
    return grid, built, bad
