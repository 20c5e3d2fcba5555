"""``place`` from the side (:class:`SidePlace`): the held object turned to face an open edge, carried in level over
a free spot, lowered, released, the hand drawn straight back out."""

from __future__ import annotations

import math

import numpy as np

from housebench.annotations.schema import Support
from housebench.skills.base import Reason, SkillContext, SkillGen
from housebench.skills.carry import approach, to_carry
from housebench.skills.grasp import OPEN, UP
from housebench.skills.motion import cartesian, hold
from housebench.skills.navigate import moving_boxes
from housebench.skills.place import Place, spot
from housebench.skills.side.entries import Entry, entry_stance
from housebench.skills.side.opening import (
    back_offset,
    ceiling_z,
    footprint_corners,
    free_opening,
    low_ceiling,
    open_edges,
    straight_yaw,
    yaw_of,
)
from housebench.skills.tuning import tuning
from housebench.skills.view import pad_pose, side_held
from housebench.state import Observation
from housebench.tasks import goal as g
from housebench.tasks.geometry import footprint, world_box


class SidePlace(Place):
    """Put the object held by a level hand on ``support`` from an open side (under a ceiling, or not)."""

    def __init__(self, obj: str, support: Support, near: tuple[float, float] | None = None) -> None:
        super().__init__(obj, support=support, near=near)

    def postconditions(self, ctx: SkillContext):
        return [*super().postconditions(ctx), g.HandEmpty(predicate="hand_empty")]

    def _entries(self, ctx: SkillContext, obs: Observation) -> list[Entry]:
        """The ways in to a free spot through the support's open edges (``NO_SPACE`` when none)."""
        ts = tuning().side
        if not side_held(ctx, obs):
            raise self.fail(Reason.UNSUPPORTED, why="held from above")
        asset, held = ctx.scene.objects[self.obj].asset, obs.objects[self.obj]
        pad_now, rot_now = pad_pose(ctx, obs)
        box = np.array(world_box(held, asset))
        centre = (box[:3] + box[3:]) / 2
        yaw_now = math.atan2(rot_now[1, 0], rot_now[0, 0])
        obj_yaw = yaw_of(held)
        near = np.asarray(self.near or obs.base[:2], float)
        bottom, top = self._room(ctx)
        ceiling = low_ceiling(self.support, asset.size[2])
        if bottom > top:
            raise self.fail(Reason.NO_SPACE, support=self.support.name, why="taller than the room under the ceiling")
        moving = moving_boxes(ctx, obs, skip=(self.obj,))
        entries = []
        for edge in open_edges(ctx.scene.house, self.support):
            n = np.array(edge.normal)
            yaw = straight_yaw(edge)
            c, s = math.cos(yaw - yaw_now), math.sin(yaw - yaw_now)
            spin = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
            free = free_opening(edge, moving, self.support.height, top + asset.size[2]) if ceiling else self.support
            xmin, ymin, xmax, ymax = free.box
            toward = near if self.near or not ceiling else np.array([(xmin + xmax) / 2, (ymin + ymax) / 2])
            foot = toward + n * (edge.coord - toward @ n)  # under a ceiling: square to the free opening
            keep = 0.0 if ceiling else ts.open_keep_m
            half = [h + keep for h in footprint(asset.size, obj_yaw + yaw - yaw_now)]
            half[1 if n[0] else 0] = max(half[1 if n[0] else 0], ts.hand_half_m)  # the hand passes the side walls too
            at = spot(free, obs, ctx, self.obj, tuple(foot), tuple(half), entry=(edge.normal, edge.coord))
            if at is None:
                continue
            offset = spin @ (pad_now - centre)
            target = np.array([*at, bottom + (centre[2] - box[2])]) + offset
            a = np.array([math.cos(yaw), math.sin(yaw)])
            ahead = float(np.max((footprint_corners(asset, held) - pad_now[:2]) @ spin[:2, :2].T @ a))
            entries.append(
                Entry(target, spin @ rot_now, back_offset(edge, target, yaw, ahead, ceiling), edge, ahead=ahead)
            )
        if not entries:
            raise self.fail(Reason.NO_SPACE, support=self.support.name)
        return entries

    def _room(self, ctx: SkillContext) -> tuple[float, float]:
        """(release height of the object's bottom, the highest its bottom may go under the ceiling)."""
        return self.support.height + tuning().place.drop_m, ceiling_z(self.support) - ctx.scene.objects[
            self.obj
        ].asset.size[2]

    def stance(self, ctx: SkillContext, obs: Observation) -> tuple[float, float, float]:
        """The base pose this place reaches in from (its body drives there first)."""
        return entry_stance(self, ctx, obs, self._entries(ctx, obs), skip=(self.obj,))[0]

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        ts = tuning().side
        base, out, at, entry = entry_stance(self, ctx, obs, self._entries(ctx, obs), skip=(self.obj,))
        target, rot, back = entry.pad, entry.rot, entry.back
        bottom, top = self._room(ctx)
        raise_ = UP * max(0.0, min(ts.raise_m, top - bottom))
        obs = yield from approach(self, ctx, obs, base, skip=(self.obj,), head_on=True)
        obs = yield from cartesian(self.name, obs, ctx, target + back + raise_, rot, fallback=out)
        if not obs.holding(self.obj):
            raise self.fail(Reason.DROPPED, where="approach", height=round(obs.objects[self.obj].pos[2], 3))
        obs = yield from cartesian(self.name, obs, ctx, target + raise_, rot, fallback=at)
        obs = yield from cartesian(self.name, obs, ctx, target, rot)
        obs = yield from hold(obs, ts.open_s, ctx, gripper=OPEN)
        obs = yield from cartesian(self.name, obs, ctx, target + back, rot, gripper=OPEN)
        return (yield from to_carry(self, ctx, obs, rot))
