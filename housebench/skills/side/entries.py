"""A way in (:class:`Entry`: the pad's target and rotation, the way back out, the edge), the first a stance reaches
(:func:`entry_stance`), and the entries that take an item by its outline (:func:`outline_entries`)."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from housebench.annotations.schema import AssetAnnotation, Support
from housebench.skills.base import Reason, Skill, SkillContext
from housebench.skills.edge import Edge
from housebench.skills.grasp import FINGER_HALF
from housebench.skills.outline import band
from housebench.skills.side.fit import PALM, TIP, hand_rot, reach_below
from housebench.skills.side.opening import back_offset, edge_stances, footprint_corners, passes_sides, straight_yaw
from housebench.skills.stance import stance_search
from housebench.skills.tuning import tuning
from housebench.state import ObjectState, Observation


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
    ``wrist_low_m`` deep in; the hand passes the walled sides (:func:`passes_sides`)."""
    ts = tuning().side
    corners = footprint_corners(asset, pose)
    levels = []  # (pad height, the item between the fingers, the item from the palm up): alike for every way in
    for dz in np.arange(reach_below(0.0), asset.size[2] - TIP[1] - ts.level_top_m, ts.level_step_m):
        fingers = band(asset, pose, dz + TIP[1], dz - TIP[1])
        if len(fingers):
            levels.append((dz, fingers, band(asset, pose, dz + PALM[1], math.inf)))
    scored = []
    for edge, skew in itertools.product(open_, ts.outline_skews):
        yaw = straight_yaw(edge) + skew
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
            if not passes_sides(edge, open_, pad, yaw):
                continue
            height = min(dz - TIP[1], asset.size[2]) - max(dz + TIP[1], 0.0)  # of the item between the fingers
            back = back_offset(edge, pad, yaw, float(np.max(corners @ a)) - reach, True)
            scored.append(
                (-min(hold, 2 * FINGER_HALF) * height, abs(skew), Entry(pad, hand_rot(yaw, 0.0), back, edge, width))
            )
    return [e for _, _, e in sorted(scored, key=lambda s: s[:2])]


def entry_stance(skill: Skill, ctx: SkillContext, obs: Observation, entries: list[Entry], skip: tuple[str, ...] = ()):
    """(base pose, joints at the pre-pose, joints at the target, the entry) of the first entry the IK
    reaches from a stance facing its edge, or ``UNREACHABLE``; the arm at the pre-pose and the target runs into
    no open door's leaf (a leaf gives way to the arm: run into across the opening, it swings shut)."""
    for entry in entries:
        poses = edge_stances(entry.edge, entry.pad, entry.ahead)
        clear_of = (skill.target(), *skip) if entry.aslant else None
        found = stance_search(
            ctx, obs, [(entry.pad, [entry.rot])], entry.back, skip, poses, clear_of=clear_of, leaves=True
        )
        if found is not None:
            base, (out, at, _, _) = found
            ctx.log("stance", skill=skill.name, target=skill.target(), grasp="side", base=[round(v, 3) for v in base])
            return base, out, at, entry
    raise skill.fail(Reason.UNREACHABLE, at=[round(float(v), 3) for v in entries[0].pad], ways=len(entries))
