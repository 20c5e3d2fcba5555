"""The house set (issue 31): the houses a run samples its tasks in, each built and checked, the bad ones listed.

The ``houses:`` section of ``params.yaml`` names the set: ``grid`` (the ``house:`` section's house, id ``grid``:
the default set's only house, today's), ``procedural`` (seeds of :mod:`.procedural` houses, ids ``p<seed:03d>``)
and ``held_out`` (more seeds: houses whose variants are all ``test``, never trained on). The grid house is built
either way (``scenes/house/house.usda`` is the layout's reference house) and must have every room reachable,
as before; a procedural house the rules cannot build, or that fails an access test
(:func:`~housebench.house.access.check_house`, against the names the task specs use), is a bad house: listed
with its reason in ``houses.json`` and left out of the set, never silently.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import Field, model_validator

from housebench.annotations.schema import HouseAnnotations
from housebench.house.access import Needs, check_house
from housebench.house.annotate import house_annotations
from housebench.house.layout import House, generate_house
from housebench.house.procedural import procedural_house
from housebench.house.program import Unplaceable
from housebench.house.query import HouseQuery
from housebench.jsonfile import SpecError, load_model
from housebench.params import Section
from housebench.paths import GRID, HOUSES_FILE, Layout

MAX_HOUSES = 1000
Seeds = list[int]


class HousesParams(Section):
    """The ``houses:`` section of ``params.yaml``."""

    grid: bool  # tasks are sampled in the ``house:`` section's house (id ``grid``)
    procedural: Seeds = Field(max_length=MAX_HOUSES)  # seeds of procedural houses (ids p000, p001, ...)
    held_out: Seeds = Field(max_length=MAX_HOUSES)  # seeds of procedural houses whose variants are all test

    @model_validator(mode="after")
    def _seeds(self) -> HousesParams:
        seeds = [*self.procedural, *self.held_out]
        if any(s < 0 for s in seeds):
            raise ValueError("a seed is negative")
        if len(set(seeds)) < len(seeds):
            raise ValueError("a seed is named twice (in procedural or held_out, or in both)")
        if not self.grid and not seeds:
            raise ValueError("no house: grid is false and no seed is named")
        return self


def house_id(seed: int) -> str:
    """The id of procedural house ``seed``: ``p007``."""
    return f"p{seed:03d}"


def held_out_ids(params: HousesParams) -> frozenset[str]:
    """The ids of the held-out houses (every variant sampled in one is ``test``)."""
    return frozenset(house_id(s) for s in params.held_out)


class HouseEntry(Section):
    id: str
    seed: int | None  # None: the grid house (its seed is the ``house:`` section's)
    held_out: bool


class BadHouse(Section):
    id: str
    seed: int
    reason: str  # why it is not in the set: the rule that could not place a piece, or the failed access tests


class HouseSet(Section):
    """``scenes/house/houses.json``: the set's houses (in order) and the bad houses left out, with their reasons."""

    houses: list[HouseEntry] = Field(min_length=1)
    bad: list[BadHouse]

    def ids(self) -> list[str]:
        return [h.id for h in self.houses]


DEFAULT_SET = HouseSet(houses=[HouseEntry(id=GRID, seed=None, held_out=False)], bad=[])


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
) -> tuple[Built, list[Built], HouseSet]:
    """The grid house, the set's houses (the grid house first when ``grid``) and the set's record (bad houses
    listed with their reasons, in seed order as named)."""
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
    if not built:
        raise SystemExit(f"params.yaml houses: every house is bad: {[f'{b.id}: {b.reason}' for b in bad]}")
    return grid, built, HouseSet(houses=[b.entry for b in built], bad=bad)


def load_house_set(layout: Layout) -> HouseSet:
    """``houses.json`` of ``layout`` (a layout built before house sets has none: the grid house alone)."""
    path = layout.at(HOUSES_FILE)
    if not path.is_file():
        return DEFAULT_SET
    try:
        return load_model(HouseSet, path)
    except SpecError as err:
        raise SystemExit(str(err)) from None
