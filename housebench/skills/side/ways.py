"""The ways in of a side pick, each a small primitive, tried in order by one selector (:func:`first_way`, as
py_trees' Selector): the item as it lies (:func:`as_it_lies`); under a ceiling, by its outline
(:func:`by_outline`), else turned first (:func:`turned_first`); on an open top, drawn towards the edge first
(:func:`slid_out`). A way is given the failure of the ways before it; it returns (obs, :func:`entry_stance` of its
entries), or None where it does not apply, or raises its own failure, which the next way is given. The order and
the conditions are the pick's rules: a way that moves the item (a push, a turn) comes after the ways that take it
as it lies."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from housebench.annotations.schema import Support
from housebench.skills.base import Reason, SkillContext, SkillFailure, SkillGen
from housebench.skills.flat_push import PushToEdge
from housebench.skills.side.entries import Entry, entry_stance, outline_entries
from housebench.skills.side.opening import open_edges
from housebench.skills.side.turn import can_turn, turn_item
from housebench.skills.tuning import tuning
from housebench.state import Observation

if TYPE_CHECKING:
    from housebench.skills.side.pick import SidePick

Way = Callable[[SkillContext, Observation, SkillFailure | None], SkillGen]
UNMET = (Reason.UNSUPPORTED, Reason.UNREACHABLE)  # the failures of a way in that another way may mend
ONLY_ASLANT = "aslant"  # ``only`` of the failure of the item as it lies where only aslant ways fit and a turn applies


def first_way(ways: list[Way], ctx: SkillContext, obs: Observation) -> SkillGen:
    """(obs, the stance) of the first of ``ways`` that finds one, each given the failure of the ways before it (None
    for the first); the last failure where none does."""
    failure = None
    for way in ways:
        try:
            found = yield from way(ctx, obs, failure)
        except SkillFailure as err:
            failure = err
            continue
        if found is not None:
            return found
    assert failure is not None  # a way that does not apply leaves a failure before it
    raise failure


def ways_in(pick: SidePick, support: Support | None) -> list[Way]:
    """The ways in of ``pick`` from ``support``, in order: under a ceiling (the level hand's own case) as it lies,
    by its outline, turned first; on an open top as it lies, drawn towards the edge first."""
    first = partial(as_it_lies, pick, support)
    if support is None or support.clearance is None:
        return [first, partial(slid_out, pick)]
    before = [first, partial(by_outline, pick, support)]
    return [*before, partial(turned_first, pick, support, before)]


def as_it_lies(pick: SidePick, support: Support | None, ctx: SkillContext, obs: Observation, failure) -> SkillGen:
    """The pick's entries (``UNSUPPORTED`` where none fits from an open edge), the first a stance reaches
    (``UNREACHABLE``); after a turn, an item that still only aslant ways fit by its outline first. Under a ceiling,
    where only aslant ways fit and a turn applies: ``UNSUPPORTED`` (only aslant; the hand, in past the side wall's
    front at a steep skew, stalls on it)."""
    yield from ()
    entries = pick.entries(ctx, obs)
    aslant = all(e.aslant for e in entries)
    if support is not None and support.clearance is not None and aslant and can_turn(pick, ctx, obs):
        raise pick.fail(Reason.UNSUPPORTED, only=ONLY_ASLANT)
    if pick.turned and aslant:
        entries = [*outline(pick, ctx, obs, support), *entries]
        ctx.log("decision", skill=pick.name, target=pick.obj, choice="outline", after="aslant")
    return obs, entry_stance(pick, ctx, obs, entries)


def by_outline(pick: SidePick, support: Support, ctx: SkillContext, obs: Observation, failure) -> SkillGen:
    """Under a ceiling, an item that no box pinch fits or reaches and no turn applies to: by its outline, where it
    narrows (:func:`outline_entries`: a duck's head); not where its outline gives no pinch."""
    yield from ()
    if failure.reason not in UNMET or can_turn(pick, ctx, obs):
        return None
    entries = outline(pick, ctx, obs, support)
    if not entries:
        return None
    ctx.log("decision", skill=pick.name, target=pick.obj, choice="outline", after=failure.reason.value)
    return obs, entry_stance(pick, ctx, obs, entries)


def turned_first(
    pick: SidePick, support: Support, again: list[Way], ctx: SkillContext, obs: Observation, failure
) -> SkillGen:
    """Under a ceiling, an item lengthwise along the edge (only aslant ways fit, or none fits or reaches) that a
    turning push applies to: turned by straight-in pushes at one end until a straight pinch fits
    (:func:`turn_item`), then the ways ``again`` (a pick turns its item once)."""
    aslant = failure.detail.get("only") == ONLY_ASLANT
    if not aslant and (failure.reason not in UNMET or not can_turn(pick, ctx, obs)):
        return None
    after = "aslant" if aslant else failure.reason.value
    ctx.log("decision", skill=pick.name, target=pick.obj, choice="turn", after=after)
    obs = yield from turn_item(pick, ctx, obs, support)
    return (yield from first_way(again, ctx, obs))


def slid_out(pick: SidePick, ctx: SkillContext, obs: Observation, failure) -> SkillGen:
    """On an open top (the pushing hand, pointing down, needs its room), an item whose ways in no stance reaches (too
    deep in for the level hand): drawn towards their edges first (:class:`PushToEdge`); not where none fits (no
    support under it: fallen; no side fits: it stands)."""
    if failure.reason is not Reason.UNREACHABLE:
        return None
    normals = frozenset(e.edge.normal for e in pick.entries(ctx, obs))
    ctx.log("decision", skill=pick.name, target=pick.obj, slide_to=sorted(normals), after=failure.reason.value)
    overhang = tuning().side.slide_over_m
    obs = yield from PushToEdge(pick.obj, overhang=overhang, normals=normals).body(ctx, obs)
    return obs, entry_stance(pick, ctx, obs, pick.entries(ctx, obs))


def outline(pick: SidePick, ctx: SkillContext, obs: Observation, support: Support) -> list[Entry]:
    """:func:`outline_entries` of ``pick``'s item where it lies."""
    asset, pose = ctx.scene.objects[pick.obj].asset, obs.objects[pick.obj]
    return outline_entries(asset, pose, support, open_edges(ctx.scene.house, support))
