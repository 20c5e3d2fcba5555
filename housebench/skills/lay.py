"""Turning what the hand holds: ``lay`` and ``upright``.

- ``lay`` (:class:`Lay`): turn the wrist a quarter turn about the fingers' closing axis so the held
  object's up axis lies level, lower it until its side is ``skills.hand.side_drop_m`` over the surface, open, draw
  the hand out backwards and up.
- ``upright`` (:class:`Upright`): pick the toppled object across its body (from above at its box
  centre, the fingers closing across its up axis), turn the wrist so its up axis
  points up, set its bottom ``skills.hand.contact_m`` over the surface at the free spot nearest where it lay, open,
  draw the hand out.

The turned poses keep the measured hold: the object's pose in the grasp frame at the moment of the turn
decides where the pad goes, and the last descent is measured again after the turn (the object may have
slipped in the fingers while it turned).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.spatial.transform import Rotation

from housebench.annotations.schema import Support
from housebench.skills.base import ObjectSkill, Reason, Skill, SkillContext, SkillGen
from housebench.skills.carry import approach, to_carry
from housebench.skills.grasp import FINGER_HALF, OPEN, UP
from housebench.skills.hand import resting_on
from housebench.skills.motion import cartesian, hold
from housebench.skills.pick import grasp_at
from housebench.skills.place import spot
from housebench.skills.stance import stance_search, top_down_option
from housebench.skills.tuning import tuning
from housebench.skills.view import pad_pose
from housebench.state import Observation
from housebench.tasks import geometry
from housebench.tasks import goal as g
from housebench.tasks.geometry import rotation, world_box


def held_offset(ctx: SkillContext, obs: Observation, obj: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The object's box centre and up axis in the grasp frame, and the grasp frame's rotation now."""
    pad, rot = pad_pose(ctx, obs)
    pose = obs.objects[obj]
    centre = geometry.centre(pose, ctx.scene.objects[obj].asset)
    up = rotation(pose.quat)[:, 2]
    return rot.T @ (centre - pad), rot.T @ up, rot


def turned(rot: np.ndarray, up_in_pad: np.ndarray, want: np.ndarray) -> np.ndarray:
    """``rot`` turned about its closing axis (y) so that the held up axis points along ``want``."""
    y = rot[:, 1]
    now = rot @ up_in_pad
    now_p, want_p = now - y * (now @ y), want - y * (want @ y)  # both projected on the turning plane
    angle = math.atan2(float(np.cross(now_p, want_p) @ y), float(now_p @ want_p))
    return Rotation.from_rotvec(y * angle).as_matrix() @ rot


class Lay(Skill):
    """Lay the held ``obj`` on its side on ``support`` (its up axis level, across the fingers)."""

    name = "lay"

    @property
    def timeout_s(self) -> float:  # type: ignore[override]
        return tuning().hand.lay_timeout_s

    def __init__(self, obj: str, support: Support) -> None:
        self.obj, self.support = obj, support

    def target(self) -> str:
        return f"{self.obj} -> {self.support.name}"

    def look_at(self) -> str | None:
        return self.support.name

    def preconditions(self, ctx: SkillContext):
        return [g.Holding(predicate="holding", items=[self.obj])]

    def postconditions(self, ctx: SkillContext):
        return [
            g.Lying(predicate="lying", items=[self.obj]),
            g.On(predicate="on", items=[self.obj], support=self.support.name),
            g.HandEmpty(predicate="hand_empty"),
        ]

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        size = ctx.scene.objects[self.obj].asset.size
        centre_p, up_p, rot = held_offset(ctx, obs, self.obj)
        radius = min(size[0], size[1]) / 2
        length = size[2]
        at = spot(self.support, obs, ctx, self.obj, tuple(obs.base[:2]), (length / 2, length / 2))
        if at is None:
            raise self.fail(Reason.NO_SPACE, support=self.support.name)
        options, rots = [], []
        for sign in (1.0, -1.0):  # the object's up axis along either level direction across the fingers
            level = np.cross(rot[:, 1], UP) * sign
            level /= np.linalg.norm(level)
            new = turned(rot, up_p, level)
            centre = np.array([at[0], at[1], self.support.height + radius + tuning().hand.side_drop_m])
            options.append((centre - new @ centre_p, [new]))
            rots.append(new)
        found = stance_search(ctx, obs, options, UP * tuning().pick.approach_m, skip=(self.obj,))
        if found is None:
            raise self.fail(Reason.UNREACHABLE, at=[round(float(v), 3) for v in options[0][0]])
        pose, (above, _, rot_new, k) = found
        target = options[k][0]
        xy_off = (rot_new @ centre_p)[:2]  # the object's centre from the pad, once turned
        ctx.log("stance", skill=self.name, target=self.target(), base=[round(v, 3) for v in pose])
        obs = yield from approach(self, ctx, obs, pose, skip=(self.obj,))
        obs = yield from cartesian(self.name, obs, ctx, target + UP * tuning().pick.approach_m, rot_new, fallback=above)
        if not obs.holding(self.obj):
            raise self.fail(Reason.DROPPED, where="turned", height=round(obs.objects[self.obj].pos[2], 3))
        obs, target = yield from descend(
            self, ctx, obs, self.obj, self.support.height + tuning().hand.side_drop_m, target[:2] + xy_off, rot_new
        )
        return (yield from let_go(self, ctx, obs, target, rot_new))


def descend(
    skill: Skill, ctx: SkillContext, obs: Observation, obj: str, bottom: float, xy: np.ndarray, rot: np.ndarray
) -> SkillGen:
    """Down from above the set-down point to where the held object's lowest point, measured now (the
    turn may have let it slip in the fingers), is at ``bottom`` and its centre over ``xy``: returns
    (last observation, the pad's target)."""
    asset = ctx.scene.objects[obj].asset
    box, centre = world_box(obs.objects[obj], asset), geometry.centre(obs.objects[obj], asset)
    pad = pad_pose(ctx, obs)[0]
    target = pad + np.array([xy[0] - centre[0], xy[1] - centre[1], bottom - box[2]])
    obs = yield from cartesian(skill.name, obs, ctx, target, rot)
    return obs, target


def let_go(skill: Skill, ctx: SkillContext, obs: Observation, at: np.ndarray, rot: np.ndarray) -> SkillGen:
    """Open, draw the hand back along its pointing axis (level) and up, then the carry pose."""
    obs = yield from hold(obs, tuning().hand.open_s, ctx, gripper=OPEN)
    back = at - rot[:, 0] * tuning().hand.draw_m
    back[2] = max(back[2], at[2])
    obs = yield from cartesian(skill.name, obs, ctx, back, rot, gripper=OPEN)
    obs = yield from cartesian(skill.name, obs, ctx, back + UP * tuning().pick.approach_m, rot, gripper=OPEN)
    return (yield from to_carry(skill, ctx, obs))


def pick_across(skill: Skill, ctx: SkillContext, obs: Observation, support: Support) -> SkillGen:
    """Pick the lying ``skill.target()`` from above at its box centre, the fingers closing across its
    up axis, the fingertips ``skills.grasp.tip_clearance_m`` over the support where its axis lies lower."""
    obj = skill.target()
    pose = obs.objects[obj]
    box = world_box(pose, ctx.scene.objects[obj].asset)
    axis = rotation(pose.quat)[:, 2]
    pad = np.array([(box[0] + box[3]) / 2, (box[1] + box[4]) / 2, (box[2] + box[5]) / 2])
    pad[2] = max(pad[2], support.height + FINGER_HALF + tuning().grasp.tip_clearance_m)
    yaw = math.atan2(axis[1], axis[0]) + math.pi / 2
    found = stance_search(ctx, obs, [top_down_option(pad, (yaw, yaw + math.pi))], UP * tuning().pick.approach_m)
    if found is None:
        raise skill.fail(Reason.UNREACHABLE, at=[round(float(v), 3) for v in pad])
    pose_base, (above, at, rot, _) = found
    ctx.log("stance", skill=skill.name, target=obj, grasp="across", base=[round(v, 3) for v in pose_base])
    obs = yield from approach(skill, ctx, obs, pose_base)
    return (
        yield from grasp_at(
            skill, ctx, obs, pad, rot, UP * tuning().pick.approach_m, (above, at), UP * tuning().pick.lift_m
        )
    )


class Upright(ObjectSkill):
    """Stand the toppled ``obj`` back up on its base where it lies (picked across its body, turned)."""

    name = "upright"

    @property
    def timeout_s(self) -> float:  # type: ignore[override]
        return tuning().hand.upright_timeout_s

    def preconditions(self, ctx: SkillContext):
        return [g.HandEmpty(predicate="hand_empty")]

    def postconditions(self, ctx: SkillContext):
        return [g.Upright(predicate="upright", items=[self.obj]), g.HandEmpty(predicate="hand_empty")]

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        if ctx.judge(self.postconditions(ctx)[:1], obs.state).success:
            return obs
        support = resting_on(ctx, obs.objects[self.obj], self.obj)
        if support is None:
            raise self.fail(Reason.UNSUPPORTED, why="not on a support")
        box0 = world_box(obs.objects[self.obj], ctx.scene.objects[self.obj].asset)
        lying_xy = ((box0[0] + box0[3]) / 2, (box0[1] + box0[4]) / 2)
        size = ctx.scene.objects[self.obj].asset.size
        free = spot(support, obs, ctx, self.obj, lying_xy, (size[0] / 2, size[1] / 2))  # clear of its neighbours
        spot_xy = np.array(free or lying_xy)
        obs = yield from pick_across(self, ctx, obs, support)
        centre_p, up_p, rot = held_offset(ctx, obs, self.obj)
        new = turned(rot, up_p, UP)
        centre = np.array([*spot_xy, support.height + tuning().hand.contact_m + size[2] / 2])
        target = centre - new @ centre_p
        here = (tuple(obs.base),)
        found = stance_search(
            ctx, obs, [(target, [new])], UP * tuning().pick.approach_m, skip=(self.obj,), poses=iter(here)
        )
        found = found or stance_search(ctx, obs, [(target, [new])], UP * tuning().pick.approach_m, skip=(self.obj,))
        if found is None:
            raise self.fail(Reason.UNREACHABLE, at=[round(float(v), 3) for v in target])
        pose, (above, _, new, _) = found
        ctx.log("stance", skill=self.name, target=self.obj, base=[round(v, 3) for v in pose])
        obs = yield from approach(self, ctx, obs, pose, skip=(self.obj,))
        obs = yield from cartesian(self.name, obs, ctx, target + UP * tuning().pick.approach_m, new, fallback=above)
        if not obs.holding(self.obj):
            raise self.fail(Reason.DROPPED, where="turned", height=round(obs.objects[self.obj].pos[2], 3))
        at = target[:2] + (new @ centre_p)[:2]
        obs, target = yield from descend(self, ctx, obs, self.obj, support.height + tuning().hand.contact_m, at, new)
        return (yield from let_go(self, ctx, obs, target, new))
