"""Frozen splits: every task variant belongs to ``train``, ``val`` or ``test`` by a rule written in params.yaml.

The rule is a seeded hash: ``sha256("<seed>/<task>/<variant>")`` read as a number in [0, 1) puts the variant in
``test`` below ``test``, in ``val`` below ``test + val``, else in ``train``. A variant keeps its split however many
variants a task has and whatever other tasks exist, so adding variants never moves one across splits. A held-out
test set of variants nobody trained on is sampled from a seed that is not in the repository (every variant of such
a run is ``test``: ``flows/heldout.py``).

Houses are a split too: every variant sampled in a held-out house (params.yaml ``houses.held_out``, marked in
``scenes/house/houses.json``) is ``test``, whatever its draw; the other houses' variants split by the rule.
"""

from __future__ import annotations

import hashlib

from pydantic import Field, model_validator

from housebench.house.houses import load_house_set
from housebench.jsonfile import load_model
from housebench.params import Section
from housebench.paths import GRID, Layout
from housebench.tasks.spec import TaskVariant

SPLITS = ("train", "val", "test")


class SplitParams(Section):
    """The ``splits`` section of params.yaml."""

    seed: int = Field(0, ge=0)
    val: float = Field(0.2, ge=0, le=1)  # share of each task's variants in val
    test: float = Field(0.2, ge=0, le=1)  # ... and in test; the rest is train

    @model_validator(mode="after")
    def _shares(self) -> SplitParams:
        if self.val + self.test > 1:
            raise ValueError("val + test must be at most 1")
        return self


def draw(seed: int, task: str, variant: str) -> float:
    """The variant's place in [0, 1), from the seed, the task and the variant's name alone."""
    digest = hashlib.sha256(f"{seed}/{task}/{variant}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def split_of(task: str, variant: str, params: SplitParams, held_out_house: bool = False) -> str:
    """``train``, ``val`` or ``test`` (``test`` for every variant of a held-out house)."""
    if held_out_house:
        return "test"
    u = draw(params.seed, task, variant)
    if u < params.test:
        return "test"
    return "val" if u < params.test + params.val else "train"


def held_out_houses(layout: Layout) -> frozenset[str]:
    """The ids of ``layout``'s held-out houses (``houses.json``; none without one)."""
    return frozenset(h.id for h in load_house_set(layout).houses if h.held_out)


def variant_split(layout: Layout, task: str, variant: str, params: SplitParams, held: frozenset[str]) -> str:
    """:func:`split_of` the variant, its house read from its ``task.json`` when any house is held out (``held``)."""
    house = load_model(TaskVariant, layout.task_dir(task, variant) / "task.json").house if held else GRID
    return split_of(task, variant, params, house in held)
