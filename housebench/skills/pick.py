"""pick: take one object from above (top pinch) and hold it in the carry pose.

Stance: a free-floor base pose around the object from which the IK reaches both the pre-grasp
(above) and the grasp; the base drives there with the arm tucked. Where no upright grasp keeps the arm
clear (a pad a few centimetres from a wall: the wrist above it meets the wall), the hand leans away from
the base (:data:`LEANS`), so the wrist stands back from the wall. Out of a container, the pre-grasp and
the lift clear its rim and the torso stays still between them (:func:`still`). Then: arm to the pre-grasp with
the fingers open, straight down, close (force-limited), check both fingers touch the object
(``MISSED``), lift straight up, check it is still held (``DROPPED``), carry pose.
"""

from __future__ import annotations

import math

import numpy as np

from housebench.house.floor import FloorGrid
from housebench.house.query import HouseQuery
from housebench.house.reach import candidates, near_cells
from housebench.house.stance import stance_free
from housebench.planning.reach import first_reaching
from housebench.robot.fetch import BASE_JOINTS, TORSO_JOINT
from housebench.robot.kinematics import top_down
from housebench.skills.base import ObjectSkill, Reason, Skill, SkillContext, SkillFailure, SkillGen
from housebench.skills.grasp import FINGER_HALF, TopGrasp, grasps, in_box, tilted
from housebench.skills.motion import (
    arm_clear,
    arm_planner,
    base_joints,
    cartesian,
    hold,
    ik,
    lies_in,
    line_waypoints,
    move_arm,
    pad_pose,
    ready_arm,
    tucked,
    wrap,
)
from housebench.skills.navigate import Navigate, obstacle_boxes, planner
from housebench.skills.tuning import tuning
from housebench.state import Observation
from housebench.tasks.goal import HandEmpty, Holding

UP = np.array([0.0, 0.0, 1.0])
OPEN, CLOSED = 0.1, 0.0  # finger gap targets, m (open: the hand's full opening)
HAND_BODIES = ("gripper", "wrist_roll")  # links rigid with the hand (the wrist roll is the last joint)


Option = tuple[np.ndarray, list[np.ndarray]]  # target position of the pad, rotations to try there


def top_down_option(target: np.ndarray, yaws) -> Option:
    return target, [top_down(y) for y in yaws]


def leaned(rot: np.ndarray, pose, target: np.ndarray, angle: float) -> np.ndarray:
    """``rot`` :func:`tilted` by ``angle``, the approach tipped away from the base at ``pose`` towards ``target``:
    the wrist above the pad comes back towards the base."""
    return tilted(rot, angle, np.asarray(target[:2]) - np.asarray(pose[:2]))


def stance_search(
    ctx: SkillContext,
    obs: Observation,
    options: list[Option],
    pre: np.ndarray,
    skip: tuple[str, ...] = (),
    poses=None,
    clear_of: tuple[str, ...] | None = None,
    walls: tuple[str, ...] = (),
    reach: float | None = None,
    lean: float = 0.0,
):
    """(base pose, (pre joints, at joints, rotation, option index)) from which the IK reaches one of
        ``options`` (pad target, rotations) and the pre-pose ``pre`` off it, or None. Poses (default: rings
        around the options' centre, facing it) must be clear of the house and the props (but ``skip``) by
        the height-aware footprint, inside a room and near the floor's largest free piece, and within ``reach``
    (m, horizontal) of a target. With
        ``clear_of``, the arm at the pre-pose keeps clear of the house and the props but those, and at the
        target runs into no part of the house (:func:`arm_clear`) nor the containers ``walls``. ``lean``
        (rad): each rotation :func:`leaned` away from the pose by that much. Default ``reach``:
    ``skills.pick.reach_m``."""
    tune = tuning().pick
    reach = tune.reach_m if reach is None else reach
    solver = ik(ctx)
    descent = still(walls)
    base_planner = planner(ctx, obs, skip)
    grid = base_planner.grid
    reachable = base_planner.main
    boxes = obstacle_boxes(ctx, obs, skip)

    rooms = HouseQuery(ctx.scene.house)

    def accept(pose) -> bool:
        inside = rooms.room_at(pose[0], pose[1]) is not None  # not beyond an outer wall
        return inside and near_cells(reachable, grid, pose, tune.near_cells_m) and stance_free(pose, boxes)

    def lateral(rot: np.ndarray, pose) -> float:  # fingers across the heading suit the arm best
        return abs(wrap(2 * (math.atan2(rot[1, 1], rot[0, 1]) - pose[2] - math.pi / 2)))

    def reaches(pose):
        start = {**obs.joints, **ready_arm(ctx), **base_joints(pose)}
        near = sorted(range(len(options)), key=lambda k: math.dist(options[k][0][:2], pose[:2]))
        for k in near[: tune.options_tried]:
            target, rots = options[k]
            if math.dist(target[:2], pose[:2]) > reach:
                continue
            for rot in sorted(rots, key=lambda r: lateral(r, pose))[: tune.rotations_tried]:
                rot = leaned(rot, pose, target, lean) if lean else rot
                hi = solver.solve(start, target + pre, rot, max_iters=tune.ik_iters)
                if not hi.ok():
                    continue
                lo = solver.solve(hi.joints, target, rot, max_iters=tune.ik_iters, frozen=descent)
                if lo.ok() and (clear_of is None or clear(hi.joints, lo.joints, clear_of)):
                    return hi.joints, lo.joints, rot, k
        return None

    def clear(above: dict[str, float], at: dict[str, float], skip: tuple[str, ...]) -> bool:
        return arm_clear(ctx, obs, above, skip) and arm_clear(ctx, obs, at, skip, touch=True) and walls_clear(at)

    def walls_clear(at: dict[str, float]) -> bool:  # a container's boxes are its walls: exact, not coarse
        if not walls:
            return True
        scene = arm_planner(ctx).scene
        scene.sync(obs.joints, {n: obs.objects[n] for n in walls}, None, obs.parts)
        return all(dist >= 0.0 and in_hand(scene, pair) for pair, dist in scene.contacts(at).items())

    if poses is None:
        centre = np.mean([o[0][:2] for o in options], axis=0)
        poses = candidates((float(centre[0]), float(centre[1])), accept)
    else:
        poses = (p for p in poses if accept(p))
    return first_reaching(poses, reaches)


def still(walls: tuple[str, ...]) -> tuple[str, ...]:
    """The joints the descent to the grasp and the lift keep still: into a container the torso too (left
    free, the IK lowered the torso 20 cm into the toy box and the upper arm came down onto its rim)."""
    return (*BASE_JOINTS, TORSO_JOINT) if walls else BASE_JOINTS


def in_hand(scene, pair: tuple[int, int]) -> bool:
    """Whether a geom of ``pair`` moves with the hand (gripper, fingers, the wrist roll link they hang from: the
    straight descent carries them straight down): only those go into a container and near its walls; the
    upper arm 1 cm over the toy box's rim at the grasp came down onto it in the descent and stalled."""
    model = scene.model
    return any(part in model.body(int(model.geom_bodyid[g])).name for g in pair for part in HAND_BODIES)


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
    straight in."""
    tune = tuning().pick
    if math.dist(obs.base[:2], pose[:2]) > tune.at_stance_m or abs(wrap(obs.base[2] - pose[2])) > tune.at_stance_rad:
        if np.linalg.norm(pad_pose(ctx, obs)[0] - carry_pos(obs)) > tune.at_carry_m:
            obs = yield from to_carry(skill, ctx, obs)
        if head_on:
            obs = yield from _straight_in(skill, ctx, obs, pose, skip)
        obs = yield from Navigate(pose, why=skill.target(), skip=skip).body(ctx, obs)
    return obs


def lead_in(grid: FloorGrid, pose) -> tuple[float, float, float] | None:
    """The farthest of ``skills.pick.lead_ins_m`` behind ``pose``, facing it, that is on ``grid``'s free floor, or
    None: a lead-in off the free floor (0.35 m behind the study desk's stance, a wall 0.43 m behind it) stalled the base
    on the wall."""
    x, y, yaw = pose
    leads = ((x - d * math.cos(yaw), y - d * math.sin(yaw), yaw) for d in tuning().pick.lead_ins_m)
    return next((lead for lead in leads if grid.is_free(lead[0], lead[1])), None)


def _straight_in(skill: Skill, ctx: SkillContext, obs: Observation, pose, skip: tuple[str, ...]) -> SkillGen:
    """To the :func:`lead_in` of ``pose`` where there is one: an item held level, driven sideways into a stance,
    swept a bookcase's side and was knocked out of the fingers."""
    if math.dist(obs.base[:2], pose[:2]) <= tuning().pick.lead_ins_m[0]:
        return obs
    lead = lead_in(planner(ctx, obs, skip).grid, pose)
    if lead is None:
        return obs
    try:
        return (yield from Navigate(lead, why=skill.target(), skip=skip).body(ctx, obs))
    except SkillFailure as err:
        if err.reason != Reason.NO_PATH:
            raise
        return obs


class Pick(ObjectSkill):
    name = "pick"

    @property
    def timeout_s(self) -> float:  # type: ignore[override]
        return tuning().pick.timeout_s

    def preconditions(self, ctx: SkillContext):
        return [HandEmpty(predicate="hand_empty")]

    def postconditions(self, ctx: SkillContext):
        return [Holding(predicate="holding", items=[self.obj])]

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        asset = ctx.scene.objects[self.obj].asset
        pose = obs.objects[self.obj]
        options = grasps(asset, pose)
        if not options:
            raise self.fail(Reason.UNSUPPORTED, asset=asset.name, grasps=[g.kind for g in asset.grasps])
        walls = containing(ctx, obs, self.obj)
        for name in walls:  # lying in a box: fingers along its nearest wall, the arm clear of its walls
            options = [in_box(o, asset, pose, ctx.scene.objects[name].asset, obs.objects[name]) for o in options]
        tops = [(o.pad, o.rotations()) for o in options]
        pre = UP * max([tuning().pick.approach_m, *(above_rim(ctx, obs, name, options) for name in walls)])
        for lean in (0.0, *tuning().pick.leans):
            found = stance_search(ctx, obs, tops, pre, clear_of=(self.obj,), walls=walls, lean=lean)
            if found is not None:
                break
        else:
            raise self.fail(Reason.UNREACHABLE, at=[round(float(v), 3) for v in options[0].pad])
        pose, (above, at, rot, k) = found
        grasp = options[k]
        base = [round(v, 3) for v in pose]
        ctx.log("stance", skill=self.name, target=self.obj, grasp=grasp.kind, base=base, lean=lean)
        obs = yield from approach(self, ctx, obs, pose)
        joints = (above, at)
        lift = UP * max(tuning().pick.lift_m, float(pre[2]))  # out over the rim
        return (yield from grasp_at(self, ctx, obs, grasp.pad, rot, pre, joints, lift, grasp.opening, still(walls)))


def containing(ctx: SkillContext, obs: Observation, obj: str) -> tuple[str, ...]:
    """The containers whose cavity holds ``obj``'s origin."""
    return tuple(name for name in ctx.scene.objects if lies_in(ctx, obs, obj, name))


def above_rim(ctx: SkillContext, obs: Observation, container: str, options: list[TopGrasp]) -> float:
    """How far above the lowest pad of ``options`` the pre-grasp goes for the fingertips to stand
    ``skills.pick.rim_tips_m`` over ``container``'s rim: 12 cm over an item on the toy box's floor left the pre-grasp
    8 cm inside the box, the open fingers within the planning margin of its wall (every stance refused)."""
    asset, at = ctx.scene.objects[container].asset, obs.objects[container]
    rim = at.pos[2] + asset.container.rim_z - asset.bottom_offset
    return rim + tuning().pick.rim_tips_m + FINGER_HALF - min(o.pad[2] for o in options)


def grasp_at(
    skill: Skill,
    ctx: SkillContext,
    obs: Observation,
    pad: np.ndarray,
    rot: np.ndarray,
    pre: np.ndarray,
    joints: tuple[dict[str, float], dict[str, float]],
    lift: np.ndarray,
    opening: float | None = None,
    frozen: tuple[str, ...] = BASE_JOINTS,
) -> SkillGen:
    """From the stance: fingers open (to ``opening``) to ``pad + pre``, straight in to ``pad``, close, check both
    fingers touch the object (``MISSED``), move by ``lift``, check it is still held (``DROPPED``), carry pose.
    ``frozen``: the joints the descent and the lift keep still (:func:`still`)."""
    obj, tune = skill.target(), tuning().pick
    opening = OPEN if opening is None else opening
    obs = yield from cartesian(skill.name, obs, ctx, pad + pre, rot, fallback=joints[0], avoid=True, gripper=opening)
    obs = yield from cartesian(skill.name, obs, ctx, pad, rot, fallback=joints[1], frozen=frozen, gripper=opening)
    obs = yield from hold(obs, tune.close_s, ctx, gripper=CLOSED)
    touching = [f for f, names in obs.finger_contacts.items() if obj in names]
    if len(touching) < 2:
        yield from hold(obs, tune.reopen_s, ctx, gripper=OPEN)
        raise skill.fail(Reason.MISSED, touching=touching, gap=round(obs.gripper_opening, 4))
    ctx.log("grasped", obj=obj, gap=round(obs.gripper_opening, 4))
    obs = yield from cartesian(skill.name, obs, ctx, pad + lift, rot, frozen=frozen)
    if not obs.holding(obj):
        raise skill.fail(Reason.DROPPED, where="lift", height=round(obs.objects[obj].pos[2], 3))
    return (yield from to_carry(skill, ctx, obs, rot))


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
