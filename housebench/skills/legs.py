"""Driving the base along a path's legs: the heading of each leg (the arm swept clear of the house, the props and an
open door), the drive along them (:func:`drive_path`), speeds ramped, and the turn last onto a pose."""

from __future__ import annotations

import itertools
import math

from housebench.robot.fetch import BASE_JOINTS
from housebench.robot.kinematics import ARM
from housebench.skills.base import Reason, SkillContext, SkillFailure, SkillGen
from housebench.skills.motion import arm_planner, obstacles
from housebench.skills.tuning import tuning
from housebench.skills.view import end_held, held, wrap
from housebench.state import Action, Observation


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


def drive_path(
    skill: str, obs: Observation, path: list[tuple[float, float]], yaw: float, ctx: SkillContext, **extra
) -> SkillGen:
    """The base along ``path`` (x, y waypoints). Each leg is driven lengthwise (facing along it, or
    backwards), so the arm never sweeps sideways past a door frame; before the last leg (which leaves the
    free floor towards a stance) it turns to ``yaw`` and drives that leg facing it; the directions as
    :func:`headings` chooses them; holding something, the last turn as :func:`turning_last` makes it (a turn
    before the last leg may stand in a doorway, where the held item swings into the jamb; an empty hand keeps the
    turn before the last leg, whose stance may lie within an open door's swing, as an open from inside it does);
    with a
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
