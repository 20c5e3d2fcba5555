"""The one evaluator: a goal judged on a simulator state (rollout, report and CLI all call it).

Progress follows the goal's tree, so no condition outweighs another by its number of items: a leaf
scores the share of its items that hold (an item judged twice in one condition counts once), an
``all_of`` the mean of its terms, an ``any_of`` 1 when it holds, else its best term. A goal whose
root is an ``all_of`` thus gives each top-level condition the same weight.
"""

from __future__ import annotations

from housebench.annotations.schema import SceneAnnotations
from housebench.state import SimState
from housebench.tasks.context import Context
from housebench.tasks.geometry import GoalError
from housebench.tasks.goal import AllOf, AnyOf, Goal, Node
from housebench.tasks.predicates import PREDICATES
from housebench.tasks.verdict import ConditionResult, ItemResult, Verdict

__all__ = ["GoalError", "evaluate"]


def _once(items: list[ItemResult]) -> list[ItemResult]:
    """One result per item name, in first-seen order; an item that failed any judgement failed."""
    merged: dict[str, ItemResult] = {}
    for item in items:
        if item.item not in merged or (merged[item.item].ok and not item.ok):
            merged[item.item] = item
    return list(merged.values())


def _walk(node: Node, ctx: Context, out: list[ConditionResult], where: str) -> tuple[bool, float]:
    """Judge ``node``: (holds, progress). Every term of a combinator is evaluated (no short-circuit)."""
    if isinstance(node, (AllOf, AnyOf)):
        key = "all_of" if isinstance(node, AllOf) else "any_of"
        terms = [_walk(child, ctx, out, f"{where}.{key}[{i}]") for i, child in enumerate(getattr(node, key))]
        if key == "all_of":
            return all(ok for ok, _ in terms), sum(p for _, p in terms) / len(terms)
        ok = any(ok for ok, _ in terms)
        return ok, 1.0 if ok else max(p for _, p in terms)
    items = _once(PREDICATES[node.predicate](node, ctx))
    ok = all(i.ok for i in items)
    progress = sum(i.ok for i in items) / len(items) if items else float(ok)
    out.append(
        ConditionResult(index=len(out), path=where, predicate=node.predicate, ok=ok, progress=progress, items=items)
    )
    return ok, progress


def evaluate(goal: Goal, state: SimState, scene: SceneAnnotations, initial: SimState | None = None) -> Verdict:
    """Judge ``goal`` on ``state``. ``initial`` (for ``not_dropped`` / ``lifted``) defaults to the
    scene's annotated poses, i.e. the start of the episode. Bad input raises :class:`GoalError`."""
    ctx = Context(goal, state, scene, initial)
    conditions: list[ConditionResult] = []
    success, progress = _walk(goal.condition, ctx, conditions, "goal")
    return Verdict(success=success, progress=progress, bindings=dict(ctx.bindings), conditions=conditions)
