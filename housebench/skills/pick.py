"""pick: take one object from above (top pinch) and hold it in the carry pose.

Stance: a free-floor base pose around the object from which the IK reaches both the pre-grasp
(above) and the grasp; the base drives there with the arm tucked. Then: arm to the pre-grasp with
the fingers open, straight down, close (force-limited), check both fingers touch the object
(``MISSED``), lift straight up, check it is still held (``DROPPED``), carry pose.
"""

from __future__ import annotations

import math

import numpy as np

from housebench.planning.footprint import stance_free
from housebench.planning.reach import candidates, first_reaching, near_cells
from housebench.robot.kinematics import ARM, top_down
from housebench.skills.base import Reason, Skill, SkillContext, SkillFailure, SkillGen
from housebench.skills.grasp import grasps
from housebench.skills.motion import (
    JOINT_SPEED,
    TUCK,
    base_joints,
    cartesian,
    hold,
    ik,
    line_waypoints,
    move_arm,
    ready_arm,
    wrap,
)
from housebench.skills.navigate import Navigate, obstacle_boxes, planner
from housebench.state import Observation
from housebench.tasks.goal import HandEmpty, Holding

APPROACH = 0.12  # pre-grasp height above the grasp, m
LIFT = 0.15  # lift after closing, m
OPEN, CLOSED = 0.1, 0.0  # finger gap targets, m
CARRY = (0.3, 0.0, 1.15)  # pad position in the base frame while carrying


def stance_search(
    ctx: SkillContext,
    obs: Observation,
    options: list[tuple[np.ndarray, tuple[float, ...]]],
    above: float,
    skip: tuple[str, ...] = (),
):
    """(base pose, (above joints, at joints, yaw, option index)) reaching one of ``options`` (target
    position, finger yaws) from above, or None. Poses ring the options' centre; each is clear of the
    house and the props (but ``skip``) by the height-aware footprint and near the reachable floor."""
    solver = ik(ctx)
    base_planner = planner(ctx, obs, skip)
    grid = base_planner.grid
    reachable = grid.reachable(*base_planner.world(base_planner.nearest_free(obs.base[:2])))
    boxes = obstacle_boxes(ctx, obs, skip)

    def accept(pose) -> bool:
        return near_cells(reachable, grid, pose, 0.45) and stance_free(pose, boxes)

    def reaches(pose):
        start = {**obs.joints, **ready_arm(ctx), **base_joints(pose)}
        near = sorted(range(len(options)), key=lambda k: math.dist(options[k][0][:2], pose[:2]))
        for k in near[:2]:
            target, yaws = options[k]
            if math.dist(target[:2], pose[:2]) > 0.8:
                continue
            for yaw in sorted(yaws, key=lambda y: abs(wrap(2 * (y - pose[2] - math.pi / 2))))[:2]:
                rot = top_down(yaw)
                hi = solver.solve(start, target + (0, 0, above), rot, max_iters=80)
                if not hi.ok():
                    continue
                lo = solver.solve(hi.joints, target, rot, max_iters=80)
                if lo.ok():
                    return hi.joints, lo.joints, yaw, k
        return None

    centre = np.mean([o[0][:2] for o in options], axis=0)
    return first_reaching(candidates((float(centre[0]), float(centre[1])), accept), reaches)


def carry_pos(obs: Observation) -> np.ndarray:
    """World position of the pad in the carry pose for the current base pose."""
    x, y, th = obs.base
    c, s = math.cos(th), math.sin(th)
    return np.array([x + c * CARRY[0] - s * CARRY[1], y + s * CARRY[0] + c * CARRY[1], CARRY[2]])


def to_carry(skill: Skill, ctx: SkillContext, obs: Observation, yaw: float | None = None, **extra) -> SkillGen:
    """The arm to the carry pose: from the tuck by a joint motion (once), else straight across."""
    yaw = obs.base[2] + math.pi / 2 if yaw is None else yaw
    try:
        if all(abs(obs.joints[j] - TUCK[j]) < 0.05 for j in ARM):
            raise skill.fail(Reason.UNREACHABLE, where="tucked")
        waypoints = line_waypoints(skill.name, obs, ctx, carry_pos(obs), top_down(yaw))
        speed = 0.5
    except SkillFailure:  # tucked, or no straight line: one joint motion from the ready seed
        start = {**obs.joints, **ready_arm(ctx)}
        waypoints, speed = [ik(ctx).solve(start, carry_pos(obs), top_down(yaw), max_iters=100).joints], JOINT_SPEED
    return (yield from move_arm(skill.name, obs, waypoints, ctx, speed=speed, **extra))


def approach(skill: Skill, ctx: SkillContext, obs: Observation, pose, skip: tuple[str, ...] = ()) -> SkillGen:
    """Drive to ``pose`` with the arm in the carry pose."""
    if math.dist(obs.base[:2], pose[:2]) > 0.02 or abs(wrap(obs.base[2] - pose[2])) > 0.03:
        if np.linalg.norm(np.asarray(obs.ee_pos) - carry_pos(obs)) > 0.03:
            obs = yield from to_carry(skill, ctx, obs, _held_yaw(obs))
        obs = yield from Navigate(pose, why=skill.target(), skip=skip).body(ctx, obs)
    return obs


def _held_yaw(obs: Observation) -> float:
    """World yaw of the fingers' closing axis (the grasp frame's y axis) now."""
    w, x, y, z = obs.ee_quat
    return math.atan2(1 - 2 * (x * x + z * z), 2 * (x * y - w * z))


class Pick(Skill):
    name = "pick"
    timeout_s = 120.0

    def __init__(self, obj: str) -> None:
        self.obj = obj

    def target(self) -> str:
        return self.obj

    def preconditions(self, ctx: SkillContext):
        return [HandEmpty(predicate="hand_empty")]

    def postconditions(self, ctx: SkillContext):
        return [Holding(predicate="holding", items=[self.obj])]

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        asset = ctx.scene.objects[self.obj].asset
        options = grasps(asset, obs.objects[self.obj])
        if not options:
            raise self.fail(Reason.UNSUPPORTED, asset=asset.name, grasps=[g.kind for g in asset.grasps])
        found = stance_search(ctx, obs, [(o.pad, o.yaws) for o in options], APPROACH)
        if found is None:
            raise self.fail(Reason.UNREACHABLE, at=[round(float(v), 3) for v in options[0].pad])
        pose, (above, _, yaw, k) = found
        grasp = options[k]
        ctx.log("stance", skill=self.name, target=self.obj, grasp=grasp.kind, base=[round(v, 3) for v in pose])
        obs = yield from approach(self, ctx, obs, pose)
        obs = yield from cartesian(
            self.name, obs, ctx, grasp.pad + (0, 0, APPROACH), top_down(yaw), fallback=above, gripper=OPEN
        )
        obs = yield from cartesian(self.name, obs, ctx, grasp.pad, top_down(yaw), gripper=OPEN)
        obs = yield from hold(obs, 1.0, ctx, gripper=CLOSED)
        touching = [f for f, names in obs.finger_contacts.items() if self.obj in names]
        if len(touching) < 2:
            yield from hold(obs, 0.5, ctx, gripper=OPEN)
            raise self.fail(Reason.MISSED, touching=touching, gap=round(obs.gripper_opening, 4))
        ctx.log("grasped", obj=self.obj, gap=round(obs.gripper_opening, 4))
        obs = yield from cartesian(self.name, obs, ctx, grasp.pad + (0, 0, LIFT), top_down(yaw))
        if not all(self.obj in obs.finger_contacts.get(f, ()) for f in ("left", "right")):
            raise self.fail(Reason.DROPPED, where="lift", height=round(obs.objects[self.obj].pos[2], 3))
        return (yield from to_carry(self, ctx, obs, yaw))
