"""The tuning of the level hand: flat items at an edge and side grasps under a ceiling."""

from __future__ import annotations

import math

from pydantic import Field

from housebench.params import Section


class EdgeTuning(Section):
    """``skills.edge``: flat items drawn over an edge, pinched there and set down at an edge (``skills/edge.py``,
    ``skills/flat_push.py``, ``skills/flat_pinch.py``)."""

    push_timeout_s: float = Field(90.0, gt=0)  # sim seconds a push to the edge may take, s
    pinch_timeout_s: float = Field(90.0, gt=0)  # ... a pick of the overhang, s
    place_timeout_s: float = Field(120.0, gt=0)  # ... a place (or stack) at an edge, s
    overhang_m: float = Field(0.06, ge=0)  # how far a pushed item sticks out over the edge, m
    tip_off_m: float = Field(0.006, ge=0)  # pinching fingertips stay this far outside the support's edge, m
    push_tip_m: float = -0.004  # pushing fingertips aimed this far over the surface (negative: into it; it stops
    # them, the arm sags ~1 cm), m
    push_depth_m: float = Field(0.04, ge=0)  # ... at most this far under the item's top (the palm stays over it), m
    push_gap_m: float = Field(0.04, ge=0)  # ... and this far behind the item (a full-reach arm falls ~2 cm short), m
    push_room_m: float = Field(0.025, ge=0)  # ... where the support reaches that far behind it, less this, m
    min_gap_m: float = Field(0.01, ge=0)  # ... and at least this, m
    stand_m: tuple[float, ...] = (0.25, 0.35, 0.45, 0.55, 0.65)  # base distances from the edge tried for a push, m
    pinch_stand_m: tuple[float, ...] = (0.55, 0.65, 0.75, 0.45, 0.85)  # ... for the pinch, m
    shifts_m: tuple[float, ...] = (0.0, -0.15, 0.15, -0.3, 0.3)  # ... and along the edge, m
    pinch_turns: tuple[float, ...] = (0.0, -0.3, -0.5, 0.3, 0.5)  # the base's turns off square for the pinch, rad
    strokes: int = Field(4, ge=1)  # pushes of one item from one stance at most
    tilts: tuple[float, ...] = (0.3, 0.6)  # the pushing fingers lean back this far, tried in turn, rad
    descent_m: float = Field(0.15, ge=0)  # the pinch's hand comes down to its pre-pose from this far above it, m
    stack_in_m: float = Field(0.02, ge=0)  # a stacked item's centre lands this far inside the footprint under it, m
    place_in_m: float = Field(0.015, ge=0)  # an item set down at an edge has its centre this far inside, m
    pair_in_m: float = Field(0.01, ge=0)  # ... the two stacked items' centre of mass this far inside the surface, m
    push_reach_m: float = Field(1.0, gt=0)  # a push's stance search: the base this near the pad at most, m
    centre_in_m: float = Field(0.02, ge=0)  # a pushed item's centre stays this far inside the edge, m
    lift_m: float = Field(0.02, ge=0)  # the arm is checked against the house this far above a stroke's start, m
    slack_m: float = Field(0.025, ge=0)  # a push ends this much short of its overhang and is still done, m
    support_probe_m: float = Field(0.01, ge=0)  # an item's support is found this far over its box's bottom, m
    above_m: float = Field(0.1, ge=0)  # the hand comes down onto, and leaves, a stroke or a spot from this high, m
    out_m: float = Field(0.1, ge=0)  # the pinch's pre-pose, and its way out, this far out along the edge, m
    done_m: float = Field(0.015, ge=0)  # an item this near its overhang needs no further stroke, m
    moved_m: float = Field(0.005, ge=0)  # ... nor one that the last stroke moved less than this, m
    stroke_parts: tuple[float, ...] = (1.0, 0.7, 0.4)  # of a stroke tried, where the IK loses the full line
    stroke_over_m: float = Field(0.01, ge=0)  # a stroke goes this far past the item's travel and gap, m
    stroke_step_m: float = Field(0.01, gt=0)  # the hand's straight-line step along a stroke, m
    fit_step_m: float = Field(0.02, gt=0)  # a stroke's line is checked with the IK every this far, m
    pinch_overhang_m: float = Field(0.03, ge=0)  # an item sticking out this far over an edge can be pinched, m
    pinch_lift_m: float = Field(0.08, ge=0)  # the pinch lifts the item this far, m
    set_over_m: float = Field(0.01, ge=0)  # an item set down at an edge is released this far over the surface, m
    open_s: float = Field(0.8, ge=0)  # the fingers are opened for this long at the release, s
    spots_from: float = Field(0.15, ge=0, le=1)  # spots along an edge from this fraction of its span ...
    spots_to: float = Field(0.85, ge=0, le=1)  # ... to this one ...
    spots: int = Field(8, ge=1)  # ... this many
    other_height_m: float = Field(0.3, gt=0)  # other objects this near the support's height keep their room, m
    clear_m: float = Field(0.02, ge=0)  # a spot keeps this more than both footprint radii off another object, m


class SideTuning(Section):
    """``skills.side``: pick and place with the hand level, under a ceiling or from an open side
    (``skills/side/``)."""

    hand_room_m: float = Field(0.45, ge=0)  # free height a top-down pick or place needs over the object, m
    hand_half_m: float = Field(0.075, ge=0)  # half the hand's width across the closing axis (0.063) and a margin, m
    palm_back_m: float = Field(0.027, ge=0)  # the pad keeps an object's near face this far ahead of it, m
    pitches: tuple[float, ...] = (0.0, 0.2, 0.35)  # the level hand may tip its fingers down this far, least first, rad
    low_tips: tuple[float, ...] = (0.5,)  # ... this much more where no stance reaches the pinch at its own pitch, rad
    level_margin: float = Field(0.2, ge=0)  # a hand within the largest tip and this much counts as level, rad
    clear_m: float = Field(0.006, ge=0)  # the hand's lowest point stays this far over the surface, m
    grip_at: float = Field(0.4, ge=0, le=1)  # an item with no annotated pinch is taken this far up its height
    top_keep_m: float = Field(0.03, ge=0)  # a side pinch stays this far under an item's top, m
    top_room_m: float = Field(0.01, ge=0)  # ... and its pad this far under the top at least, m
    raised_m: float = Field(0.005, ge=0)  # a pinch raised more than this over the height it wants goes in less, m
    slim: float = Field(2.0, gt=0)  # an item taller than this many times its width is pinched low on its body
    corners_m: float = Field(0.012, ge=0)  # the fingers closing wider than a round item by this: its corners, m
    max_skew: float = Field(math.radians(35), ge=0)  # under a ceiling the approach turns at most this far, rad
    wide_skew: float = Field(math.radians(65), ge=0)  # ... or this far where no way within ``max_skew`` reaches, rad
    open_skew: float = Field(math.pi / 4, ge=0)  # ... and on an open top this far, rad
    round_turns: tuple[float, ...] = tuple(math.radians(d) for d in (15, 30, 45, 60))  # a round item under a
    # ceiling, after straight in, is taken this far turned, rad
    min_cos: float = Field(0.3, gt=0)  # the way back from a skewed approach is as long as straight in at this cos
    square_cos: float = Field(0.05, ge=0)  # an approach this near parallel to the edge has no way in (cos)
    wall_band_m: float = Field(0.05, ge=0)  # walls count between this over the surface and this under the ceiling, m
    wall_inside_m: float = Field(0.01, ge=0)  # a wall box covers an edge reaching this far inside it ...
    wall_outside_m: float = Field(0.03, ge=0)  # ... or starting this far outside it, m
    out_m: float = Field(0.1, ge=0)  # pre-grasp: fingertips and held object this far outside the edge, m
    short_m: float = Field(0.02, ge=0)  # the pad pauses with the fingertips this far short of the near face, m
    settle_s: float = Field(0.8, ge=0)  # ... held there, s
    align_tol_m: float = Field(0.003, ge=0)  # ... until the pad is this near its pause point, m
    true_up: int = Field(3, ge=0)  # corrections of the aim at most
    contact_step_m: float = Field(0.01, gt=0)  # the hand's straight-line step on the last leg in, m
    lift_m: float = Field(0.02, ge=0)  # lift after closing (the ceiling is near), m
    raise_m: float = Field(0.02, ge=0)  # a held object goes in this much over its release height, m
    pass_m: float = Field(0.15, ge=0)  # how far out from an edge the hand and the object pass on the way in, m
    room_m: float = Field(0.02, ge=0)  # what the hand and the object keep from the ceiling, m
    stand_m: tuple[float, ...] = (0.5, 0.6, 0.7, 0.8, 0.9)  # base distances from the edge tried, m
    shifts_m: tuple[float, ...] = (0.0, -0.15, 0.15, -0.3, 0.3, -0.45, 0.45)  # ... and along it, m
    near_stand_m: tuple[float, ...] = (0.48, 0.5, 0.525, 0.55)  # beside an open door, as near as the arm lets, m
    near_shifts_m: tuple[float, ...] = tuple(s * k for k in range(14, 25) for s in (-0.025, 0.025))  # ... 0.35-0.6
    # m along, either side, m
    slide_over_m: float = -0.1  # an item too deep in is drawn until its face is this far outside the edge
    # (negative: inside), m
    reach_m: float = Field(0.85, gt=0)  # no base farther than this from the pad, m
    turn_end_m: float = Field(0.015, ge=0)  # a lengthwise item is pushed this far in from its end to turn it, m
    turn_stroke_m: float = Field(0.04, ge=0)  # the fingertips go in past its near face per stroke, m
    turn_over_m: float = Field(0.01, ge=0)  # ... and this much more, m
    turn_pad_m: float = Field(0.01, ge=0)  # the pushing pad starts this much more out than a fingertip, m
    turn_keep_m: float = Field(0.01, ge=0)  # a stroke stops this near the support's far edge, m
    turn_wall_m: float = Field(0.06, ge=0)  # the pushing pad keeps this far inside the support's sides, m
    turns: int = Field(6, ge=0)  # turning strokes at most
    turn_even: float = Field(0.05, ge=0)  # |cos| of the long axis to the normal under which either end is pushed
    hold_m: float = Field(0.025, ge=0)  # a pinch by an item's outline closes on this much of it at least, m
    outline_skews: tuple[float, ...] = tuple(math.radians(d) for d in (0, -15, 15, -30, 30))  # ... turned this far
    # off straight in, rad
    outline_upright: float = Field(math.cos(math.radians(10)), ge=-1, le=1)  # an item tilted further (cos) has no
    # level sections to pinch by
    level_step_m: float = Field(0.005, gt=0)  # pad heights of an outline pinch tried every this far, m
    level_top_m: float = Field(0.01, ge=0)  # ... up to this far under the fingertip at the item's top, m
    deep_m: float = Field(0.15, ge=0)  # a level pad more than this in from the edge stays ``wrist_low_m`` up, m
    wrist_low_m: float = Field(0.062, ge=0)  # ... over the surface (the wrist clears a lip), m
    open_keep_m: float = Field(0.04, ge=0)  # on an open top the object keeps this more off the edges, m
    open_s: float = Field(0.8, ge=0)  # the fingers are opened for this long at the release, s
