"""The skills' tuning numbers as typed config: one frozen, strict model per skill family, defaults in code.

Every number a skill is tuned by (a height, a margin, a speed, a list of distances tried, a time budget) is a
documented field of its family's model below; what stays inline in ``skills/`` is trivially geometric (0, 1, 2,
halves), an index, or listed with its reason in ``tests/skills/literals_allowed.txt`` (robot facts such as the
gripper's dimensions, numerical epsilons, a cache's size), which ``tests/skills/test_literals.py`` checks.

An episode runs under one :class:`SkillTuning`: ``params.yaml``'s ``skills:`` section holds only what differs from
the defaults (strict: an unknown key is a one-line error naming it; a key left out keeps its default), the rollout
passes it down with each job (``EpisodeJob.skills``), the episode's events echo it (its ``episode_start`` event's
``skills``: the whole tuning's hash and the overrides) and the episode cache keys on it. A skill reads the tuning of
the episode it runs in with :func:`tuning`; the episode loop sets it for the whole episode with :func:`using` (a
context variable: the policy's own calls into ``skills/`` see it too, and nothing outlives the episode); the
verification stage runs its scenarios under it too. Elsewhere (tests, the demos stage's jobs, component starts
outside a rollout) the defaults hold.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from pydantic import Field

from housebench.params import PARAMS, Section, load_section, sections

SECTION = "skills"


class BaseTuning(Section):
    """``skills.base``: what every skill shares (``skills/base.py``)."""

    timeout_s: float = Field(60.0, gt=0)  # sim seconds a skill that sets no time budget of its own may take, s


class NavigateTuning(Section):
    """``skills.navigate``: driving the base (``skills/navigate.py``)."""

    timeout_s: float = Field(90.0, gt=0)  # sim seconds a navigate may take before it fails ``timeout``, s
    open_part: float = Field(0.05, ge=0)  # a door or drawer further than this from closed is an obstacle, rad or m
    arm_top_m: float = Field(1.6, gt=0)  # top of the band kept clear for the carry arm (its wrist ~1.45 m up), m
    at_goal_m: float = Field(0.02, ge=0)  # a start this near the goal drives straight there (no path search), m
    arrive_near_m: float = Field(0.05, ge=0)  # ``arrive`` this near its pose: one plain navigate, no turn-last leg, m


class PickTuning(Section):
    """``skills.pick``: the top-down pick, its stance search and the carry pose (``skills/pick.py``)."""

    timeout_s: float = Field(120.0, gt=0)  # sim seconds a pick may take, s
    carry_timeout_s: float = Field(20.0, gt=0)  # sim seconds the ``carry`` skill (arm to the carry pose) may take, s
    approach_m: float = Field(0.12, ge=0)  # pre-grasp height above the grasp (and a place's first pre-height), m
    lift_m: float = Field(0.15, ge=0)  # lift after closing, m
    carry: tuple[float, float, float] = (0.3, 0.0, 1.15)  # pad position in the base frame while carrying, m
    lead_ins_m: tuple[float, ...] = (0.35, 0.25, 0.15)  # last leg into a stance driven straight in: the longest
    # of these whose start is on the free floor (the first: a base nearer than it drives no lead-in), m
    leans: tuple[float, ...] = (0.15, 0.3)  # hand lean away from the base tried where no upright grasp is clear, rad
    rim_tips_m: float = Field(0.03, ge=0)  # out of a container, the pre-grasp's fingertips this far above its rim, m
    reach_m: float = Field(0.85, gt=0)  # stance search: no base farther than this from the pad, m
    near_cells_m: float = Field(0.45, gt=0)  # a stance's cell must reach free floor this near (IK-reachable band), m
    options_tried: int = Field(2, ge=1)  # stance search: nearest grasp options tried per base pose
    rotations_tried: int = Field(2, ge=1)  # ... and hand rotations per option, least lateral first
    ik_iters: int = Field(80, ge=1)  # IK iterations for the pre-grasp and the grasp
    carry_ik_iters: int = Field(100, ge=1)  # IK iterations for the carry pose
    folded_speed: float = Field(0.5, gt=0)  # joint speed out of a folded arm into the carry pose, rad/s
    at_stance_m: float = Field(0.02, ge=0)  # a base this near its stance does not drive, m
    at_stance_rad: float = Field(0.03, ge=0)  # ... and this near its heading, rad
    at_carry_m: float = Field(0.03, ge=0)  # a pad this near the carry pose is in it, m
    close_s: float = Field(1.0, ge=0)  # the fingers closing on the item are held this long, s
    reopen_s: float = Field(0.5, ge=0)  # after a miss, the fingers are opened for this long, s


class PlaceTuning(Section):
    """``skills.place``: set the held object down from above, and ``release`` (``skills/place.py``)."""

    timeout_s: float = Field(120.0, gt=0)  # sim seconds a place may take, s
    release_timeout_s: float = Field(15.0, gt=0)  # sim seconds a ``release`` may take, s
    drop_m: float = Field(0.015, ge=0)  # release height of the object's bottom over a surface, m
    rim_clear_m: float = Field(0.02, ge=0)  # ... over a container's rim, m
    big_m: float = Field(0.12, gt=0)  # objects wider than this (footprint radius) are never turned on the way, m
    leaning: float = Field(0.1, ge=0)  # a hand pointing further off straight down carries with its lean kept, rad
    lower_pre_heights_m: tuple[float, ...] = (0.06, 0.02)  # the hand comes in over its release point from
    # ``pick.approach_m``, else the highest of these a stance reaches (a bottle held by its top over a basket), m
    edge_m: float = Field(0.07, ge=0)  # a spot's centre keeps this (+ half the object) off the support's edges, m
    fit_m: float = Field(0.01, ge=0)  # a footprint fits the support with this much to spare on each side, m
    grid: int = Field(25, ge=2)  # candidate spots per side of the support's grid
    other_height_m: float = Field(0.3, gt=0)  # other objects this near the support's height keep their room, m
    clear_m: float = Field(0.02, ge=0)  # a spot keeps this more than both footprint radii off another object, m
    open_s: float = Field(0.8, ge=0)  # the fingers are opened for this long at the release, s
    release_lift_m: float = Field(0.08, ge=0)  # ``release`` lifts the open hand this far, m
    release_speed: float = Field(0.5, gt=0)  # ... at this joint speed, rad/s


class PressTuning(Section):
    """``skills.press``: push a button past its travel (``skills/press.py``)."""

    timeout_s: float = Field(90.0, gt=0)  # sim seconds a press may take, s
    standoff_m: float = Field(0.04, ge=0)  # fingertips this far off the face before pushing, m
    overtravel_m: float = Field(0.006, ge=0)  # pushed this far past the button's travel, m
    pre_m: float = Field(0.06, ge=0)  # the pre-pose and the retreat, this far out along the face normal, m
    points: int = Field(6, ge=2)  # points of the push from the standoff in (the first is the standoff), count
    step_m: float = Field(0.01, gt=0)  # the hand's straight-line step along the push, m
    settle_s: float = Field(0.3, ge=0)  # held at the deepest point before the retreat, s
    done_fraction: float = Field(0.5, gt=0, le=1)  # of the travel measured at the deepest that counts as pressed


class KnobTuning(Section):
    """``skills.knob``: turn a knob (``switch``, ``skills/knob.py``)."""

    timeout_s: float = Field(90.0, gt=0)  # sim seconds a switch may take, s
    depth_m: float = Field(0.02, ge=0)  # fingertips this far into the key from its front face, m
    back_m: float = Field(0.08, ge=0)  # the pre-pose and the retreat, this far out along the face normal, m
    overturn: float = Field(0.15, ge=0)  # turned this far past the knob's travel, rad
    steps: int = Field(6, ge=1)  # the turn is commanded in this many steps, the knob measured after each
    on_axis_m: float = Field(0.01, ge=0)  # the pad must lie this near the knob's axis (else unsupported), m
    close_s: float = Field(0.8, ge=0)  # the fingers close on the key for this long, s
    settle_s: float = Field(0.3, ge=0)  # held closed after the last step, s
    open_s: float = Field(0.6, ge=0)  # the fingers open for this long before the retreat, s
    done_fraction: float = Field(0.5, gt=0, le=1)  # of the travel measured at the deepest that counts as turned


class FrontTuning(Section):
    """``skills.front``: the pose in front of an appliance's opening (``skills/front.py``)."""

    front_m: float = Field(0.8, gt=0)  # the base stands this far out from the opening, m
    lead_clear_m: float = Field(0.45, ge=0)  # a carry goes first to that pose when it keeps this off the open door, m


class BodyTuning(Section):
    """``skills.body``: ``tuck`` and ``reset`` (``skills/body.py``)."""

    timeout_s: float = Field(60.0, gt=0)  # sim seconds a tuck or reset may take, s
    link_radius_m: float = Field(0.07, ge=0)  # a folding arm link's reach round its origin, checked against boxes, m
    samples: int = Field(8, ge=2)  # joint configurations tested along each leg of the fold
    shifts_m: tuple[float, ...] = (0.1, 0.2, 0.3, 0.4, 0.5)  # base moves tried, nearest first, for room to tuck, m
    headings: int = Field(12, ge=1)  # directions tried at each shift (straight back first)
    head_s: float = Field(1.0, ge=0)  # ``reset``: the head is driven home this long before it is waited on, s
    head_tol: float = Field(0.03, ge=0)  # ... and waited on until this near home, rad
    head_max_s: float = Field(30.0, ge=0)  # ... for at most this long, s


class ContactTuning(Section):
    """``skills.contact``: push, pull and sweep an object by contact (``skills/contact.py``)."""

    timeout_s: float = Field(90.0, gt=0)  # sim seconds a push, pull or sweep may take, s
    tip_m: float = Field(0.008, ge=0)  # fingertips this far above the support, m
    gap_m: float = Field(0.03, ge=0)  # the fingers start this far behind the object's box, m
    leg_m: float = Field(0.03, gt=0)  # the hand moves this far between two measurements, m
    tol_m: float = Field(0.015, ge=0)  # the stroke ends this close (along it) to the zone's centre, m
    overrun_m: float = Field(0.08, ge=0)  # the hand may go this far past where the object should have been, m
    raise_m: float = Field(0.1, ge=0)  # the hand comes down onto, and leaves, the stroke from this far above it, m
    spread: tuple[float, ...] = (0.0, 0.35, -0.35, 0.7, -0.7)  # bearings tried round the verb's own, rad
    distances_m: tuple[float, ...] = (0.6, 0.7, 0.5, 0.8, 0.9)  # base to the object's centre tried, in turn, m
    ik_iters: int = Field(80, ge=1)  # IK iterations for the pose over the stroke's start
    step_m: float = Field(0.01, gt=0)  # the hand's straight-line step along the stroke, m
    rest_s: float = Field(0.5, ge=0)  # held at the end for a rolling object to come to rest, s


class MotionTuning(Section):
    """``skills.motion``: arm and base motions every skill is built from (``skills/motion.py``)."""

    joint_speed: float = Field(0.8, gt=0)  # fastest joint along an arm motion, rad/s (m/s for the torso)
    end_held_speed: float = Field(0.4, gt=0)  # ... while the hand holds a flat item by its end, rad/s
    line_speed: float = Field(0.5, gt=0)  # ... along a straight line of the grasp frame, rad/s
    base_speed: float = Field(0.4, gt=0)  # base along a leg, m/s
    yaw_speed: float = Field(0.8, gt=0)  # base turning on the spot, rad/s
    end_held_yaw_speed: float = Field(0.3, gt=0)  # ... with a flat item held by its end (0.8 flung a book), rad/s
    ramp_s: float = Field(1.0, ge=0)  # a base motion's speed is ramped up and down over this long, s
    tucked_tol: float = Field(0.05, ge=0)  # every arm joint this near the tuck counts as tucked, rad (m)
    lies_in_below_m: float = Field(0.02, ge=0)  # an item's origin this far under a cavity's floor still lies in it, m
    settle_tol: float = Field(0.02, ge=0)  # an arm motion ends when every joint is this near its target, rad (m)
    settle_max_s: float = Field(3.0, ge=0)  # ... waited on for at most this long (else ``stalled``), s
    line_step_m: float = Field(0.03, gt=0)  # a straight line of the grasp frame is solved every this far, m
    line_turn_step: float = Field(0.3, gt=0)  # ... and every this much of its turn, rad
    ik_pos_tol_m: float = Field(0.01, ge=0)  # an IK solution on the line is good this near in position, m
    ik_rot_tol: float = Field(0.08, ge=0)  # ... and in orientation, rad
    ready_pad: tuple[float, float, float] = (0.6, 0.0, 1.0)  # the IK seed's pad, in the base frame, m
    turn_step: float = Field(0.1, gt=0)  # a turn's arm sweep is checked every this much heading, rad
    leg_step_m: float = Field(0.1, gt=0)  # a leg's arm sweep is checked every this far, m
    min_turn: float = Field(0.02, ge=0)  # a turn smaller than this is not turned (nor checked), rad
    at_goal_m: float = Field(0.02, ge=0)  # a drive ends with the base this near its goal, m
    at_goal_rad: float = Field(0.03, ge=0)  # ... and this near its heading, rad
    settle_base_s: float = Field(3.0, ge=0)  # ... waited on for at most this long (else ``stalled``), s


class GraspTuning(Section):
    """``skills.grasp``: which grasps from above an item offers, and where (``skills/grasp.py``)."""

    tip_clearance_m: float = Field(0.003, ge=0)  # fingertips stay this far above the support, m
    thin_m: float = Field(0.02, ge=0)  # an item thinner than this is pinched with the tips ``thin_tip_m`` off it, m
    thin_tip_m: float = Field(0.0005, ge=0)  # ... that far off the support, m
    max_width_m: float = Field(0.09, gt=0)  # widest object the fingers take (0.1 m opening less clearance), m
    top_margin_m: float = Field(0.04, ge=0)  # a tall object is pinched this far below its top, m
    tall_margins: float = Field(3, gt=0)  # ... tall: over this many top margins (else at half its height)
    rim_depth_m: float = Field(0.035, ge=0)  # the fingertips reach this far down a container's wall, m
    rim_depth_slack_m: float = Field(0.02, ge=0)  # ... less this (the rim pinch's pad height), m
    rim_side_tol_m: float = Field(0.01, ge=0)  # rim points this much farther out than the nearest are not used, m
    tilted: float = Field(0.87, ge=-1, le=1)  # cos of the tilt past which an item is taken as fallen (cos 30 deg)
    round_m: float = Field(0.005, ge=0)  # an item this close to square in its footprint is taken as round, m
    wall_clear_m: float = Field(0.015, ge=0)  # in a box, the hand keeps this far off the nearest wall, m
    flared: float = Field(math.radians(25.0), ge=0)  # a round container's wall flaring more is leant along, rad
    tilt: float = Field(0.35, ge=0)  # a pinch in a box tilts the hand this far where the pad alone cannot keep
    # the palm off the wall (the palm's lower edge and the fingertip then reach least across), rad
    finger_clear_m: float = Field(0.008, ge=0)  # each open finger passes at least this far off the item, m
    open_margin_m: float = Field(0.03, ge=0)  # the fingers open this much wider than what they take, m


class HandTuning(Section):
    """``skills.hand``: stack, lower, regrasp, lay and upright (``skills/hand.py``)."""

    regrasp_timeout_s: float = Field(240.0, gt=0)  # sim seconds a regrasp may take, s
    stack_timeout_s: float = Field(120.0, gt=0)  # ... a stack, s
    lay_timeout_s: float = Field(120.0, gt=0)  # ... a lay, s
    upright_timeout_s: float = Field(240.0, gt=0)  # ... an upright, s
    contact_m: float = Field(0.004, ge=0)  # a set-down bottom this far over the surface (the fingers hold it), m
    side_drop_m: float = Field(0.02, ge=0)  # a laid object's lowest side this far over the surface at release, m
    sink_m: float = Field(0.03, ge=0)  # how far under a surface a lying object's box corners may reach, m
    draw_m: float = Field(0.1, ge=0)  # the open hand draws back this far along its pointing axis before it rises, m
    open_s: float = Field(0.8, ge=0)  # the fingers are opened for this long at a release, s


class ArticulateTuning(Section):
    """``skills.articulate``: open and close doors and drawers (``skills/articulate.py``)."""

    timeout_s: float = Field(150.0, gt=0)  # sim seconds an open or close may take, s
    handle_out_m: float = Field(0.008, ge=0)  # the pad centre this far out of the handle bar's centre, m
    tip_gap_m: float = Field(0.012, ge=0)  # pushing fingertips this far off the face before the sweep, m
    press_in_m: float = Field(0.015, ge=0)  # ... and this far into it along the sweep (the door lags the hand), m
    back_off_m: float = Field(0.10, ge=0)  # pre-contact distance along the face normal, m
    far_m: float = Field(0.25, ge=0)  # a push first brings the hand this far off the face, m
    arc_step: float = Field(0.08, gt=0)  # between IK waypoints along an arc, rad
    open_fraction: float = Field(0.8, gt=0, le=1)  # of the way to ``open`` that counts as open
    closed_tol: float = Field(0.05, ge=0)  # this near closed ends a close, rad or m
    close_past: float = Field(0.05, ge=0)  # a close sweeps this far past closed, rad
    stalled: float = Field(0.03, ge=0)  # a sweep after the first that moves the part less than this ends it, rad
    min_sweep: float = Field(0.25, gt=0)  # a stance must cover this much of the arc to be used, rad
    sweep_speed: float = Field(0.35, gt=0)  # the fastest arm joint along a sweep, rad/s
    base_clear_m: float = Field(0.36, ge=0)  # the base centre keeps this off the door's swept path, m
    stance_rings_m: tuple[float, ...] = (0.55, 0.65, 0.75, 0.85, 0.95)  # stance rings round the arc's middle, m
    stance_span: float = Field(1.1, gt=0)  # stances ring the contact's path over this much of the arc, rad
    stances_tried: int = Field(80, ge=1)  # accepted stances tried per pass at most
    rounds: int = Field(4, ge=1)  # sweeps per skill at most
    push_side_inner_m: float = Field(0.4, ge=0)  # a push stance stands this far out on the inner side (elbow too), m
    push_side_outer_m: float = Field(0.1, ge=0)  # ... on the outer side, m
    push_short: float = Field(0.15, ge=0)  # an opening push aims this far short of ``open``, rad
    edge_in_m: float = Field(0.035, ge=0)  # pushing fingertips this far in from the door's free edge, m
    arm_spare_m: float = Field(0.1, ge=0)  # more room round the carry arm a push stance keeps off the door, m
    turns: tuple[float, ...] = (0.0, 0.6, -0.6, 1.2, -1.2)  # a push stance's turns from facing the contact, rad
    outside_m: float = Field(0.3, ge=0)  # a handle pull keeps the base this far out on the door's outer side, m
    near_cells_m: float = Field(0.45, gt=0)  # a stance's cell must reach free floor this near, m
    ik_iters: int = Field(80, ge=1)  # IK iterations per waypoint
    contact_step_m: float = Field(0.01, gt=0)  # the hand's straight-line step onto the handle or face, m
    close_s: float = Field(1.0, ge=0)  # the fingers close on a handle for this long, s
    open_s: float = Field(0.6, ge=0)  # the fingers open off a handle for this long, s
    push_band_m: float = Field(0.04, ge=0)  # a push's band below the handle keeps this off the door's bottom and
    # the handle, m
    push_top_m: float = Field(0.03, ge=0)  # ... the band above it this off the handle and the door's top, m
    push_over_m: float = Field(0.08, ge=0)  # on a tall door the push goes at most this far over the handle, m
    swept_segments: int = Field(12, ge=2)  # a pulled door's swept path is checked at this many values
    path_points: int = Field(50, ge=2)  # points along a segment checked against the carry arm's footprint
    drawer_out_m: float = Field(0.02, ge=0)  # a drawer is pulled this far past ``open``, m
    drawer_in_m: float = Field(0.01, ge=0)  # ... pushed this far past closed, m


class EdgeTuning(Section):
    """``skills.edge``: flat items drawn over an edge, pinched there and set down at an edge (``skills/edge.py``)."""

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
    (``skills/side.py``)."""

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


class SkillTuning(Section):
    """``skills:`` of params.yaml: every skill family's tuning (only what differs from the defaults is written)."""

    base: BaseTuning = BaseTuning()
    navigate: NavigateTuning = NavigateTuning()
    pick: PickTuning = PickTuning()
    place: PlaceTuning = PlaceTuning()
    press: PressTuning = PressTuning()
    knob: KnobTuning = KnobTuning()
    front: FrontTuning = FrontTuning()
    body: BodyTuning = BodyTuning()
    contact: ContactTuning = ContactTuning()
    motion: MotionTuning = MotionTuning()
    grasp: GraspTuning = GraspTuning()
    hand: HandTuning = HandTuning()
    articulate: ArticulateTuning = ArticulateTuning()
    edge: EdgeTuning = EdgeTuning()
    side: SideTuning = SideTuning()


DEFAULT = SkillTuning()
_ACTIVE: ContextVar[SkillTuning] = ContextVar("skill_tuning", default=DEFAULT)


def tuning() -> SkillTuning:
    """The tuning of the episode running now (the defaults outside one)."""
    return _ACTIVE.get()


@contextmanager
def using(config: SkillTuning) -> Iterator[SkillTuning]:
    """Run the enclosed code (an episode) under ``config``; the previous tuning is back afterwards."""
    token = _ACTIVE.set(config)
    try:
        yield config
    finally:
        _ACTIVE.reset(token)


def overrides(config: SkillTuning) -> dict[str, Any]:
    """What ``config`` sets apart from the defaults, as plain JSON (nested by family)."""
    return config.model_dump(mode="json", exclude_defaults=True)


def config_hash(config: SkillTuning) -> str:
    """A short content hash of the whole tuning (defaults included): two episodes with equal hashes ran equal
    tuning."""
    text = json.dumps(config.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def from_overrides(data: dict[str, Any] | None) -> SkillTuning:
    """The tuning that ``data`` (a ``skills:`` mapping: overrides only) describes; strict (ValueError)."""
    return SkillTuning.model_validate(data or {})


def load_tuning(path: Path = PARAMS) -> dict[str, Any]:
    """``skills:`` of ``path`` validated (strict: an unknown key is a one-line error naming it; a key left out keeps
    its default; no section at all: the defaults), as the plain overrides an episode job carries."""
    if SECTION not in sections(path):
        return {}
    return overrides(load_section(SECTION, SkillTuning, path, complete=False))
