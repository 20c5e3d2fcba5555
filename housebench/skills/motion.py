"""Motion pieces the skills share: generators that yield :class:`Action` s until the robot gets there.

Joint and base targets move at bounded speeds (the position actuators then track a moving target
instead of jumping); every piece ends by waiting for the measured joints to settle, and raises
:class:`SkillFailure` (``STALLED``) when they do not.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable

import numpy as np
from scipy.spatial.transform import Rotation, Slerp

from housebench.planning.arm import ArmPlanner, ArmScene
from housebench.robot.fetch import ARM_JOINTS, BASE_JOINTS, HOME, TORSO_JOINT
from housebench.robot.kinematics import ARM, FetchIK, top_down
from housebench.skills.base import Reason, SkillContext, SkillFailure, SkillGen
from housebench.skills.grasp import edge_only
from housebench.skills.tuning import tuning
from housebench.state import Action, ObjectState, Observation
from housebench.tasks.geometry import rotation

TUCK = {j: HOME[j] for j in (TORSO_JOINT, *ARM_JOINTS)}


def ik(ctx: SkillContext) -> FetchIK:
    return ctx.tool("ik", FetchIK)


def arm_planner(ctx: SkillContext) -> ArmPlanner:
    """Collision checks and RRT-Connect for the arm in this scene (:mod:`housebench.planning.arm`)."""
    return ctx.tool("arm_planner", lambda: ArmPlanner(ArmScene(ctx.scene), ARM, seed=ctx.task.seed))


def held(obs: Observation) -> str | None:
    """The prop both fingers touch (what an arm motion carries), or None."""
    both = set(obs.finger_contacts.get("left", ())) & set(obs.finger_contacts.get("right", ()))
    return next((name for name in sorted(both) if name in obs.objects), None)


def end_held(ctx: SkillContext, obs: Observation) -> bool:
    """Whether the hand holds a flat item by its end (one taken only at an overhang: the pinch bears the
    item's weight on a lever)."""
    hand = held(obs)
    return hand is not None and edge_only(ctx.scene.objects[hand].asset)


def tucked(obs: Observation) -> bool:
    """Whether the arm and torso stand in the tuck."""
    return all(abs(obs.joints[j] - TUCK[j]) < tuning().motion.tucked_tol for j in ARM)


def lies_in(ctx: SkillContext, obs: Observation, obj: str, container: str) -> bool:
    """Whether ``obj``'s origin lies in the cavity of the prop ``container`` (one with a container profile)."""
    placed, at = ctx.scene.objects[container], obs.objects.get(container)
    profile = placed.asset.container
    if obj == container or profile is None or at is None:
        return False
    local = rotation(at.quat).T @ (np.asarray(obs.objects[obj].pos) - np.asarray(at.pos))
    return profile.holds(
        tuple(local + [0.0, 0.0, placed.asset.bottom_offset]), below=tuning().motion.lies_in_below_m, above=0.0
    )[0]


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


def wrap(angle: float) -> float:
    return (angle + math.pi) % (2 * math.pi) - math.pi


def pad_pose(ctx: SkillContext, obs: Observation) -> tuple[np.ndarray, np.ndarray]:
    """The grasp frame (pad centre) now: position and rotation matrix, from the measured joints."""
    return ik(ctx).fk(obs.joints)


def finger_yaw(ctx: SkillContext, obs: Observation) -> float:
    """World yaw of the fingers' closing axis (the grasp frame's y axis) now."""
    rot = pad_pose(ctx, obs)[1]
    return math.atan2(rot[1, 1], rot[0, 1])


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


def turn_clear(ctx: SkillContext, obs: Observation, at: tuple[float, float], start: float, turn: float) -> bool:
    """Whether the arm as it is now (what it holds attached, with what lies in it) sweeps clear of the house and
    the props while the base at ``at`` turns by ``turn`` from heading ``start`` (contacts it starts in may
    not deepen)."""
    planner = arm_planner(ctx)
    planner.scene.sync(obs.joints, obstacles(ctx, obs), held(obs), obs.parts)
    arm = [obs.joints[j] for j in ARM]
    steps = max(1, math.ceil(abs(turn) / tuning().motion.turn_step))
    planner.scene.set_joints(base_joints((*at, start)))
    planner.start(arm)
    for k in range(1, steps + 1):
        planner.scene.set_joints(base_joints((*at, start + turn * k / steps)))
        if planner.hits(arm):
            return False
    return True


def leg_clear(
    ctx: SkillContext, obs: Observation, a: tuple[float, float], b: tuple[float, float], heading: float
) -> bool:
    """Whether the arm as it is now (what it holds attached) keeps clear of the articulated parts (an open
    door: the base planner keeps only the base off it) while the base drives from ``a`` to ``b`` facing
    ``heading``."""
    scene = arm_planner(ctx).scene
    scene.sync(obs.joints, obstacles(ctx, obs), held(obs), obs.parts)
    steps = max(1, math.ceil(math.dist(a, b) / tuning().motion.leg_step_m))
    for k in range(steps + 1):
        x, y = (a[0] + (b[0] - a[0]) * k / steps, a[1] + (b[1] - a[1]) * k / steps)
        if scene.touches_parts(base_joints((x, y, heading))):
            return False
    return True


def headings(ctx: SkillContext, obs: Observation, path: list[tuple[float, float]], yaw: float) -> list[float]:
    """The heading each leg of ``path`` is driven at: lengthwise, forwards or backwards, whichever turns less,
    the last leg facing ``yaw``; where a turn on the way would sweep the arm into the house or a prop (a turn
    in a doorway), or a leg would carry it through an open door (the carried juice, driven forwards past the
    fridge door's edge, swung it from 1.27 to 0.27 rad), the directions that keep it clear (fewest turns and
    legs that hit, then least turning), and, holding something, a turn that still hits the long way round
    where that keeps clear (it knocked the item out). Headings are continuous (not wrapped): the turn to each
    is the difference from the one before."""
    th = obs.base[2]
    choices = []
    for k, (a, b) in enumerate(zip(path, path[1:])):
        if k == len(path) - 2:
            choices.append((yaw,))
        elif math.dist(a, b) > 1e-6:
            along = math.atan2(b[1] - a[1], b[0] - a[0])
            choices.append((along, wrap(along + math.pi)))
        else:
            choices.append((None,))  # no leg: keep the heading

    def turns(plan) -> list[tuple[tuple[float, float], float, float]]:
        out, now = [], th
        for a, heading in zip(path, plan):
            heading = now if heading is None else heading
            out.append((a, now, wrap(heading - now)))
            now = now + wrap(heading - now)
        return out

    min_turn = tuning().motion.min_turn
    greedy, now = [], th
    for options in choices:
        pick = min(options, key=lambda h: 0.0 if h is None else abs(wrap(h - now)))
        greedy.append(pick)
        now = now if pick is None else pick
    checked: dict[tuple, bool] = {}

    def hits(plan) -> int:
        n = 0
        for (a, start, turn), b in zip(turns(plan), path[1:]):
            if abs(turn) > min_turn:
                key = (a, round(start, 3), round(turn, 3))
                if key not in checked:
                    checked[key] = turn_clear(ctx, obs, a, start, turn)
                n += not checked[key]
            leg = (a, b, round(start + turn, 3))
            if leg not in checked:
                checked[leg] = leg_clear(ctx, obs, a, b, start + turn)
            n += not checked[leg]
        return n

    if hits(greedy) == 0:
        return [start + turn for _, start, turn in turns(greedy)]
    best = min(itertools.product(*choices), key=lambda plan: (hits(plan), sum(abs(t) for _, _, t in turns(plan))))
    out, shift, long_ways = [], 0.0, 0
    for a, start, turn in turns(best):  # holding something, a turn that hits the short way goes the long way if clear
        key = (a, round(start, 3), round(turn, 3))
        if abs(turn) > min_turn and not checked[key] and held(obs) is not None:
            other = turn - math.copysign(2 * math.pi, turn)
            if turn_clear(ctx, obs, a, start, other):
                shift, long_ways = shift + other - turn, long_ways + 1
        out.append(start + turn + shift)
    ctx.log("turns", greedy_hits=hits(greedy), chosen_hits=hits(best), long_ways=long_ways)
    return out


def turn_hits(ctx: SkillContext, obs: Observation, path: list[tuple[float, float]], plan: list[float]) -> int:
    """How many turns of driving ``path`` at the continuous headings ``plan`` (as :func:`headings` gives them:
    the long way round where it chose that) sweep the arm as it is into the house or a prop."""
    hits, now = 0, obs.base[2]
    for a, heading in zip(path, plan):
        turn = heading - now
        hits += abs(turn) > tuning().motion.min_turn and not turn_clear(ctx, obs, a, now, turn)
        now = heading
    return hits


def turning_last(
    ctx: SkillContext, obs: Observation, path: list[tuple[float, float]], yaw: float
) -> tuple[list[tuple[float, float]], list[float]]:
    """``path`` and its :func:`headings`; where turning to ``yaw`` before the last leg sweeps the arm into the
    house and driving that leg lengthwise, then turning at its end, sweeps it into less, the latter (the path
    with its goal twice: a last leg of none)."""
    plan = headings(ctx, obs, path, yaw)
    hits = turn_hits(ctx, obs, path, plan)
    if hits:
        late = [*path, path[-1]]
        late_plan = headings(ctx, obs, late, yaw)
        if turn_hits(ctx, obs, late, late_plan) < hits:
            return late, late_plan
    return path, plan


def drive(
    skill: str, obs: Observation, path: list[tuple[float, float]], yaw: float, ctx: SkillContext, **extra
) -> SkillGen:
    """The base along ``path`` (x, y waypoints). Each leg is driven lengthwise (facing along it, or
    backwards), so the arm never sweeps sideways past a door frame; before the last leg (which leaves the
    free floor towards a stance) it turns to ``yaw`` and drives that leg facing it; the directions as
    :func:`headings` chooses them; holding something, the last turn as :func:`turning_last` makes it (the
    fruit bowl held by its rim, turned before the last leg in the living room's doorway, was knocked off on the
    jamb; for every drive, empty-handed too, it broke restock_fridge's open from inside the fridge door); with a
    flat item held by its end, turning at ``skills.motion.end_held_yaw_speed``; settles at the end."""
    th, tune = obs.base[2], tuning().motion
    yaw_speed = tune.end_held_yaw_speed if end_held(ctx, obs) else tune.yaw_speed
    holding = held(obs) is not None
    path, plan = turning_last(ctx, obs, path, yaw) if holding else (path, headings(ctx, obs, path, yaw))
    for (a, b), heading in zip(zip(path, path[1:]), plan):
        turn = heading - th  # as planned: the long way round where the short one hits
        for f in ramp(abs(turn) / yaw_speed, ctx.control_dt) if abs(turn) > tune.min_turn else ():
            obs = yield Action(base=(a[0], a[1], th + turn * f), **extra)
        th = th + turn
        leg = math.dist(a, b)
        for f in ramp(leg / tune.base_speed, ctx.control_dt) if leg > 1e-6 else ():
            obs = yield Action(base=(a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, th), **extra)
    goal = (*path[-1], th)
    waited = 0.0
    while True:
        bx, by, bth = obs.base
        dist, dyaw = math.hypot(bx - goal[0], by - goal[1]), abs(wrap(bth - goal[2]))
        if dist < tune.at_goal_m and dyaw < tune.at_goal_rad:
            return obs
        if waited > tune.settle_base_s:
            raise SkillFailure(skill, Reason.STALLED, where="base", off_m=round(dist, 3), off_rad=round(dyaw, 3))
        obs = yield Action(base=goal, **extra)
        waited += ctx.control_dt


def ramp(duration: float, dt: float, accel_s: float | None = None) -> list[float]:
    """Fractions 0..1 of a motion of ``duration`` s at full speed, sampled every ``dt``, with the speed
    ramped up and down over ``accel_s`` (default ``skills.motion.ramp_s``; a trapezoid: a held load does not
    swing off)."""
    accel_s = tuning().motion.ramp_s if accel_s is None else accel_s
    if duration <= 0:
        return [1.0]
    ramp_s = min(accel_s, duration)
    total = duration + ramp_s  # the ramps cost half their time each
    n = max(1, math.ceil(total / dt))
    out = []
    for k in range(1, n + 1):
        t = total * k / n
        if t < ramp_s:
            d = t * t / (2 * ramp_s)
        elif t > total - ramp_s:
            d = duration - (total - t) ** 2 / (2 * ramp_s)
        else:
            d = t - ramp_s / 2
        out.append(min(1.0, d / duration))
    return out


def base_joints(pose: tuple[float, float, float]) -> dict[str, float]:
    return dict(zip(BASE_JOINTS, pose))
