"""Turning an item lengthwise along the edge by straight-in strokes of the closed fingers until a straight pinch fits:
where the strokes go (:func:`turn_strokes`), whether one applies (:func:`can_turn`), the strokes themselves
(:func:`turn_item`)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from housebench.annotations.schema import Support
from housebench.state import Observation
from housebench.tasks.geometry import rotation

if TYPE_CHECKING:
    from housebench.skills.side.pick import SidePick

from housebench.skills.base import SkillContext, SkillFailure, SkillGen
from housebench.skills.carry import approach
from housebench.skills.grasp import CLOSED, FINGER_HALF
from housebench.skills.motion import cartesian
from housebench.skills.side.entries import Entry, entry_stance
from housebench.skills.side.fit import grip_height, hand_rot, pinch_height
from housebench.skills.side.opening import back_offset, footprint_corners, open_edges, straight_yaw, yaw_of
from housebench.skills.tuning import tuning
from housebench.skills.view import support_of, wrap


def face_exit(c: np.ndarray, rot: np.ndarray, half: np.ndarray, p: np.ndarray, n: np.ndarray) -> np.ndarray | None:
    """Where the line through ``p`` along ``n`` leaves the footprint (centre ``c``, axes ``rot``'s columns,
    half sizes ``half``) on the ``n`` side, or None where it misses the footprint."""
    b, d = rot.T @ (p - c), rot.T @ n
    lo, hi = -math.inf, math.inf
    for k in (0, 1):
        if abs(d[k]) < 1e-9:
            if abs(b[k]) > half[k]:
                return None
            continue
        l0, l1 = sorted(((-half[k] - b[k]) / d[k], (half[k] - b[k]) / d[k]))
        lo, hi = max(lo, l0), min(hi, l1)
    return p + n * hi if lo <= hi else None


def can_turn(pick: SidePick, ctx: SkillContext, obs: Observation) -> bool:
    """Whether this pick has not turned its item yet and a turning push (:func:`turn_strokes`) applies."""
    return not pick.turned and bool(turn_strokes(pick, ctx, obs))


def fits_straight(pick: SidePick, ctx: SkillContext, obs: Observation) -> bool:
    """Whether a pinch within ``max_skew`` of straight in through an open edge fits the fingers and the hand
    passes the support's walled sides (:func:`passes_sides`)."""
    try:
        return any(not e.aslant for e in pick.entries(ctx, obs))
    except SkillFailure:
        return False


def turn_strokes(pick: SidePick, ctx: SkillContext, obs: Observation) -> list[Entry]:
    """The straight-in pushes (fingers closed) at the end farther in of an item no pinch within
    ``max_skew`` fits (pushed there it turns towards the edge's normal; pushed at the end nearer the edge it turns
    away from it), at
    either end, the one with more room to the support's sides first, of an item square to the edge; none
    where such a pinch fits or the fingers could not take it across its narrow side."""
    ts = tuning().side
    asset, pose = ctx.scene.objects[pick.obj].asset, obs.objects[pick.obj]
    support = support_of(ctx, obs, pick.obj)
    fit = grip_height(asset.size[2], pinch_height(asset))
    if fit is None or min(asset.size[:2]) > tuning().grasp.max_width_m or fits_straight(pick, ctx, obs):
        return []
    pitch, dz = fit
    c, rot = np.asarray(pose.pos[:2], float), rotation(pose.quat)[:2, :2]
    half = np.asarray(asset.size[:2], float) / 2
    long = int(half[1] > half[0])
    turns = []
    for edge in open_edges(ctx.scene.house, support):
        n = np.array(edge.normal)
        t = np.array([-n[1], n[0]])
        lo, hi = sorted(float(np.array(p) @ t) for p in ((support.box[0], support.box[1]), support.box[2:]))
        deep = -1.0 if float(rot[:, long] @ n) > 0 else 1.0  # the end farther in: pushed, it turns the item
        for s in (deep, -deep) if abs(float(rot[:, long] @ n)) < ts.turn_even else (deep,):  # square to n
            lateral = float((c + s * rot[:, long] * (half[long] - ts.turn_end_m)) @ t)
            room = min(lateral - lo, hi - lateral) - ts.turn_wall_m
            face = face_exit(c, rot, half, c + t * (lateral - c @ t), n)
            if room < 0 or face is None:
                continue
            pad = np.array([*(face + n * (FINGER_HALF + ts.turn_pad_m)), support.height + dz])
            yaw = straight_yaw(edge)
            entry = Entry(pad, hand_rot(yaw, pitch), back_offset(edge, pad, yaw, FINGER_HALF, True), edge)
            turns.append((room, entry))
    return [e for _, e in sorted(turns, key=lambda re: -re[0])]


def turn_item(pick: SidePick, ctx: SkillContext, obs: Observation, support: Support) -> SkillGen:
    """Up to ``turns`` strokes straight in at one end of the item (:func:`turn_strokes`), each ``turn_stroke_m``
    past its near face or less where its far side nears the support's far edge, the hand back out
    after each, until a straight pinch fits; ``UNSUPPORTED`` when none did."""
    ts = tuning().side
    asset, pick.turned = ctx.scene.objects[pick.obj].asset, True
    for stroke in range(ts.turns):
        entries = turn_strokes(pick, ctx, obs)
        if not entries:
            break
        base, out, at, entry = entry_stance(pick, ctx, obs, entries)
        a = -np.array([*entry.edge.normal, 0.0])
        far = max(float(np.array(p) @ a[:2]) for p in ((support.box[0], support.box[1]), support.box[2:]))
        room = far - float(np.max(footprint_corners(asset, obs.objects[pick.obj]) @ a[:2])) - ts.turn_keep_m
        if room < ts.turn_keep_m:  # its far side at the support's far edge: no stroke turns it more
            break
        push = ts.turn_over_m + min(ts.turn_stroke_m, room)
        yaw0, pad, rot = yaw_of(obs.objects[pick.obj]), entry.pad, entry.rot
        obs = yield from approach(pick, ctx, obs, base)
        obs = yield from cartesian(pick.name, obs, ctx, pad + entry.back, rot, fallback=out, gripper=CLOSED)
        obs = yield from cartesian(pick.name, obs, ctx, pad, rot, fallback=at, gripper=CLOSED)
        obs = yield from cartesian(pick.name, obs, ctx, pad + a * push, rot, step=ts.contact_step_m, gripper=CLOSED)
        obs = yield from cartesian(pick.name, obs, ctx, pad + entry.back, rot, gripper=CLOSED)
        turned = round(math.degrees(wrap(yaw_of(obs.objects[pick.obj]) - yaw0)), 1)
        ctx.log("turn", skill=pick.name, target=pick.obj, stroke=stroke, push=round(push, 3), turned=turned)
    yaw, fits = round(yaw_of(obs.objects[pick.obj]), 2), fits_straight(pick, ctx, obs)
    ctx.log("decision", skill=pick.name, target=pick.obj, turned_to=yaw, straight_pinch=fits)
    return obs
