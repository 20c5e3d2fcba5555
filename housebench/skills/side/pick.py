"""``pick`` from the side (:class:`SidePick`): its entries through the open edges, the first way in that reaches
(:mod:`housebench.skills.side.ways`), then in to the fingertips short, the aim trued up, in, close, lift, out, carry."""

from __future__ import annotations

import itertools
import math

import numpy as np

from housebench.skills.base import Reason, SkillContext, SkillFailure, SkillGen
from housebench.skills.carry import approach, to_carry
from housebench.skills.grasp import CLOSED, FINGER_HALF, OPEN, UP, opening, round_item
from housebench.skills.motion import cartesian, hold
from housebench.skills.pick import Pick
from housebench.skills.side.entries import Entry, entry_stance
from housebench.skills.side.fit import grip_depth, grip_tips, hand_rot, level_ways, pinch_height
from housebench.skills.side.opening import (
    back_offset,
    ceiling_z,
    footprint_corners,
    low_ceiling,
    open_edges,
    passes_sides,
    straight_yaw,
)
from housebench.skills.side.ways import first_way, ways_in
from housebench.skills.tuning import tuning
from housebench.skills.view import pad_pose, support_of, wrap
from housebench.state import Observation
from housebench.tasks.geometry import world_box


class SidePick(Pick):
    """The pick of an item under a ceiling: the level hand from the support's open side (same contract); on an
    open top, an item too deep in for it is first drawn towards the edge (:class:`PushToEdge`)."""

    square = False  # a slim item taken as round closed across its corners: taken as the box it is
    turned = False  # turned by pushes (:func:`turn.turn_item`) once: not again

    @property
    def timeout_s(self) -> float:  # type: ignore[override]
        return tuning().pick.timeout_s + tuning().edge.push_timeout_s

    def entries(self, ctx: SkillContext, obs: Observation) -> list[Entry]:
        """The ways in through the open edges of the item's support (``UNSUPPORTED`` when none fits)."""
        asset, pose = ctx.scene.objects[self.obj].asset, obs.objects[self.obj]
        support = support_of(ctx, obs, self.obj)
        fits = grip_tips(asset.size[2], pinch_height(asset))
        if support is None or not fits:
            raise self.fail(Reason.UNSUPPORTED, support=support and support.name, height=asset.size[2])
        ceiling = low_ceiling(support, asset.size[2])
        box = np.array(world_box(pose, asset))
        corners, centre = footprint_corners(asset, pose), (box[:2] + box[3:5]) / 2
        entries = []
        open_ = open_edges(ctx.scene.house, support)
        ways = level_ways(asset, pose, open_, ceiling, self.square)
        for (pitch, dz), (edge, yaw, width, aslant) in itertools.product(fits if ceiling else fits[:1], ways):
            a = np.array([math.cos(yaw), math.sin(yaw)])
            near, far = float(np.min(corners @ a)), float(np.max(corners @ a))
            if round_item(asset) and width == asset.size[0] and abs(wrap(yaw - straight_yaw(edge))) > 1e-9:
                near, far = centre @ a - width / 2, centre @ a + width / 2  # turned: its round face, not its box's
            depth = grip_depth(asset, dz)
            pad = np.array([*(centre + a * (near + depth - centre @ a)), support.height + dz])
            if not passes_sides(edge, open_, pad, yaw):
                continue
            back = back_offset(edge, pad, yaw, far - float(pad[:2] @ a), ceiling)
            entries.append(Entry(pad, hand_rot(yaw, pitch), back, edge, width, aslant=aslant, depth=depth))
        if not entries:
            raise self.fail(Reason.UNSUPPORTED, why="no side fits the fingers from an open edge", support=support.name)
        return entries

    def stance(self, ctx: SkillContext, obs: Observation) -> tuple[float, float, float]:
        """The base pose this pick reaches in from (its body drives there first)."""
        return entry_stance(self, ctx, obs, self.entries(ctx, obs))[0]

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        ts = tuning().side
        asset = ctx.scene.objects[self.obj].asset
        support = support_of(ctx, obs, self.obj)
        obs, (base, out, at, entry) = yield from first_way(ways_in(self, support), ctx, obs)
        box = np.array(world_box(obs.objects[self.obj], asset))
        pad, rot, back, gap = entry.pad, entry.rot, entry.back, opening(entry.width)
        obs = yield from approach(self, ctx, obs, base)
        obs = yield from cartesian(self.name, obs, ctx, pad + back, rot, fallback=out, avoid=entry.aslant, gripper=gap)
        short = pad + back * min(
            1.0, (entry.depth + (FINGER_HALF + ts.short_m)) / float(np.linalg.norm(back))
        )  # tips just short of it
        obs = yield from cartesian(self.name, obs, ctx, short, rot, fallback=at, gripper=gap)
        obs = yield from hold(obs, ts.settle_s, ctx, gripper=gap)  # the arm catches up
        obs, bias = yield from self._true_up(ctx, obs, short, rot, gap)
        obs = yield from cartesian(
            self.name, obs, ctx, pad + bias, rot, step=ts.contact_step_m, fallback=at, gripper=gap
        )
        obs = yield from hold(obs, 1.0, ctx, gripper=CLOSED)
        touching = [f for f, names in obs.finger_contacts.items() if self.obj in names]
        if len(touching) < 2:
            obs = yield from hold(obs, 0.5, ctx, gripper=OPEN)
            yield from cartesian(self.name, obs, ctx, pad + back, rot, gripper=OPEN)
            raise self.fail(Reason.MISSED, touching=touching, gap=round(obs.gripper_opening, 4))
        if not self.square and round_item(asset) and obs.gripper_opening > entry.width + ts.corners_m:
            # a carton taken as round closes across its corners, a hold on two edges that slips on the withdraw:
            # the fingers open, back out and take it square to its faces
            gap = round(obs.gripper_opening, 4)
            ctx.log("decision", skill=self.name, target=self.obj, choice="take square", gap=gap)
            obs = yield from hold(obs, 0.5, ctx, gripper=OPEN)
            obs = yield from cartesian(self.name, obs, ctx, pad + back, rot, gripper=OPEN)
            self.square = True
            return (yield from self.body(ctx, obs))
        ctx.log("grasped", obj=self.obj, gap=round(obs.gripper_opening, 4))
        lift = UP * max(0.0, min(ts.lift_m, ceiling_z(support) - box[5]))
        obs = yield from cartesian(self.name, obs, ctx, pad + lift, rot)
        obs = yield from cartesian(self.name, obs, ctx, pad + lift + back, rot)
        if not obs.holding(self.obj):
            raise self.fail(Reason.DROPPED, where="withdraw", height=round(obs.objects[self.obj].pos[2], 3))
        return (yield from to_carry(self, ctx, obs, rot))

    def _true_up(self, ctx: SkillContext, obs: Observation, short: np.ndarray, rot: np.ndarray, gap: float):
        """Paused at ``short``, the arm stands off its target (1 cm measured; the fingers clear a tissue box
        by 7.5 mm a side): aim off by the measured offset until the pad is within ``align_tol_m`` of
        ``short``; where the IK misses the corrected aim, the aim stays (an aim the IK cannot reach would move the
        arm further off than the offset it corrects). Returns (obs, the aim's offset, kept for the last leg)."""
        ts = tuning().side
        bias = np.zeros(3)
        for _ in range(ts.true_up):
            off = short - pad_pose(ctx, obs)[0]
            if np.linalg.norm(off) <= ts.align_tol_m:
                break
            try:
                obs = yield from cartesian(self.name, obs, ctx, short + bias + off, rot, gripper=gap)
            except SkillFailure as missed:  # the line's IK fails before the arm moves
                if missed.reason is not Reason.UNREACHABLE:
                    raise
                break
            bias += off
            obs = yield from hold(obs, ts.settle_s, ctx, gripper=gap)
        off = short - pad_pose(ctx, obs)[0]
        ctx.log("aligned", skill=self.name, target=self.obj, off=[round(float(v), 4) for v in off])
        return obs, bias
