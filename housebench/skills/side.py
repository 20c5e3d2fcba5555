"""Side grasps under a ceiling (shelf levels, fridge shelves, a microwave cavity): the hand enters level
from the support's open side, below the ceiling, and withdraws straight back out.

- open side (:func:`open_edges`): the edges of a support that no wall of the house walls off (a shelf's
  back, sides, the room's wall behind it; an appliance's door is no wall); every edge of an open top.
- ``pick`` from the side (:class:`SidePick`): the stance faces an open edge, square to the item first;
  the hand approaches level (fingers closing horizontally across a side of the item that fits), tipped
  down for a short item so the palm and the fingertips clear the surface (a box a few degrees off
  square to the fingers where its extent across them fits: it turns square as they close), within
  ``max_skew`` of straight in, else aslant up to ``wide_skew`` (an item lengthwise along the edge: the
  arm at the stance checked clear of the house, the way to the pre-grasp planned round it); pre-grasp
  outside the edge, in to the fingertips 2 cm short, the aim corrected by the measured offset, in (an item too
  short for the hand to get down to only to its near face: :func:`grip_depth`), close, check both fingers touch
  (``MISSED``), lift ``lift_m`` (less where the ceiling is nearer), straight back out, check the hold
  (``DROPPED``), carry pose with the hand as it holds. Under a ceiling, an item that only aslant
  ways fit, or none fits or reaches, and that the fingers could take across its narrow side is first
  turned by straight-in strokes of the closed fingers at its end farther in (``turns``; clear_shelf's toy
  car lengthwise along the shelf's edge: about 10 deg a 4 cm stroke) until a straight pinch fits; where
  still none fits, the item is taken by its outline (:func:`outline_entries`): the annotated sections of its
  collision hulls give a level pinch that closes on a narrower part of it (the rubber duck's head, 4 cm wide,
  over a body too wide for the fingers at any yaw but along it).
- ``place`` from the side (:class:`SidePlace`): the held object turned about the vertical (hand and
  base) to face an open edge, carried in level ``raise_m`` over its release height, lowered, released
  ``skills.place.drop_m`` over the surface, the hand drawn straight back out. Under a ceiling the spot is the free one
  nearest the middle of the opening that no open door blocks; on an open top, nearest the robot, ``open_keep_m``
  further off the edges than its footprint; either way no other object lies between it and the edge.

Tuning: ``skills.side`` (:class:`housebench.skills.tuning.SideTuning`; the double-quoted names below are its
fields).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from housebench.annotations.schema import AssetAnnotation, HouseAnnotations, Support
from housebench.robot.kinematics import side
from housebench.skills.base import Reason, Skill, SkillContext, SkillFailure, SkillGen
from housebench.skills.edge import Edge, PushToEdge, edges, support_of
from housebench.skills.grasp import FINGER_HALF, extent, opening, round_item
from housebench.skills.motion import cartesian, hold, pad_pose, wrap
from housebench.skills.navigate import moving_boxes
from housebench.skills.outline import band
from housebench.skills.pick import CLOSED, OPEN, UP, Pick, approach, stance_search, to_carry
from housebench.skills.place import Place, spot
from housebench.skills.tuning import tuning
from housebench.state import ObjectState, Observation
from housebench.tasks import goal as g
from housebench.tasks.geometry import footprint, rotation, world_box

PALM = (-0.032, -0.04)  # the palm's lower front corner in the grasp frame (x ahead, z up), m (a robot fact)
TIP = (FINGER_HALF, -0.0135)  # a fingertip's lower corner, m (a robot fact)


def back_off() -> float:
    """The shortest way back to the pre-pose, m."""
    ts = tuning().side
    return ts.palm_back_m + FINGER_HALF + ts.out_m


def low_ceiling(support: Support, height: float) -> bool:
    """Whether the free height over ``support`` is too low for a top-down pick or place of an item
    ``height`` tall (the hand enters from the side instead)."""
    ts = tuning().side
    return support.clearance is not None and support.clearance < height + ts.hand_room_m


def side_pick(ctx: SkillContext, obs: Observation, obj: str, supports: list[Support]) -> bool:
    """Whether to pick ``obj`` from the side: it rests under a ceiling too low for a top-down pick, or
    every support it may go to has one (a place from the side needs the level hand)."""
    height = ctx.scene.objects[obj].asset.size[2]
    under = support_of(ctx, obs, obj)
    if under is not None and low_ceiling(under, height):
        return True
    return bool(supports) and all(low_ceiling(s, height) for s in supports)


def side_held(ctx: SkillContext, obs: Observation) -> bool:
    """Whether the hand is level (a side grasp) rather than pointing down."""
    ts = tuning().side
    return abs(pad_pose(ctx, obs)[1][2, 0]) < math.sin(max(*ts.pitches, *ts.low_tips) + ts.level_margin)


def open_edges(house: HouseAnnotations, support: Support) -> list[Edge]:
    """The edges of ``support`` no wall covers (over most of their span, from just above the surface to
    just under the ceiling); the articulated parts (an appliance's door) are no walls."""
    ts = tuning().side
    if support.clearance is None:
        return edges(support)
    parts = tuple(p.name + "/" for p in house.articulated)
    walls = [o.box for o in house.obstacles if not o.name.startswith(parts)]
    lo, hi = support.height + ts.wall_band_m, support.height + support.clearance - ts.wall_band_m
    return [e for e in edges(support) if not any(_walls_off(e, b, lo, hi) for b in walls)]


def _walls_off(edge: Edge, box, lo: float, hi: float) -> bool:
    ts = tuning().side
    if box[2] > lo or box[5] < hi:
        return False
    nx, ny = edge.normal
    axis, sign = (0, nx) if nx else (1, ny)
    near, far = sorted((sign * box[axis], sign * box[axis + 3]))
    if far < edge.coord - ts.wall_inside_m or near > edge.coord + ts.wall_outside_m:
        return False
    t = 1 - axis
    a0, a1 = edge.support.box[t], edge.support.box[t + 2]
    return min(a1, box[t + 3]) - max(a0, box[t]) >= 0.5 * (a1 - a0)


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
    pitch = next((p for p in ts.pitches if _below(p) <= want), min(ts.pitches, key=_below))
    dz = max(want, _below(pitch))
    return (pitch, dz) if dz <= height - ts.top_room_m else None


def _below(pitch: float) -> float:
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
    more = [(p, max(want, fit[1], _below(p))) for p in (*ts.pitches, *ts.low_tips) if p > fit[0]]
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
    carton), whose top narrows to a shoulder or a gable (the 1.1 kg juice bottle slid out of a pinch on
    its shoulder, 0.18 m up, on the withdraw)."""
    ts = tuning().side
    point = next((p.point for p in asset.grasps if p.kind == "top_pinch"), None)
    if point is None or not round_item(asset) or slim(asset):
        return None
    return min(point[2] + asset.bottom_offset, asset.size[2] - ts.top_keep_m)


def grip_depth(asset: AssetAnnotation, dz: float) -> float:
    """How far past the item's near face the pad goes in: ``palm_back_m``; none where the pinch is raised to
    ``dz``, ``raised_m`` over the height it wants (an item too short for the hand to get down to): the fingers'
    lower edge rises towards the palm, so only their tips reach its low sides (the toy car is 0.06 m wide at
    its wheels, under 0.022 m, 0.046 over them: taken 2.7 cm in, the fingers closed on its near wheels' top
    rims, the squeeze pressed it down and out of them during the carry; taken at its near face they press
    the wheels' faces). A round item is widest at its middle: the fingers reach past it."""
    ts = tuning().side
    want = pinch_height(asset) or ts.grip_at * asset.size[2]
    return 0.0 if dz > want + ts.raised_m and not round_item(asset) else ts.palm_back_m


def _straight(edge: Edge) -> float:
    """The yaw of an approach straight in through ``edge`` (against its outward normal)."""
    return math.atan2(-edge.normal[1], -edge.normal[0])


def _yaws(
    asset: AssetAnnotation, pose: ObjectState, edge: Edge, skew: float, ceiling: bool = False, square: bool = False
) -> list[tuple[float, float]]:
    """(approach yaw, width across) of the level pinches through ``edge`` within ``skew`` of straight in
    (1 deg steps) whose fingers fit across the item (its extent across them, :func:`extent`: a box a few
    degrees off square turns square as they close): of each span of such yaws the straightest and the
    narrowest across, narrowest first (the fingers' margin); a round item straight in, a slim one
    (:func:`slim`) also as the box it may be: on an open top first (a milk carton taken across its corners,
    gap 0.0975 m, did not turn square and slid out on the withdraw), under a ``ceiling`` after straight in
    (turned in the fridge, the arm stalled); ``square``: a slim one only as the box (taken round, its
    corners measured across the fingers)."""
    straight = _straight(edge)
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


def _ways(
    asset: AssetAnnotation, pose: ObjectState, open_: list[Edge], ceiling: bool, square: bool = False
) -> list[tuple]:
    """(edge, approach yaw, width across, aslant) of the level pinches through the ``open_`` edges:
    within ``max_skew`` of straight in under a ``ceiling`` (an eighth turn on an open top), then, under
    a ceiling, those up to ``wide_skew`` off (``aslant``: the item lies lengthwise along the edge); ``square``
    as for :func:`_yaws`."""
    ts = tuning().side
    skew = ts.max_skew if ceiling else ts.open_skew
    ways = [
        (edge, yaw, width, False) for edge in open_ for yaw, width in _yaws(asset, pose, edge, skew, ceiling, square)
    ]
    if ceiling:
        for edge in open_:
            straight = _straight(edge)
            wide = _yaws(asset, pose, edge, ts.wide_skew, ceiling, square)
            ways += [(edge, yaw, width, True) for yaw, width in wide if abs(wrap(yaw - straight)) > skew + 1e-9]
        ways += _round_turns(asset, open_, square)
    return ways


def _round_turns(asset: AssetAnnotation, open_: list[Edge], square: bool) -> list[tuple]:
    """The ways of a round item under a ceiling turned ``round_turns`` off straight in (its width the same
    whichever way; past ``max_skew`` aslant), last: straight in, the stance square to the item stood where
    the open fridge door does (heat_breakfast_combo v005, v013: the oatmeal by the hinge, ``UNREACHABLE``)."""
    ts = tuning().side
    if square or not round_item(asset) or asset.size[0] > tuning().grasp.max_width_m:
        return []
    out = []
    for turn in ts.round_turns:
        for edge in open_:
            straight = _straight(edge)
            out += [(edge, straight + s * turn, asset.size[0], turn > ts.max_skew) for s in (-1.0, 1.0)]
    return out


def _corners(asset: AssetAnnotation, pose: ObjectState) -> np.ndarray:
    """The four corners of ``pose``'s footprint (world x, y)."""
    sx, sy = asset.size[:2]
    rot = rotation(pose.quat)[:2, :2]
    return np.array([[x, y] for x in (-sx / 2, sx / 2) for y in (-sy / 2, sy / 2)]) @ rot.T + np.asarray(pose.pos[:2])


def _back(edge: Edge, pad: np.ndarray, yaw: float, ahead: float, ceiling: bool) -> np.ndarray:
    """The offset from ``pad`` straight back along the approach ``yaw`` to the pre-pose: under a
    ``ceiling``, where the fingertips and whatever reaches ``ahead`` of the pad are ``out_m`` outside
    ``edge``; on an open top, the shortest way back (:func:`back_off`) (the fingertips clear of what they take)."""
    ts = tuning().side
    a = np.array([math.cos(yaw), math.sin(yaw)])
    dist = back_off()
    if ceiling:
        cos = max(float(-a @ np.array(edge.normal)), ts.min_cos)
        inside = edge.coord - float(pad[:2] @ np.array(edge.normal))
        dist = max(dist, (inside + max(ahead, FINGER_HALF) * cos + ts.out_m) / cos)
    return np.array([*(-a * dist), 0.0])


def _passes(edge: Edge, open_: list[Edge], pad: np.ndarray, yaw: float) -> bool:
    """Whether the level hand in along ``yaw`` to ``pad`` keeps ``hand_half_m`` (across its way, widened by the
    skew) inside the support's walled sides from ``edge`` to the pad: skewed towards a side wall, the gripper
    passes the edge nearer it than the pad (clear_shelf's car and duck, pads 6-13 cm off the bookcase's side
    and 19-35 deg off straight towards it, 3-8 cm short of this, stalled the arm on the side's front in 6 of 6
    picks; those that passed cleared it by 2.5 cm or more)."""
    ts = tuning().side
    n = np.array(edge.normal)
    t = np.array([-n[1], n[0]])
    a = np.array([math.cos(yaw), math.sin(yaw)])
    cos = float(-a @ n)
    if cos <= ts.square_cos:
        return False
    cross = pad[:2] - a * max(0.0, edge.coord - float(pad[:2] @ n)) / cos
    half = ts.hand_half_m / cos
    opened = {e.normal for e in open_}
    sides = [e for e in edges(edge.support) if e.normal not in opened and abs(float(np.array(e.normal) @ t)) > 0.5]
    return all(float(np.array(e.normal) @ p) + half <= e.coord for e in sides for p in (pad[:2], cross))


def _stances(edge: Edge, at: np.ndarray, ahead: float = 0.0) -> Iterator[tuple[float, float, float]]:
    """Base poses facing ``edge``, square to ``at`` first (the forearm follows the hand in straight), far
    enough out that what the carried hand holds ``ahead`` of it clears the edge on the way there; then,
    nearest ``at`` first, the finer poses beside it (an open door stands in front of a fridge's hinge
    half), all within ``reach_m`` of ``at``."""
    ts = tuning().side
    dists = tuple(d for d in ts.stand_m if d >= tuning().pick.carry[0] + ahead + ts.out_m) or ts.stand_m[-1:]
    square = (pose for shift in ts.shifts_m for pose in edge.stances(at, dists, (shift,)))
    near = sorted(edge.stances(at, ts.near_stand_m, ts.near_shifts_m), key=lambda pose: math.dist(pose[:2], at[:2]))
    return (pose for pose in itertools.chain(square, near) if math.dist(pose[:2], at[:2]) <= ts.reach_m)


def free_opening(edge: Edge, boxes, lo: float, hi: float) -> Support:
    """The edge's support narrowed along the edge to the widest span that no box just outside the edge
    (``pass_m`` deep, between heights ``lo`` and ``hi``) blocks: an open door that swung past square."""
    ts = tuning().side
    axis, sign = (0, edge.normal[0]) if edge.normal[0] else (1, edge.normal[1])
    t = 1 - axis
    box = list(edge.support.box)
    blocked = sorted(
        (b[t], b[t + 3])
        for b in boxes
        if b[2] < hi
        and b[5] > lo
        and max(sign * b[axis], sign * b[axis + 3]) > edge.coord
        and min(sign * b[axis], sign * b[axis + 3]) < edge.coord + ts.pass_m
    )
    spans, start = [], box[t]
    for b0, b1 in blocked:
        spans.append((start, min(b0, box[t + 2])))
        start = max(start, b1)
    spans.append((start, box[t + 2]))
    box[t], box[t + 2] = max(spans, key=lambda span: span[1] - span[0])
    return edge.support.model_copy(update={"box": tuple(box)})


def _ceiling(support: Support) -> float:
    ts = tuning().side
    return math.inf if support.clearance is None else support.height + support.clearance - ts.room_m


@dataclass(frozen=True)
class Entry:
    """One way in: the pad's target and rotation there, the offset back out to the pre-pose, the edge."""

    pad: np.ndarray
    rot: np.ndarray
    back: np.ndarray
    edge: Edge
    width: float = 0.0  # across the fingers (a pick)
    ahead: float = 0.0  # how far the held object reaches ahead of the pad (a place)
    aslant: bool = False  # past ``max_skew``: the stance keeps the arm clear of the house (a shelf's side)
    depth: float = None  # type: ignore[assignment]  # how far past the item's near face the pad goes in (a
    # pick; None: ``palm_back_m`` of the tuning it is made under)

    def __post_init__(self) -> None:
        if self.depth is None:
            object.__setattr__(self, "depth", tuning().side.palm_back_m)


def outline_entries(asset: AssetAnnotation, pose: ObjectState, support: Support, open_: list[Edge]) -> list[Entry]:
    """The level pinches straight in through the ``open_`` edges of ``support`` (or ``outline_skews`` off) that
    close on the item's narrower sections (:func:`band`: the rubber duck's head), best hold first: the fingers
    span ``TIP`` over and under the pad, the palm ``PALM`` under it keeps ``palm_back_m`` off the item's near face
    at its height and over, what the fingers take fits them and they close on ``hold_m`` of it at least;
    ``wrist_low_m`` deep in; the hand passes the walled sides (:func:`_passes`)."""
    ts = tuning().side
    corners = _corners(asset, pose)
    levels = []  # (pad height, the item between the fingers, the item from the palm up): alike for every way in
    for dz in np.arange(_below(0.0), asset.size[2] - TIP[1] - ts.level_top_m, ts.level_step_m):
        fingers = band(asset, pose, dz + TIP[1], dz - TIP[1])
        if len(fingers):
            levels.append((dz, fingers, band(asset, pose, dz + PALM[1], math.inf)))
    scored = []
    for edge, skew in itertools.product(open_, ts.outline_skews):
        yaw = _straight(edge) + skew
        a, t = np.array([math.cos(yaw), math.sin(yaw)]), np.array([-math.sin(yaw), math.cos(yaw)])
        for dz, fingers, palm in levels:
            along, across = fingers @ a, fingers @ t
            reach = float(np.min(palm @ a)) + ts.palm_back_m  # the pad along the way in: the palm off the near face
            hold = min(reach + FINGER_HALF, float(np.max(along))) - float(np.min(along))
            width = float(np.ptp(across))
            if hold < ts.hold_m or width > tuning().grasp.max_width_m:
                continue
            pad = np.array([*(a * reach + t * (float(np.min(across)) + width / 2)), support.height + dz])
            if edge.coord - float(pad[:2] @ np.array(edge.normal)) > ts.deep_m and dz < ts.wrist_low_m:
                continue
            if not _passes(edge, open_, pad, yaw):
                continue
            height = min(dz - TIP[1], asset.size[2]) - max(dz + TIP[1], 0.0)  # of the item between the fingers
            back = _back(edge, pad, yaw, float(np.max(corners @ a)) - reach, True)
            scored.append(
                (-min(hold, 2 * FINGER_HALF) * height, abs(skew), Entry(pad, hand_rot(yaw, 0.0), back, edge, width))
            )
    return [e for _, _, e in sorted(scored, key=lambda s: s[:2])]


def entry_stance(skill: Skill, ctx: SkillContext, obs: Observation, entries: list[Entry], skip: tuple[str, ...] = ()):
    """(base pose, joints at the pre-pose, joints at the target, the entry) of the first entry the IK
    reaches from a stance facing its edge, or ``UNREACHABLE``."""
    for entry in entries:
        poses = _stances(entry.edge, entry.pad, entry.ahead)
        clear_of = (skill.target(), *skip) if entry.aslant else None
        found = stance_search(ctx, obs, [(entry.pad, [entry.rot])], entry.back, skip, poses, clear_of=clear_of)
        if found is not None:
            base, (out, at, _, _) = found
            ctx.log("stance", skill=skill.name, target=skill.target(), grasp="side", base=[round(v, 3) for v in base])
            return base, out, at, entry
    raise skill.fail(Reason.UNREACHABLE, at=[round(float(v), 3) for v in entries[0].pad], ways=len(entries))


class SidePick(Pick):
    """The pick of an item under a ceiling: the level hand from the support's open side (same contract); on an
    open top, an item too deep in for it is first drawn towards the edge (:class:`PushToEdge`)."""

    square = False  # a slim item taken as round closed across its corners: taken as the box it is
    turned = False  # turned by pushes (:meth:`_turn`) once: not again

    @property
    def timeout_s(self) -> float:  # type: ignore[override]
        return tuning().pick.timeout_s + tuning().edge.push_timeout_s

    def _entries(self, ctx: SkillContext, obs: Observation) -> list[Entry]:
        """The ways in through the open edges of the item's support (``UNSUPPORTED`` when none fits)."""
        asset, pose = ctx.scene.objects[self.obj].asset, obs.objects[self.obj]
        support = support_of(ctx, obs, self.obj)
        fits = grip_tips(asset.size[2], pinch_height(asset))
        if support is None or not fits:
            raise self.fail(Reason.UNSUPPORTED, support=support and support.name, height=asset.size[2])
        ceiling = low_ceiling(support, asset.size[2])
        box = np.array(world_box(pose, asset))
        corners, centre = _corners(asset, pose), (box[:2] + box[3:5]) / 2
        entries = []
        open_ = open_edges(ctx.scene.house, support)
        ways = _ways(asset, pose, open_, ceiling, self.square)
        for (pitch, dz), (edge, yaw, width, aslant) in itertools.product(fits if ceiling else fits[:1], ways):
            a = np.array([math.cos(yaw), math.sin(yaw)])
            near, far = float(np.min(corners @ a)), float(np.max(corners @ a))
            if round_item(asset) and width == asset.size[0] and abs(wrap(yaw - _straight(edge))) > 1e-9:
                near, far = centre @ a - width / 2, centre @ a + width / 2  # turned: its round face, not its box's
            depth = grip_depth(asset, dz)
            pad = np.array([*(centre + a * (near + depth - centre @ a)), support.height + dz])
            if not _passes(edge, open_, pad, yaw):
                continue
            back = _back(edge, pad, yaw, far - float(pad[:2] @ a), ceiling)
            entries.append(Entry(pad, hand_rot(yaw, pitch), back, edge, width, aslant=aslant, depth=depth))
        if not entries:
            raise self.fail(Reason.UNSUPPORTED, why="no side fits the fingers from an open edge", support=support.name)
        return entries

    def stance(self, ctx: SkillContext, obs: Observation) -> tuple[float, float, float]:
        """The base pose this pick reaches in from (its body drives there first)."""
        return entry_stance(self, ctx, obs, self._entries(ctx, obs))[0]

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        ts = tuning().side
        asset = ctx.scene.objects[self.obj].asset
        support = support_of(ctx, obs, self.obj)
        obs, (base, out, at, entry) = yield from self._way_in(ctx, obs, support)
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
            # a carton taken as round, closed across its corners: it slid out on the withdraw (heat_breakfast_combo's
            # milk, gap 0.096 m); the fingers open, back out and take it square to its faces
            gap = round(obs.gripper_opening, 4)
            ctx.log("decision", skill=self.name, target=self.obj, choice="take square", gap=gap)
            obs = yield from hold(obs, 0.5, ctx, gripper=OPEN)
            obs = yield from cartesian(self.name, obs, ctx, pad + back, rot, gripper=OPEN)
            self.square = True
            return (yield from self.body(ctx, obs))
        ctx.log("grasped", obj=self.obj, gap=round(obs.gripper_opening, 4))
        lift = UP * max(0.0, min(ts.lift_m, _ceiling(support) - box[5]))
        obs = yield from cartesian(self.name, obs, ctx, pad + lift, rot)
        obs = yield from cartesian(self.name, obs, ctx, pad + lift + back, rot)
        if not obs.holding(self.obj):
            raise self.fail(Reason.DROPPED, where="withdraw", height=round(obs.objects[self.obj].pos[2], 3))
        return (yield from to_carry(self, ctx, obs, rot))

    def _way_in(self, ctx: SkillContext, obs: Observation, support: Support | None) -> SkillGen:
        """(obs, :func:`entry_stance` of) the first way in that reaches: under a ceiling, an item that only aslant
        ways fit, or none, turned first (:meth:`_turn`); where still none fits, by its outline (:meth:`_by_outline`,
        before the aslant ways); on an open top, an item too deep in drawn to the edge first."""
        ts = tuning().side
        ceiling = support is not None and support.clearance is not None
        entries = None
        try:
            entries = self._entries(ctx, obs)
            if not (ceiling and all(e.aslant for e in entries) and self._can_turn(ctx, obs)):
                if self.turned and all(e.aslant for e in entries):
                    entries = [*self._by_outline(ctx, obs, support), *entries]
                    ctx.log("decision", skill=self.name, target=self.obj, choice="outline", after="aslant")
                return obs, entry_stance(self, ctx, obs, entries)
            after = "aslant"  # the hand, in past the side wall's front, stalled on it (v006's car 56 deg off)
        except SkillFailure as far:
            if not ceiling:  # the pushing hand, pointing down, needs the room of an open top
                if entries is None:  # no way in at all (no support under it: fallen; no side fits): it stands
                    raise
                normals = frozenset(e.edge.normal for e in entries)  # too deep in for the level hand
                ctx.log("decision", skill=self.name, target=self.obj, slide_to=sorted(normals), after=far.reason.value)
                obs = yield from PushToEdge(self.obj, overhang=ts.slide_over_m, normals=normals).body(ctx, obs)
                return obs, entry_stance(self, ctx, obs, self._entries(ctx, obs))
            if far.reason not in (Reason.UNSUPPORTED, Reason.UNREACHABLE):
                raise
            if not self._can_turn(ctx, obs):  # no box pinch fits: by the outline, where it narrows (a duck's head)
                outline = self._by_outline(ctx, obs, support)
                if not outline:
                    raise
                ctx.log("decision", skill=self.name, target=self.obj, choice="outline", after=far.reason.value)
                return obs, entry_stance(self, ctx, obs, outline)
            after = far.reason.value  # lengthwise along the edge
        ctx.log("decision", skill=self.name, target=self.obj, choice="turn", after=after)
        obs = yield from self._turn(ctx, obs, support)  # straight-in pushes at one end until a straight pinch fits
        return (yield from self._way_in(ctx, obs, support))

    def _can_turn(self, ctx: SkillContext, obs: Observation) -> bool:
        """Whether this pick has not turned its item yet and a turning push (:meth:`_turns`) applies."""
        return not self.turned and bool(self._turns(ctx, obs))

    def _fits_straight(self, ctx: SkillContext, obs: Observation) -> bool:
        """Whether a pinch within ``max_skew`` of straight in through an open edge fits the fingers and the hand
        passes the support's walled sides (:func:`_passes`)."""
        try:
            return any(not e.aslant for e in self._entries(ctx, obs))
        except SkillFailure:
            return False

    def _by_outline(self, ctx: SkillContext, obs: Observation, support: Support) -> list[Entry]:
        """:func:`outline_entries` of this pick's item where it lies."""
        asset, pose = ctx.scene.objects[self.obj].asset, obs.objects[self.obj]
        return outline_entries(asset, pose, support, open_edges(ctx.scene.house, support))

    def _turns(self, ctx: SkillContext, obs: Observation) -> list[Entry]:
        """The straight-in pushes (fingers closed) at the end farther in of an item no pinch within
        ``max_skew`` fits (it turns towards the edge's normal; the other end turned v015's car back), at
        either end, the one with more room to the support's sides first, of an item square to the edge; none
        where such a pinch fits or the fingers could not take it across its narrow side."""
        ts = tuning().side
        asset, pose = ctx.scene.objects[self.obj].asset, obs.objects[self.obj]
        support = support_of(ctx, obs, self.obj)
        fit = grip_height(asset.size[2], pinch_height(asset))
        if fit is None or min(asset.size[:2]) > tuning().grasp.max_width_m or self._fits_straight(ctx, obs):
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
                face = _face(c, rot, half, c + t * (lateral - c @ t), n)
                if room < 0 or face is None:
                    continue
                pad = np.array([*(face + n * (FINGER_HALF + ts.turn_pad_m)), support.height + dz])
                yaw = _straight(edge)
                entry = Entry(pad, hand_rot(yaw, pitch), _back(edge, pad, yaw, FINGER_HALF, True), edge)
                turns.append((room, entry))
        return [e for _, e in sorted(turns, key=lambda re: -re[0])]

    def _turn(self, ctx: SkillContext, obs: Observation, support: Support) -> SkillGen:
        """Up to ``turns`` strokes straight in at one end of the item (:meth:`_turns`), each ``turn_stroke_m``
        past its near face or less where its far side nears the support's far edge, the hand back out
        after each, until a straight pinch fits; ``UNSUPPORTED`` when none did."""
        ts = tuning().side
        asset, self.turned = ctx.scene.objects[self.obj].asset, True
        for stroke in range(ts.turns):
            entries = self._turns(ctx, obs)
            if not entries:
                break
            base, out, at, entry = entry_stance(self, ctx, obs, entries)
            a = -np.array([*entry.edge.normal, 0.0])
            far = max(float(np.array(p) @ a[:2]) for p in ((support.box[0], support.box[1]), support.box[2:]))
            room = far - float(np.max(_corners(asset, obs.objects[self.obj]) @ a[:2])) - ts.turn_keep_m
            if room < ts.turn_keep_m:  # its far side at the support's far edge: no stroke turns it more
                break
            push = ts.turn_over_m + min(ts.turn_stroke_m, room)
            yaw0, pad, rot = _yaw(obs.objects[self.obj]), entry.pad, entry.rot
            obs = yield from approach(self, ctx, obs, base)
            obs = yield from cartesian(self.name, obs, ctx, pad + entry.back, rot, fallback=out, gripper=CLOSED)
            obs = yield from cartesian(self.name, obs, ctx, pad, rot, fallback=at, gripper=CLOSED)
            obs = yield from cartesian(self.name, obs, ctx, pad + a * push, rot, step=ts.contact_step_m, gripper=CLOSED)
            obs = yield from cartesian(self.name, obs, ctx, pad + entry.back, rot, gripper=CLOSED)
            turned = round(math.degrees(wrap(_yaw(obs.objects[self.obj]) - yaw0)), 1)
            ctx.log("turn", skill=self.name, target=self.obj, stroke=stroke, push=round(push, 3), turned=turned)
        yaw, fits = round(_yaw(obs.objects[self.obj]), 2), self._fits_straight(ctx, obs)
        ctx.log("decision", skill=self.name, target=self.obj, turned_to=yaw, straight_pinch=fits)
        return obs

    def _true_up(self, ctx: SkillContext, obs: Observation, short: np.ndarray, rot: np.ndarray, gap: float):
        """Paused at ``short``, the arm stands off its target (1 cm measured; the fingers clear a tissue box
        by 7.5 mm a side): aim off by the measured offset until the pad is within ``align_tol_m`` of
        ``short``; where the IK misses the corrected aim, the aim stays (clear_shelf v013's car taken at its near
        face: the line in to ``short`` lost, its fallback 5 mm off, the IK missed the aim by 1.5 cm). Returns
        (obs, the aim's offset, kept for the last leg)."""
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


def _yaw(pose: ObjectState) -> float:
    """The world yaw of ``pose`` (its x axis)."""
    rot = rotation(pose.quat)
    return math.atan2(rot[1, 0], rot[0, 0])


def _face(c: np.ndarray, rot: np.ndarray, half: np.ndarray, p: np.ndarray, n: np.ndarray) -> np.ndarray | None:
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


class SidePlace(Place):
    """Put the object held by a level hand on ``support`` from an open side (under a ceiling, or not)."""

    def __init__(self, obj: str, support: Support, near: tuple[float, float] | None = None) -> None:
        super().__init__(obj, support=support, near=near)

    def postconditions(self, ctx: SkillContext):
        return [*super().postconditions(ctx), g.HandEmpty(predicate="hand_empty")]

    def _entries(self, ctx: SkillContext, obs: Observation) -> list[Entry]:
        """The ways in to a free spot through the support's open edges (``NO_SPACE`` when none)."""
        ts = tuning().side
        if not side_held(ctx, obs):
            raise self.fail(Reason.UNSUPPORTED, why="held from above")
        asset, held = ctx.scene.objects[self.obj].asset, obs.objects[self.obj]
        pad_now, rot_now = pad_pose(ctx, obs)
        box = np.array(world_box(held, asset))
        centre = (box[:3] + box[3:]) / 2
        yaw_now = math.atan2(rot_now[1, 0], rot_now[0, 0])
        obj_yaw = _yaw(held)
        near = np.asarray(self.near or obs.base[:2], float)
        bottom, top = self._room(ctx)
        ceiling = low_ceiling(self.support, asset.size[2])
        if bottom > top:
            raise self.fail(Reason.NO_SPACE, support=self.support.name, why="taller than the room under the ceiling")
        moving = moving_boxes(ctx, obs, skip=(self.obj,))
        entries = []
        for edge in open_edges(ctx.scene.house, self.support):
            n = np.array(edge.normal)
            yaw = _straight(edge)
            c, s = math.cos(yaw - yaw_now), math.sin(yaw - yaw_now)
            spin = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
            free = free_opening(edge, moving, self.support.height, top + asset.size[2]) if ceiling else self.support
            xmin, ymin, xmax, ymax = free.box
            toward = near if self.near or not ceiling else np.array([(xmin + xmax) / 2, (ymin + ymax) / 2])
            foot = toward + n * (edge.coord - toward @ n)  # under a ceiling: square to the free opening
            keep = 0.0 if ceiling else ts.open_keep_m
            half = [h + keep for h in footprint(asset.size, obj_yaw + yaw - yaw_now)]
            half[1 if n[0] else 0] = max(half[1 if n[0] else 0], ts.hand_half_m)  # the hand passes the side walls too
            at = spot(free, obs, ctx, self.obj, tuple(foot), tuple(half), entry=(edge.normal, edge.coord))
            if at is None:
                continue
            offset = spin @ (pad_now - centre)
            target = np.array([*at, bottom + (centre[2] - box[2])]) + offset
            a = np.array([math.cos(yaw), math.sin(yaw)])
            ahead = float(np.max((_corners(asset, held) - pad_now[:2]) @ spin[:2, :2].T @ a))
            entries.append(Entry(target, spin @ rot_now, _back(edge, target, yaw, ahead, ceiling), edge, ahead=ahead))
        if not entries:
            raise self.fail(Reason.NO_SPACE, support=self.support.name)
        return entries

    def _room(self, ctx: SkillContext) -> tuple[float, float]:
        """(release height of the object's bottom, the highest its bottom may go under the ceiling)."""
        return self.support.height + tuning().place.drop_m, _ceiling(self.support) - ctx.scene.objects[
            self.obj
        ].asset.size[2]

    def stance(self, ctx: SkillContext, obs: Observation) -> tuple[float, float, float]:
        """The base pose this place reaches in from (its body drives there first)."""
        return entry_stance(self, ctx, obs, self._entries(ctx, obs), skip=(self.obj,))[0]

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        ts = tuning().side
        base, out, at, entry = entry_stance(self, ctx, obs, self._entries(ctx, obs), skip=(self.obj,))
        target, rot, back = entry.pad, entry.rot, entry.back
        bottom, top = self._room(ctx)
        raise_ = UP * max(0.0, min(ts.raise_m, top - bottom))
        obs = yield from approach(self, ctx, obs, base, skip=(self.obj,), head_on=True)
        obs = yield from cartesian(self.name, obs, ctx, target + back + raise_, rot, fallback=out)
        if not obs.holding(self.obj):
            raise self.fail(Reason.DROPPED, where="approach", height=round(obs.objects[self.obj].pos[2], 3))
        obs = yield from cartesian(self.name, obs, ctx, target + raise_, rot, fallback=at)
        obs = yield from cartesian(self.name, obs, ctx, target, rot)
        obs = yield from hold(obs, ts.open_s, ctx, gripper=OPEN)
        obs = yield from cartesian(self.name, obs, ctx, target + back, rot, gripper=OPEN)
        return (yield from to_carry(self, ctx, obs, rot))
