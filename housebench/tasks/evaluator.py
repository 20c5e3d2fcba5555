"""The one evaluator: a goal judged on a simulator state (rollout, report and CLI all call it)."""

from __future__ import annotations

from housebench.annotations.schema import SceneAnnotations
from housebench.state import SimState
from housebench.tasks.context import Context
from housebench.tasks.geometry import GoalError
from housebench.tasks.goal import AllOf, AnyOf, Goal, Node
from housebench.tasks.predicates import PREDICATES
from housebench.tasks.verdict import ConditionResult, Verdict

__all__ = ["GoalError", "evaluate"]


def _walk(node: Node, ctx: Context, out: list[ConditionResult]) -> bool:
    """Judge ``node``; every term of a combinator is evaluated (no short-circuit)."""
    if isinstance(node, AllOf):
        return all([_walk(child, ctx, out) for child in node.all_of])
    if isinstance(node, AnyOf):
        return any([_walk(child, ctx, out) for child in node.any_of])
    items = PREDICATES[node.predicate](node, ctx)
    out.append(ConditionResult(index=len(out), predicate=node.predicate, ok=all(i.ok for i in items), items=items))
    return out[-1].ok


def evaluate(goal: Goal, state: SimState, scene: SceneAnnotations, initial: SimState | None = None) -> Verdict:
    """Judge ``goal`` on ``state``. ``initial`` (for ``not_dropped`` / ``lifted``) defaults to the
    scene's annotated poses, i.e. the start of the episode. Bad input raises :class:`GoalError`."""
    ctx = Context(goal, state, scene, initial)
    conditions: list[ConditionResult] = []
    success = _walk(goal.condition, ctx, conditions)
    items = [i for c in conditions for i in c.items]
    progress = sum(i.ok for i in items) / len(items) if items else float(success)
    return Verdict(success=success, progress=progress, bindings=dict(ctx.bindings), conditions=conditions)
