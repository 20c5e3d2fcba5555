"""The scripted brain's moves: what the goal asks to be carried where, in which order, onto which surface.

:func:`plan_moves` turns the resolved goal's conditions into *moves* (put an object into a container, or on
a support, near another), skipping what already holds; a container that must itself be moved goes first.
:func:`shape_moves` adds the ``stacked`` (after every other move) and ``lying`` conditions, :func:`clear_the_way`
moves an object lying in the way to another's surfaces before that one, :func:`choose_surface` picks the
surface a place goes to. Plans only: :mod:`housebench.skill_library.script` runs them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from housebench.annotations.schema import Support
from housebench.skills.base import SkillContext
from housebench.skills.navigate import planner
from housebench.skills.side import low_ceiling
from housebench.skills.tuning import tuning
from housebench.skills.view import support_of
from housebench.state import Observation
from housebench.tasks import goal as g
from housebench.tasks import refs
from housebench.tasks.context import Context
from housebench.tasks.evaluator import evaluate
from housebench.tasks.geometry import box_distance


@dataclass
class Move:
    """Bring ``obj`` into ``container``, or onto one of ``supports`` (near ``near`` when given)."""

    obj: str
    container: str | None = None
    supports: list[Support] = field(default_factory=list)
    near: str | None = None
    check: list[g.Condition] = field(default_factory=list)  # done when these hold
    failed: set[str] = field(default_factory=set)  # surfaces a place found unreachable or full
    base: str | None = None  # stack on this object (``stacked``) instead of a support
    lay: bool = False  # lay it on its side on the support (``lying``)
    where: str | None = None  # the goal's name for ``supports`` (a support, its owner or a place alias)

    def describe(self) -> str:
        where = self.container or self.base or "|".join(s.name for s in self.supports)
        where += " (lying)" if self.lay else ""
        return f"{self.obj} -> {where}" + (f" near {self.near}" if self.near else "")


def plan_moves(ctx: SkillContext, obs: Observation) -> list[Move]:
    """The moves the goal asks for, in order, skipping what already holds."""
    goal = ctx.task.goal
    view = Context(goal, obs.state, ctx.scene, ctx.initial)
    moves: dict[str, Move] = {}
    bound: dict[str, str] = {}

    def first(slot: str) -> list[str]:
        if slot.startswith("$"):
            return [bound[slot[1:]]] if slot[1:] in bound else []
        return [cands[0] for cands in view.items(slot) if cands]

    for _, cond in g.leaves(goal.condition):
        if isinstance(cond, g.Inside):
            container = _choose_container(view, cond)
            if cond.bind:
                bound[cond.bind] = container
            for obj in (o for slot in cond.items for o in first(slot)):
                check = g.Inside(predicate="inside", items=[obj], container=container)
                moves.setdefault(obj, Move(obj, container=container, check=[check]))
        elif isinstance(cond, (g.On, g.Near)):
            supports = refs.supports(cond.support, goal.places, ctx.scene.house)
            objs = [o for slot in cond.items for o in first(slot)]
            for k, obj in enumerate(objs):
                check = g.On(predicate="on", items=[obj], support=cond.support)
                near = objs[0] if isinstance(cond, g.Near) and k > 0 else None
                move = moves.setdefault(obj, Move(obj, supports=supports, near=near, where=cond.support))
                if not move.supports:
                    move.supports, move.where = supports, cond.support
                move.check.append(check)
    todo = [m for m in moves.values() if not ctx.judge(m.check, obs.state).success]
    containers = {m.container for m in todo if m.container}
    return sorted(todo, key=lambda m: m.obj not in containers)  # containers that move go first


def in_reach(ctx: SkillContext, obs: Observation, supports: list[Support], skip: tuple[str, ...]) -> bool:
    """Whether the floor's largest free piece, with the props but ``skip`` in the way, comes within
    ``skills.script.way_m`` of one of ``supports``."""
    base = planner(ctx, obs, skip)
    rows, cols = np.nonzero(base.main)
    xs = base.grid.x0 + cols * base.grid.resolution
    ys = base.grid.y0 + rows * base.grid.resolution
    for support in supports:
        xmin, ymin, xmax, ymax = support.box
        dx, dy = np.maximum(np.maximum(xmin - xs, xs - xmax), 0.0), np.maximum(np.maximum(ymin - ys, ys - ymax), 0.0)
        if (np.hypot(dx, dy) <= tuning().script.way_m).any():
            return True
    return False


def clear_the_way(ctx: SkillContext, obs: Observation, moves: list[Move]) -> list[Move]:
    """``moves`` with an object that lies in the way to another move's surfaces (out of reach with it
    there, within reach without it: a toy in the only passage to the bed) moved before that move, where
    its own surfaces are within reach."""
    order = list(moves)
    for move in moves:
        if not move.supports or in_reach(ctx, obs, move.supports, (move.obj,)):
            continue
        for other in list(order):
            if other is move or order.index(other) < order.index(move):
                continue
            frees = in_reach(ctx, obs, move.supports, (move.obj, other.obj))
            if frees and (not other.supports or in_reach(ctx, obs, other.supports, (other.obj,))):
                order.remove(other)
                order.insert(order.index(move), other)
                ctx.log("decision", move=other.describe(), why=f"in the way to {move.describe()}")
    return order


def shape_moves(ctx: SkillContext, obs: Observation, moves: list[Move]) -> list[Move]:
    """``moves`` with the goal's ``stacked`` and ``lying`` conditions added: stacking moves go after
    every other (their base may have to move first); a ``lying`` item is laid on the support its move
    (or, when it already holds, the one it rests on) names."""
    goal = ctx.task.goal
    view = Context(goal, obs.state, ctx.scene, ctx.initial)
    by_obj = {m.obj: m for m in moves}
    stacks = []
    for _, cond in g.leaves(goal.condition):
        if not isinstance(cond, (g.Stacked, g.Lying)):
            continue
        for obj in (cands[0] for slot in cond.items for cands in view.items(slot) if cands):
            if isinstance(cond, g.Stacked):
                base = view.items(cond.base)[0][0]
                check = g.Stacked(predicate="stacked", items=[obj], base=base)
                if not ctx.judge([check], obs.state).success:
                    stacks.append(Move(obj, base=base, check=[check]))
                continue
            check = g.Lying(predicate="lying", items=[obj])
            if ctx.judge([check], obs.state).success:
                continue
            if obj not in by_obj:
                under = support_of(ctx, obs, obj)
                by_obj[obj] = Move(obj, supports=[under] if under else [], where=under.name if under else None)
                moves = [*moves, by_obj[obj]]
            by_obj[obj].lay = True
            by_obj[obj].check.append(check)
    return [*moves, *stacks]


def toppled(ctx: SkillContext, obs: Observation, every: bool = False) -> list[str]:
    """The items of the goal's ``upright`` conditions measured tilted past their limit now (``every``: all of them)."""
    goal = ctx.task.goal
    verdict = evaluate(goal, obs.state, ctx.scene, initial=ctx.initial)
    return [i.item for c in verdict.conditions if c.predicate == "upright" for i in c.items if every or not i.ok]


def _choose_container(view: Context, cond: g.Inside) -> str:
    """The first container candidate (the goal lists alternatives in order of preference)."""
    return view.items(cond.container)[0][0]


def choose_surface(ctx: SkillContext, obs: Observation, move: Move, near) -> Support | None:
    """The surface of ``move``'s supports a place goes to: one it reaches and has not failed on; room for a
    top-down place first, open tops first, then the nearest to ``near`` (the robot when None)."""
    height = ctx.scene.objects[move.obj].asset.size[2]
    usable = [s for s in move.supports if placeable(s, height) and s.name not in move.failed]
    at = near or obs.base[:2]
    return min(
        usable, key=lambda s: (low_ceiling(s, height), s.clearance is not None, box_distance(s.box, at)), default=None
    )


def placeable(support: Support, height: float) -> bool:
    """A surface a top-down place reaches and has room above, or one under a ceiling a place from the
    side reaches."""
    if low_ceiling(support, height):
        return support.height <= tuning().script.max_side_height_m
    return support.height <= tuning().script.max_place_height_m
