"""Hand skills on a held object beyond pick and place: lower, regrasp, stack.

- ``lower`` (:class:`Lower`): as ``place`` down to the surface (the bottom ``skills.hand.contact_m`` over it), but
  the fingers stay closed: the object rests on the support and is still held.
- ``regrasp`` (:class:`Regrasp`): set the held object down on the support it was first taken from (the
  episode's start), open, and pick it again by its own grasp.
- ``stack`` (:class:`Stack`): ``place`` onto the top face of another object where it is now (the
  object stacked on is no obstacle to its own top); a flat item held at its end by ``StackAtEdge``.
- ``lay`` and ``upright``: :mod:`housebench.skills.lay`.
"""

from __future__ import annotations

from housebench.annotations.schema import Support
from housebench.house.query import HouseQuery
from housebench.skills.base import ObjectSkill, Reason, Skill, SkillContext, SkillFailure, SkillGen
from housebench.skills.flat_pinch import StackAtEdge
from housebench.skills.grasp import edge_only
from housebench.skills.pick import Pick
from housebench.skills.place import Place
from housebench.skills.tuning import tuning
from housebench.state import ObjectState, Observation
from housebench.tasks import goal as g
from housebench.tasks.geometry import world_box


class Lower(Place):
    """Lower the held object onto ``support`` and keep holding it."""

    name = "lower"

    @property
    def drop(self) -> float:
        return tuning().hand.contact_m

    def __init__(self, obj: str, support: Support) -> None:
        super().__init__(obj, support=support)

    def postconditions(self, ctx: SkillContext):
        return [g.Holding(predicate="holding", items=[self.obj]), *super().postconditions(ctx)]

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        obs, _, _ = yield from self.lower(ctx, obs)
        if not obs.holding(self.obj):
            raise self.fail(Reason.DROPPED, where="lowered", height=round(obs.objects[self.obj].pos[2], 3))
        return obs


def resting_on(ctx: SkillContext, pose: ObjectState, obj: str) -> Support | None:
    """The support under ``obj`` at ``pose``: the highest at most ``skills.hand.sink_m`` over its box's bottom (a
    round body lying on its side sinks its box corners into the surface)."""
    box = world_box(pose, ctx.scene.objects[obj].asset)
    return HouseQuery(ctx.scene.house).support_under(
        (box[0] + box[3]) / 2, (box[1] + box[4]) / 2, box[2] + tuning().hand.sink_m
    )


def start_support(ctx: SkillContext, obs: Observation, obj: str) -> Support | None:
    """The support ``obj`` rested on when the episode started."""
    if ctx.initial is None or obj not in ctx.initial.objects:
        return None
    return resting_on(ctx, ctx.initial.objects[obj], obj)


class Regrasp(ObjectSkill):
    """Set the held object down where it started, let go, take it again (a fresh, centred grasp)."""

    name = "regrasp"

    @property
    def timeout_s(self) -> float:  # type: ignore[override]
        return tuning().hand.regrasp_timeout_s

    def preconditions(self, ctx: SkillContext):
        return [g.Holding(predicate="holding", items=[self.obj])]

    def postconditions(self, ctx: SkillContext):
        return [g.Holding(predicate="holding", items=[self.obj])]

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        support = start_support(ctx, obs, self.obj)
        if support is None:
            raise self.fail(Reason.UNSUPPORTED, why="no support under its start")
        ctx.log("decision", skill=self.name, set_down=support.name)
        obs = yield from Place(self.obj, support=support, near=tuple(obs.objects[self.obj].pos[:2])).body(ctx, obs)
        return (yield from Pick(self.obj).body(ctx, obs))


def top_of(ctx: SkillContext, obs: Observation, base: str) -> Support:
    """The top face of object ``base`` where it is now, as a support."""
    box = world_box(obs.objects[base], ctx.scene.objects[base].asset)
    return Support(name=f"{base}/top", owner=base, height=box[5], box=(box[0], box[1], box[3], box[4]))


class Stack(Skill):
    """Put the held ``obj`` on top of the object ``base``: from above, centred on its top where it fits
    (``place``), or a flat item held at its end with that end over one of the base's sides (``StackAtEdge``)."""

    name = "stack"

    @property
    def timeout_s(self) -> float:  # type: ignore[override]
        return tuning().hand.stack_timeout_s

    def __init__(self, obj: str, base: str) -> None:
        self.obj, self.base = obj, base

    def target(self) -> str:
        return f"{self.obj} -> {self.base}"

    def look_at(self) -> str | None:
        return self.base

    def preconditions(self, ctx: SkillContext):
        return [g.Holding(predicate="holding", items=[self.obj])]

    def postconditions(self, ctx: SkillContext):
        return [g.Stacked(predicate="stacked", items=[self.obj], base=self.base), g.HandEmpty(predicate="hand_empty")]

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        top = top_of(ctx, obs, self.base)
        centre = ((top.box[0] + top.box[2]) / 2, (top.box[1] + top.box[3]) / 2)
        flat = edge_only(ctx.scene.objects[self.obj].asset)
        inner = StackAtEdge(self.obj, top) if flat else OnTop(self.obj, support=top, near=centre)
        try:
            return (yield from inner.body(ctx, obs))
        except SkillFailure as failure:
            raise self.fail(failure.reason, via=inner.__class__.__name__, **failure.detail) from None


class OnTop(Place):
    """``place`` onto another object's top face: the object's centre over the face's centre (the only
    free spot there; what stands beside the base on its own support is no obstacle up there)."""

    def spot(self, ctx: SkillContext, obs: Observation, half: tuple[float, float]) -> tuple[float, float]:
        return self.near
