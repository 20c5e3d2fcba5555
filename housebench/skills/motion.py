"""Arm motions the skills share: generators that yield :class:`Action` s until the arm gets there (the base's drives:
:mod:`housebench.skills.legs`), and the arm's collision checks against the house and the props.

Joint targets move at bounded speeds (the position actuators then track a moving target
instead of jumping); every piece ends by waiting for the measured joints to settle, and raises
:class:`SkillFailure` (``STALLED``) when they do not.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np
from scipy.spatial.transform import Rotation, Slerp

from housebench.planning.arm import ArmPlanner, ArmScene
from housebench.robot.fetch import BASE_JOINTS, TORSO_JOINT
from housebench.robot.kinematics import ARM, top_down
from housebench.skills.base import Reason, SkillContext, SkillFailure, SkillGen
from housebench.skills.tuning import tuning
from housebench.skills.view import TUCK, end_held, held, ik, lies_in, pad_pose, wrap
from housebench.state import Action, ObjectState, Observation


def arm_planner(ctx: SkillContext) -> ArmPlanner:
    """Collision checks and RRT-Connect for the arm in this scene (:mod:`housebench.planning.arm`)."""
    return ctx.tool("arm_planner", lambda: ArmPlanner(ArmScene(ctx.scene), ARM, seed=ctx.task.seed))


def obstacles(ctx: SkillContext, obs: Observation) -> dict[str, ObjectState]:
    """The props an arm motion keeps clear of: all but what lies in the held container (it rides along)."""
    hand = held(obs)
    return {n: p for n, p in obs.objects.items() if hand is None or not lies_in(ctx, obs, n, hand)}


def arm_clear(
    ctx: SkillContext, obs: Observation, joints: dict[str, float], skip: tuple[str, ...] = (), touch: bool = False
) -> bool:
    """Whether the arm at ``joints`` (any base pose), holding what it holds now, keeps
    ``planning.arm.MARGIN`` clear of the house and the props (but ``skip``); with ``touch`` (the hand
    at its work: round the target, setting down what it holds, where the props' boxes are too coarse),
    whether the bare arm runs into no part of the house."""
    scene = arm_planner(ctx).scene
    hand = None if touch else held(obs)
    props = {} if touch else {n: p for n, p in obstacles(ctx, obs).items() if n == hand or n not in skip}
    scene.sync(obs.joints, props, hand, obs.parts)
    return all(dist >= 0.0 for dist in scene.contacts(joints).values()) if touch else not scene.contacts(joints)


def clear_path(skill: str, obs: Observation, ctx: SkillContext, waypoints: list[dict[str, float]]) -> list[dict]:
    """``waypoints`` when the joint path from the measured joints through them keeps clear of the house
    and the props (what the hand holds attached to it, with what lies in it); else an RRT-Connect path
    round what it hits to the last one; ``waypoints`` as they are when the planner finds none (logged
    either way)."""
    planner = arm_planner(ctx)
    planner.scene.sync(obs.joints, obstacles(ctx, obs), held(obs), obs.parts)
    start = [obs.joints[j] for j in ARM]
    planner.start(start)
    path = [start, *([w.get(j, obs.joints[j]) for j in ARM] for w in waypoints)]
    hit = planner.first_hit(path)
    if not hit:
        return waypoints
    found = planner.plan(start, path[-1])
    ctx.log("arm_plan", skill=skill, hit=planner.scene.names(hit)[:3], held=planner.scene.held, states=len(found))
    return [dict(zip(ARM, map(float, q))) for q in found[1:]] if found else waypoints


def hold(obs: Observation, seconds: float, ctx: SkillContext, **action) -> SkillGen:
    """Keep the current targets (or ``action``'s) for ``seconds``."""
    for _ in range(max(1, round(seconds / ctx.control_dt))):
        obs = yield Action(**action)
    return obs


def settle_arm(
    skill: str,
    obs: Observation,
    target: dict[str, float],
    ctx: SkillContext,
    tol: float | None = None,
    max_s: float | None = None,
) -> SkillGen:
    """Wait until every joint of ``target`` is within ``tol`` of it, at most ``max_s`` (defaults:
    ``skills.motion.settle_tol``, ``settle_max_s``)."""
    tol = tuning().motion.settle_tol if tol is None else tol
    max_s = tuning().motion.settle_max_s if max_s is None else max_s
    waited = 0.0
    while True:
        err = max(abs(obs.joints[j] - v) for j, v in target.items())
        if err <= tol:
            return obs
        if waited >= max_s:
            worst = max(target, key=lambda j: abs(obs.joints[j] - target[j]))
            raise SkillFailure(skill, Reason.STALLED, joint=worst, error=round(err, 4), waited_s=round(waited, 2))
        obs = yield Action(joints=target)
        waited += ctx.control_dt


def move_arm(
    skill: str,
    obs: Observation,
    waypoints: Iterable[dict[str, float]],
    ctx: SkillContext,
    speed: float | None = None,
    avoid: bool = False,
    **extra,
) -> SkillGen:
    """Through each joint-space waypoint in turn, interpolated at ``speed`` (default ``skills.motion.joint_speed``,
    at most ``end_held_speed`` for a flat item held by its end); settles at the last one. ``avoid``: round the
    house and the props where the path would hit them (:func:`clear_path`)."""
    speed = tuning().motion.joint_speed if speed is None else speed
    if end_held(ctx, obs):
        speed = min(speed, tuning().motion.end_held_speed)
    if avoid:
        waypoints = clear_path(skill, obs, ctx, list(waypoints))
    current = {j: obs.joints[j] for j in ARM}
    target = current
    for waypoint in waypoints:
        target = {j: waypoint.get(j, current[j]) for j in ARM}
        span = max(abs(wrap(target[j] - current[j])) if j != TORSO_JOINT else abs(target[j] - current[j]) for j in ARM)
        n = max(1, math.ceil(span / (speed * ctx.control_dt)))
        for k in range(1, n + 1):
            t = k / n
            obs = yield Action(joints={j: current[j] + (target[j] - current[j]) * t for j in ARM}, **extra)
        current = target
    return (yield from settle_arm(skill, obs, target, ctx))


def line_waypoints(
    skill: str,
    obs: Observation,
    ctx: SkillContext,
    goal_pos: np.ndarray,
    rot: np.ndarray,
    step: float | None = None,
    frozen: tuple[str, ...] = BASE_JOINTS,
) -> list[dict[str, float]]:
    """Joint waypoints moving the grasp frame along a straight line to ``goal_pos`` while turning to
    ``rot`` (IK every ``step``, default ``skills.motion.line_step_m``, orientation slerped), ``frozen`` joints
    (the base) still; ``UNREACHABLE`` when the IK fails."""
    tune = tuning().motion
    step = tune.line_step_m if step is None else step
    solver = ik(ctx)
    start_pos, start_rot = pad_pose(ctx, obs)
    r0, r1 = Rotation.from_matrix(start_rot), Rotation.from_matrix(rot)
    turn = Slerp([0.0, 1.0], Rotation.concatenate([r0, r1]))
    n = max(
        1,
        math.ceil(max(np.linalg.norm(goal_pos - start_pos) / step, (r0.inv() * r1).magnitude() / tune.line_turn_step)),
    )
    joints, waypoints = dict(obs.joints), []
    for k in range(1, n + 1):
        result = solver.solve(joints, start_pos + (goal_pos - start_pos) * k / n, turn([k / n]).as_matrix()[0], frozen)
        if not result.ok(tune.ik_pos_tol_m, tune.ik_rot_tol):
            raise SkillFailure(skill, Reason.UNREACHABLE, where="line", step=k, of=n, pos_err=round(result.pos_err, 4))
        joints = result.joints
        waypoints.append(joints)
    return waypoints


def cartesian(
    skill: str,
    obs: Observation,
    ctx: SkillContext,
    goal_pos: np.ndarray,
    rot: np.ndarray,
    step: float | None = None,
    fallback: dict[str, float] | None = None,
    avoid: bool = False,
    frozen: tuple[str, ...] = BASE_JOINTS,
    **extra,
) -> SkillGen:
    """The grasp frame along a straight line (:func:`line_waypoints`, ``frozen`` joints still); where the IK
    loses the line, one joint motion to the goal solved from ``fallback`` (joints that reach it from the planned base
    pose) for the base where it stands, or to ``fallback`` itself when that solve misses. ``avoid``: as
    for :func:`move_arm`."""
    tune = tuning().motion
    try:
        waypoints, speed = line_waypoints(skill, obs, ctx, goal_pos, rot, step, frozen), tune.line_speed
    except SkillFailure:
        if fallback is None:
            raise
        base = {j: obs.joints[j] for j in BASE_JOINTS}
        result = ik(ctx).solve({**obs.joints, **fallback, **base}, goal_pos, rot)
        good = result.ok(tune.ik_pos_tol_m, tune.ik_rot_tol)
        waypoints, speed = [result.joints if good else fallback], tune.joint_speed
    return (yield from move_arm(skill, obs, waypoints, ctx, speed=speed, avoid=avoid, **extra))


def ready_arm(ctx: SkillContext) -> dict[str, float]:
    """The seed of every arm IK: torso up, arm forward, the pad at ``skills.motion.ready_pad`` (0.6 m ahead at 1 m),
    pointing down."""

    def build() -> dict[str, float]:
        start = {**dict.fromkeys(BASE_JOINTS, 0.0), **TUCK}
        joints = ik(ctx).solve(start, tuning().motion.ready_pad, top_down(math.pi / 2)).joints
        return {j: joints[j] for j in ARM}

    return ctx.tool("ready_arm", build)
