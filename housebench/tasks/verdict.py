"""The evaluator's output: shared by the rollout, the results tables, the report and the CLI."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class ItemResult(BaseModel):
    """One goal item (e.g. ``apple`` in ``inside(all:fruit, $container)``) and what was measured."""

    model_config = ConfigDict(extra="forbid")
    item: str
    ok: bool
    reason: str


class ConditionResult(BaseModel):
    model_config = ConfigDict(extra="forbid")
    index: int  # position in the goal's flattened condition list
    predicate: str  # "inside", "on", "upright", ...
    ok: bool
    items: list[ItemResult]


class Verdict(BaseModel):
    model_config = ConfigDict(extra="forbid")
    success: bool
    progress: float  # satisfied items / all items, in [0, 1]
    bindings: dict[str, str] = Field(default_factory=dict)
    conditions: list[ConditionResult]
