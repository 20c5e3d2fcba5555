"""The evaluator's predicates read symbolically, for the planner.

A symbolic state is a frozenset of facts:

- ``("at", obj, how, where)``: ``how`` is ``on`` (a support's name), ``in`` (a container), ``stacked``
  (on another object) or ``held``; the robot's base stands at ``("base", target)``, the last thing it
  drove to (an object, a support, a part, an appliance);
- ``("open", part)``, ``("pressed", part)``, ``("hot", obj)``, ``("cold", obj)``, ``("lying", obj)``,
  ``("lifted", obj, height)``, ``("seen", obj)``, ``("zone", obj, zone)``, ``("edge", obj, support)``,
  ``("pose", name)``.

The base is near what it last drove to and near what it holds (contracts ask for 1 m, so two things on
one long table are two destinations). ``holds`` judges one condition item the way its
predicate would on a state with those facts; ``make`` asserts a postcondition, keeping the state
consistent (an object is in one place; the hand holds at most one object; a part is open or closed).
Every condition here has concrete names (``ground`` resolved the skill's arguments); the task goal's
slots are expanded by the evaluator's own :class:`~housebench.tasks.context.Context`.
"""

from __future__ import annotations

from dataclasses import dataclass

from housebench.annotations.schema import SceneAnnotations, Support
from housebench.tasks import goal as g
from housebench.tasks import refs

Fact = tuple
State = frozenset


@dataclass
class Symbols:
    """The scene facts the symbolic predicates need: supports by name, part owners, place aliases."""

    scene: SceneAnnotations
    places: dict[str, list[str]]

    def __post_init__(self) -> None:
        self.supports = {s.name: s for s in self.scene.house.supports}
        self.part_owner = {p.name: p.owner for p in self.scene.house.articulated}

    def resolve(self, ref: str) -> list[Support]:
        return refs.supports(ref, self.places, self.scene.house)

    def where(self, state: State, obj: str) -> tuple[str, str]:
        return next(((f[2], f[3]) for f in state if f[0] == "at" and f[1] == obj), ("lost", ""))

    def held(self, state: State) -> list[str]:
        return sorted(f[1] for f in state if f[0] == "at" and f[2] == "held")

    def base(self, state: State) -> str | None:
        return next((f[1] for f in state if f[0] == "base"), None)


def _drop(state: State, keep) -> set:
    return {f for f in state if keep(f)}


def holds(cond: g.Condition, item: str | None, state: State, sym: Symbols) -> bool:
    """Whether ``cond`` holds for ``item`` (a concrete instance or part; None for item-less ones)."""
    p = cond.predicate
    if p in ("on", "near", "at_edge"):
        how, where = sym.where(state, item)
        ok = how == "on" and where in {s.name for s in sym.resolve(cond.support)}
        if p == "at_edge":
            return ok and ("edge", item, where) in state
        return ok and not (getattr(cond, "upright", False) and ("lying", item) in state)
    if p == "inside":
        return sym.where(state, item) == ("in", cond.container)
    if p == "stacked":
        return sym.where(state, item) == ("stacked", cond.base)
    if p == "holding":
        return sym.where(state, item) == ("held", "")
    if p == "hand_empty":
        return not sym.held(state)
    if p == "upright":
        return ("lying", item) not in state
    if p == "lying":
        return ("lying", item) in state
    if p == "closed":
        return ("open", item) not in state
    if p in ("open", "pressed"):
        return (p, item) in state
    if p in ("heated", "chilled"):
        return ("hot" if p == "heated" else "cold", item) in state
    if p == "lifted":
        return any(f[0] == "lifted" and f[1] == item and f[2] >= cond.height for f in state)
    if p == "base_near":
        at = sym.base(state)
        if cond.min_distance > 0:
            return at is None
        return at == cond.target or sym.where(state, cond.target) == ("held", "")
    if p == "in_view":
        return ("seen", item) in state
    if p == "arm_pose":
        return ("pose", cond.pose) in state
    if p == "placed_in_zone":
        return ("zone", item, tuple(cond.zone)) in state
    return p == "not_dropped"


def _place(state: set, obj: str, how: str, where: str) -> set:
    state = {f for f in state if not (f[0] in ("at", "lifted", "zone", "edge") and f[1] == obj)}
    return state | {("at", obj, how, where)}


def make(cond: g.Condition, state: State, sym: Symbols) -> State:
    """``state`` with ``cond`` (concrete names) made true."""
    out, p = set(state), cond.predicate
    items = list(getattr(cond, "items", [])) + list(getattr(cond, "parts", []))
    for item in items:
        if p in ("on", "near", "at_edge"):
            support = sym.resolve(cond.support)[0].name
            if sym.where(out, item) != ("on", support):
                out = _place(out, item, "on", support)
            if p == "at_edge":
                out.add(("edge", item, support))
        elif p == "inside":
            out = _place(out, item, "in", cond.container)
        elif p == "stacked":
            out = _place(out, item, "stacked", cond.base)
        elif p == "holding":
            if sym.where(out, item) != ("held", ""):
                out = _place(out, item, "held", "")
        elif p == "lifted":
            out = _drop(out, lambda f, i=item: not (f[0] == "lifted" and f[1] == i)) | {("lifted", item, cond.height)}
        elif p in ("upright", "lying"):
            out.discard(("lying", item))
            out |= {("lying", item)} if p == "lying" else set()
        elif p == "closed":
            out -= {("open", item), ("pressed", item)}
        elif p in ("open", "pressed"):
            out.add((p, item))
        elif p in ("heated", "chilled"):
            out.add(("hot" if p == "heated" else "cold", item))
        elif p == "in_view":
            out.add(("seen", item))
        elif p == "placed_in_zone":
            out = _place(out, item, *sym.where(out, item)) | {("zone", item, tuple(cond.zone))}
    if p == "hand_empty":
        for obj in sym.held(out):  # let go where it is: on the support below, unknown here
            out = _place(out, obj, "lost", "")
    elif p == "base_near":
        out = _drop(out, lambda f: f[0] != "base")
        if cond.min_distance == 0:
            out.add(("base", cond.target))
    elif p == "arm_pose":
        out.add(("pose", cond.pose))
    return frozenset(out)
