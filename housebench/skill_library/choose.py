"""The choice table: which way of a verb carries it out on a noun, once, for every planner.

A verb with several ways (``pick``: push a flat item over an edge and pinch it, from the side, from above;
``place``: at an edge, from the side, from above) has one row per way, in order; the first row whose rule
holds for the noun is the way taken (:func:`choose`). The scripted policy and the skill library's executors
both choose here, the catalog shows the table (:func:`table_rows`), and a test fails when a way's skill is
made anywhere else (``tests/skill_library/test_choose.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from housebench.annotations.schema import Support
from housebench.skill_library.contracts import World
from housebench.skills.base import Skill, SkillContext
from housebench.skills.flat_pinch import PickOverhang, PlaceAtEdge
from housebench.skills.flat_push import PushToEdge
from housebench.skills.grasp import edge_only, grasps
from housebench.skills.pick import Pick
from housebench.skills.place import Place
from housebench.skills.side import SidePick, SidePlace, low_ceiling, side_pick
from housebench.skills.view import side_held
from housebench.state import Observation


@dataclass(frozen=True)
class Noun:
    """What a rule reads: the item, the state, and where the item goes (``supports``: a pick's next places;
    ``support``: a place's surface; ``container``: an insert's), ``through_door`` when it goes into or comes
    out of an appliance through its open door."""

    ctx: SkillContext
    obs: Observation
    obj: str
    supports: list[Support] = field(default_factory=list)
    support: Support | None = None
    container: str | None = None
    near: tuple[float, float] | None = None
    through_door: bool = False

    @property
    def height(self) -> float:
        return self.ctx.scene.objects[self.obj].asset.size[2]


@dataclass(frozen=True)
class Way:
    verb: str
    name: str
    rule: str  # the rule in words, as the catalog shows it
    holds: Callable[[Noun], bool]
    make: Callable[[Noun], tuple[Skill, ...]]  # the skills that carry it out, one after the other


def flat(noun: Noun) -> bool:
    """No grasp from above fits the item as it lies, and it offers an edge pinch after a push."""
    asset = noun.ctx.scene.objects[noun.obj].asset
    return not grasps(asset, noun.obs.objects[noun.obj]) and any(
        p.kind == "edge_pinch_after_push" for p in asset.grasps
    )


def _side_pick(noun: Noun) -> bool:
    return noun.through_door or side_pick(noun.ctx, noun.obs, noun.obj, noun.supports)


def _side_place(noun: Noun) -> bool:
    return noun.through_door or low_ceiling(noun.support, noun.height) or side_held(noun.ctx, noun.obs)


TABLE: tuple[Way, ...] = (
    Way(
        "pick",
        "slide_and_pinch",
        "a flat item no grasp from above fits: pushed over a free edge, pinched at the overhang",
        flat,
        lambda n: (PushToEdge(n.obj), PickOverhang(n.obj)),
    ),
    Way(
        "pick",
        "side",
        "level, from the side: through an appliance's door, from under a ceiling too low for a hand from above, "
        "or for a place under one",
        _side_pick,
        lambda n: (SidePick(n.obj),),
    ),
    Way("pick", "top", "from above", lambda n: True, lambda n: (Pick(n.obj),)),
    Way(
        "place",
        "at_edge",
        "an item held by its end (taken only at an overhang): set down with its far end at the edge",
        lambda n: edge_only(n.ctx.scene.objects[n.obj].asset),
        lambda n: (PlaceAtEdge(n.obj, support=n.support, near=n.near),),
    ),
    Way(
        "place",
        "side",
        "level, from the side: through an appliance's door, under a ceiling too low for a hand from above, or the "
        "hand already level",
        _side_place,
        lambda n: (SidePlace(n.obj, n.support, near=n.near),),
    ),
    Way("place", "top", "from above", lambda n: True, lambda n: (Place(n.obj, support=n.support, near=n.near),)),
    Way(
        "insert",
        "above_rim",
        "above the container's cavity, lowered below its rim",
        lambda n: True,
        lambda n: (Place(n.obj, container=n.container),),
    ),
)


def ways(verb: str) -> list[Way]:
    return [w for w in TABLE if w.verb == verb]


def choose(verb: str, noun: Noun) -> tuple[Way, tuple[Skill, ...]]:
    """The first way of ``verb`` whose rule holds for ``noun``, and its skills."""
    way = next(w for w in ways(verb) if w.holds(noun))
    return way, way.make(noun)


def for_call(verb: str, args: dict[str, Any], world: World, ctx: SkillContext, obs: Observation) -> tuple[Skill, ...]:
    """The way's skills for a library call of ``pick`` (bound for where the plan sets the item next), ``place`` or
    ``insert`` (``drop`` too)."""
    obj = args["object"]
    if verb == "pick":
        return choose(verb, Noun(ctx, obs, obj, supports=world.bound_supports(obj)))[1]
    if verb == "place":
        return choose(verb, Noun(ctx, obs, obj, support=world.support(args["support"])))[1]
    return choose("insert", Noun(ctx, obs, obj, container=args["container"]))[1]


def table_rows() -> list[dict[str, str]]:
    """The table as the catalog prints it."""
    return [{"verb": w.verb, "way": w.name, "when": w.rule} for w in TABLE]
