"""The house set (issue 31): the houses a run samples its tasks in, each built and checked, the bad ones listed.

The ``houses:`` section of ``params.yaml`` names the set: ``grid`` (the ``house:`` section's house, id ``grid``:
the default set's only house, today's), ``procedural`` (seeds of :mod:`.procedural` houses, ids ``p<seed:03d>``)
and ``held_out`` (more seeds: houses whose variants are all ``test``, never trained on). The grid house is built
either way (``scenes/house/house.usda`` is the layout's reference house) and must have every room reachable,
as before; a procedural house the rules cannot build, that fails an access test
(:func:`~housebench.house.access.check_house`, against the names the task specs use) or is unstable in physics
(:mod:`housebench.pipeline.house`) is a bad house: listed with its reason in ``houses.json`` and left out of the
set, never silently (:mod:`.build` builds the set; this module is the set's params and record, light enough for
every stage that reads them).
"""

from __future__ import annotations

from pydantic import Field, model_validator

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


def load_house_set(layout: Layout) -> HouseSet:
    """``houses.json`` of ``layout`` (a layout built before house sets has none: the grid house alone)."""
    path = layout.at(HOUSES_FILE)
    if not path.is_file():
        return DEFAULT_SET
    try:
        return load_model(HouseSet, path)
    except SpecError as err:
        raise SystemExit(str(err)) from None
