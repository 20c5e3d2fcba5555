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
    path: str  # where in the goal tree, e.g. "goal.all_of[2]" or "goal.all_of[0].any_of[1]"
    predicate: str  # "inside", "on", "upright", ...
    ok: bool
    progress: float  # share of its items that hold (1 for a condition without items that holds)
    items: list[ItemResult]


class Verdict(BaseModel):
    model_config = ConfigDict(extra="forbid")
    success: bool
    progress: float  # in [0, 1], by the goal's tree: each top-level condition weighs the same (evaluator)
    bindings: dict[str, str] = Field(default_factory=dict)
    conditions: list[ConditionResult]
