"""Which level pinches fit an item (side geometry of the hand): the hand's pitch and pad height over the surface
(:func:`grip_height`, :func:`grip_tips`), how deep it goes in (:func:`grip_depth`), the approach yaws whose fingers fit
across the item (:func:`pinch_yaws`) and the ways through open edges they give (:func:`level_ways`)."""

from __future__ import annotations

import math

import numpy as np

from housebench.annotations.schema import AssetAnnotation
from housebench.robot.kinematics import side
from housebench.skills.edge import Edge
from housebench.skills.grasp import FINGER_HALF, extent, round_item
from housebench.skills.side.opening import straight_yaw
from housebench.skills.tuning import tuning
from housebench.skills.view import wrap
from housebench.state import ObjectState
from housebench.tasks.geometry import rotation

PALM = (-0.032, -0.04)  # the palm's lower front corner in the grasp frame (x ahead, z up), m (a robot fact)


TIP = (FINGER_HALF, -0.0135)  # a fingertip's lower corner, m (a robot fact)


def hand_rot(yaw: float, pitch: float) -> np.ndarray:
    """The level hand approaching along ``yaw`` (:func:`side`), fingertips tipped down ``pitch`` rad."""
    c, s = math.cos(pitch), math.sin(pitch)
    return side(yaw) @ np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def grip_height(height: float, at: float | None = None) -> tuple[float, float] | None:
    """(pitch, pad height over the surface) of a side pinch of an item ``height`` tall, taken ``at``
    that height (default ``grip_at`` of it) with the hand as level as lets the palm and the fingertips
    clear the surface there, else as low as they clear it; None when the fingers would pass over it."""

    ts = tuning().side
    want = ts.grip_at * height if at is None else at
    pitch = next((p for p in ts.pitches if reach_below(p) <= want), min(ts.pitches, key=reach_below))
    dz = max(want, reach_below(pitch))
    return (pitch, dz) if dz <= height - ts.top_room_m else None


def reach_below(pitch: float) -> float:
    """How far under the pad the hand tipped ``pitch`` reaches (palm or fingertips), ``clear_m`` added."""
    ts = tuning().side
    return max(x * math.sin(pitch) - z * math.cos(pitch) for x, z in (PALM, TIP)) + ts.clear_m


def grip_tips(height: float, at: float | None = None) -> list[tuple[float, float]]:
    """:func:`grip_height`'s pinch, then the same pinch tipped further (the later ``pitches``, then
    ``low_tips``), each pad raised as its tip needs, while it stays on the item."""
    ts = tuning().side
    fit = grip_height(height, at)
    if fit is None:
        return []
    want = ts.grip_at * height if at is None else at
    more = [(p, max(want, fit[1], reach_below(p))) for p in (*ts.pitches, *ts.low_tips) if p > fit[0]]
    return [fit, *((p, dz) for p, dz in more if dz <= height - ts.top_room_m)]


def slim(asset: AssetAnnotation) -> bool:
    """Whether ``asset`` is taller than ``slim`` times its width: a bottle or a carton, whose top narrows
    (a shoulder, a gable) and whose square footprint may be a box's."""
    ts = tuning().side
    return asset.size[2] > ts.slim * max(asset.size[:2])


def pinch_height(asset: AssetAnnotation) -> float | None:
    """Where a squat round item's top pinch takes it over its bottom (its widest section: its wall slopes
    elsewhere, and a pinch there squeezed a bowl out downwards), ``top_keep_m`` under its top at most;
    None for any other item (taken at ``grip_at``): a block, and a slim one (``slim``: a bottle, a
    carton), whose top narrows to a shoulder or a gable (a pinch on a sloping shoulder squeezes a heavy bottle
    out along the slope)."""
    ts = tuning().side
    point = next((p.point for p in asset.grasps if p.kind == "top_pinch"), None)
    if point is None or not round_item(asset) or slim(asset):
        return None
    return min(point[2] + asset.bottom_offset, asset.size[2] - ts.top_keep_m)


def grip_depth(asset: AssetAnnotation, dz: float) -> float:
    """How far past the item's near face the pad goes in: ``palm_back_m``; none where the pinch is raised to
    ``dz``, ``raised_m`` over the height it wants (an item too short for the hand to get down to): the fingers'
    lower edge rises towards the palm, so only their tips reach its low sides (an item wider low than high, as a
    toy car at its wheels: taken deeper in, the fingers close on the low part's top edge, and the squeeze presses
    the item down and out of them; taken at its near face they press the low part's faces). A round item is
    widest at its middle: the fingers reach past it."""
    ts = tuning().side
    want = pinch_height(asset) or ts.grip_at * asset.size[2]
    return 0.0 if dz > want + ts.raised_m and not round_item(asset) else ts.palm_back_m


def pinch_yaws(
    asset: AssetAnnotation, pose: ObjectState, edge: Edge, skew: float, ceiling: bool = False, square: bool = False
) -> list[tuple[float, float]]:
    """(approach yaw, width across) of the level pinches through ``edge`` within ``skew`` of straight in
    (1 deg steps) whose fingers fit across the item (its extent across them, :func:`extent`: a box a few
    degrees off square turns square as they close): of each span of such yaws the straightest and the
    narrowest across, narrowest first (the fingers' margin); a round item straight in, a slim one
    (:func:`slim`) also as the box it may be: on an open top first (a carton taken across its corners does not turn
    square as the fingers close and slips out on the withdraw), under a ``ceiling`` after straight in (a turned way
    in under a ceiling brings the arm near the walls); ``square``: a slim one only as the box (taken round, its
    corners measured across the fingers)."""
    straight = straight_yaw(edge)
    rot = rotation(pose.quat)
    if round_item(asset) and asset.size[0] <= tuning().grasp.max_width_m:
        boxed = _spans(lambda d: float(np.abs(rot.T @ d) @ asset.size), straight, skew) if slim(asset) else []
        if square and boxed:
            return boxed
        return [(straight, asset.size[0]), *boxed] if ceiling else [*boxed, (straight, asset.size[0])]
    return _spans(lambda d: extent(asset, rot, d), straight, skew)


def _spans(across, straight: float, skew: float) -> list[tuple[float, float]]:
    """Of each span of yaws within ``skew`` of ``straight`` (1 deg steps) whose width ``across`` the
    fingers (a function of their closing direction) fits, the straightest and the narrowest, narrowest
    first."""
    limit = int(math.degrees(skew))
    spans, run = [], []
    for step in range(-limit, limit + 2):
        yaw = straight + math.radians(step)
        width = across(np.array([-math.sin(yaw), math.cos(yaw), 0.0])) if step <= limit else math.inf
        if width <= tuning().grasp.max_width_m:
            run.append((yaw, width))
        elif run:
            spans.append(run)
            run = []
    out = {
        pick
        for span in spans
        for pick in (min(span, key=lambda yw: abs(wrap(yw[0] - straight))), min(span, key=lambda yw: yw[1]))
    }
    return sorted(out, key=lambda yw: (yw[1], abs(wrap(yw[0] - straight))))


def level_ways(
    asset: AssetAnnotation, pose: ObjectState, open_: list[Edge], ceiling: bool, square: bool = False
) -> list[tuple]:
    """(edge, approach yaw, width across, aslant) of the level pinches through the ``open_`` edges:
    within ``max_skew`` of straight in under a ``ceiling`` (an eighth turn on an open top), then, under
    a ceiling, those up to ``wide_skew`` off (``aslant``: the item lies lengthwise along the edge); ``square``
    as for :func:`pinch_yaws`."""
    ts = tuning().side
    skew = ts.max_skew if ceiling else ts.open_skew
    ways = [
        (edge, yaw, width, False)
        for edge in open_
        for yaw, width in pinch_yaws(asset, pose, edge, skew, ceiling, square)
    ]
    if ceiling:
        for edge in open_:
            straight = straight_yaw(edge)
            wide = pinch_yaws(asset, pose, edge, ts.wide_skew, ceiling, square)
            ways += [(edge, yaw, width, True) for yaw, width in wide if abs(wrap(yaw - straight)) > skew + 1e-9]
        ways += _round_turns(asset, open_, square)
    return ways


def _round_turns(asset: AssetAnnotation, open_: list[Edge], square: bool) -> list[tuple]:
    """The ways of a round item under a ceiling turned ``round_turns`` off straight in (its width the same
    whichever way; past ``max_skew`` aslant), last: the stance of a way straight in stands square to the item, which
    by a door's hinge is where the open door stands; a turned way in puts the stance beside the door."""
    ts = tuning().side
    if square or not round_item(asset) or asset.size[0] > tuning().grasp.max_width_m:
        return []
    out = []
    for turn in ts.round_turns:
        for edge in open_:
            straight = straight_yaw(edge)
            out += [(edge, straight + s * turn, asset.size[0], turn > ts.max_skew) for s in (-1.0, 1.0)]
    return out
