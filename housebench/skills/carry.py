"""The carry pose and the way to a stance in it: the arm to the carry pose (:func:`to_carry`, the ``carry`` skill),
the drive to a stance with the arm there (:func:`approach`), the last leg driven straight in (:func:`floor_lead_in`)."""

from __future__ import annotations

import math

import numpy as np

from housebench.house.floor import FloorGrid
from housebench.house.stance import stance_free
from housebench.robot.kinematics import top_down
from housebench.skills.base import Reason, Skill, SkillContext, SkillFailure, SkillGen
from housebench.skills.motion import line_waypoints, move_arm, ready_arm
from housebench.skills.navigate import Navigate, open_part_boxes, planner
from housebench.skills.tuning import tuning
from housebench.skills.view import ik, pad_pose, tucked, wrap
from housebench.state import Observation


def carry_pos(obs: Observation) -> np.ndarray:
    """World position of the pad in the carry pose for the current base pose."""
    x, y, th = obs.base
    c, s = math.cos(th), math.sin(th)
    carry = tuning().pick.carry
    return np.array([x + c * carry[0] - s * carry[1], y + s * carry[0] + c * carry[1], carry[2]])


def to_carry(skill: Skill, ctx: SkillContext, obs: Observation, rot: np.ndarray | None = None, **extra) -> SkillGen:
    """The arm to the carry pose, the hand turned to ``rot`` (default: as it is; from the tuck, fingers
    across the heading): from the tuck by a joint motion, else along a straight line; round the house and
    the props where that would hit them."""
    folded = tucked(obs)
    if rot is None:
        rot = top_down(obs.base[2] + math.pi / 2) if folded else pad_pose(ctx, obs)[1]
    try:
        if folded:
            raise skill.fail(Reason.UNREACHABLE, where="tucked")
        waypoints = line_waypoints(skill.name, obs, ctx, carry_pos(obs), rot)
        speed = tuning().pick.folded_speed
    except SkillFailure:  # tucked, or no straight line: one joint motion from the ready seed
        start = {**obs.joints, **ready_arm(ctx)}
        waypoints, speed = (
            [ik(ctx).solve(start, carry_pos(obs), rot, max_iters=tuning().pick.carry_ik_iters).joints],
            tuning().motion.joint_speed,
        )
    return (yield from move_arm(skill.name, obs, waypoints, ctx, speed=speed, avoid=True, **extra))


def approach(
    skill: Skill, ctx: SkillContext, obs: Observation, pose, skip: tuple[str, ...] = (), head_on: bool = False
) -> SkillGen:
    """Drive to ``pose`` with the arm in the carry pose; ``head_on``, the last ``skills.pick.lead_ins_m[0]``
    straight in. From the tuck, where the arm unfolded would meet an open door's or drawer's box
    (:func:`unfold_sweeps`), driven there tucked and unfolded at ``pose`` (a stance the footprint keeps clear of it):
    unfolded in front of an open microwave, beside its leaf, the elbow swung the leaf from 1.40 to 0.71 rad, half
    across the opening the place then had to reach into (procedural house p003)."""
    tune = tuning().pick
    if math.dist(obs.base[:2], pose[:2]) > tune.at_stance_m or abs(wrap(obs.base[2] - pose[2])) > tune.at_stance_rad:
        if tucked(obs) and unfold_sweeps(ctx, obs, skip):
            obs = yield from Navigate(pose, why=skill.target(), skip=skip).body(ctx, obs)
            return (yield from to_carry(skill, ctx, obs))
        if np.linalg.norm(pad_pose(ctx, obs)[0] - carry_pos(obs)) > tune.at_carry_m:
            obs = yield from to_carry(skill, ctx, obs)
        if head_on:
            obs = yield from _straight_in(skill, ctx, obs, pose, skip)
        obs = yield from Navigate(pose, why=skill.target(), skip=skip).body(ctx, obs)
    return obs


def unfold_sweeps(ctx: SkillContext, obs: Observation, skip: tuple[str, ...] = ()) -> bool:
    """Whether the carry arm, unfolded where the base stands, would meet an open door's or drawer's box (but
    ``skip``): the stance footprint there (its band over ``HIGH`` is the carry arm's) is not clear of it."""
    return not stance_free(obs.base, open_part_boxes(ctx, obs, skip))


def floor_lead_in(grid: FloorGrid, pose) -> tuple[float, float, float] | None:
    """The farthest of ``skills.pick.lead_ins_m`` behind ``pose``, facing it, that is on ``grid``'s free floor, or
    None: a lead-in off the free floor (0.35 m behind the study desk's stance, a wall 0.43 m behind it) stalled the base
    on the wall."""
    x, y, yaw = pose
    leads = ((x - d * math.cos(yaw), y - d * math.sin(yaw), yaw) for d in tuning().pick.lead_ins_m)
    return next((lead for lead in leads if grid.is_free(lead[0], lead[1])), None)


def _straight_in(skill: Skill, ctx: SkillContext, obs: Observation, pose, skip: tuple[str, ...]) -> SkillGen:
    """To the :func:`floor_lead_in` of ``pose`` where there is one: an item held level, driven sideways into a stance,
    swept a bookcase's side and was knocked out of the fingers."""
    if math.dist(obs.base[:2], pose[:2]) <= tuning().pick.lead_ins_m[0]:
        return obs
    lead = floor_lead_in(planner(ctx, obs, skip).grid, pose)
    if lead is None:
        return obs
    try:
        return (yield from Navigate(lead, why=skill.target(), skip=skip).body(ctx, obs))
    except SkillFailure as err:
        if err.reason != Reason.NO_PATH:
            raise
        return obs


class Carry(Skill):
    """The arm to the carry pose where it stands (before driving, as the skills' own approach does:
    lifting the arm out of the tuck beside furniture would sweep it through the furniture)."""

    name = "carry"

    @property
    def timeout_s(self) -> float:  # type: ignore[override]
        return tuning().pick.carry_timeout_s

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        if np.linalg.norm(np.asarray(obs.ee_pos) - carry_pos(obs)) > tuning().pick.at_carry_m:
            obs = yield from to_carry(self, ctx, obs)
        return obs
