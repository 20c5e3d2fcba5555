"""The tuning of moving the robot: every skill's time budget, driving, the arm's motions, tuck and reset, pushing
by contact, doors and drawers."""

from __future__ import annotations

from pydantic import Field

from housebench.params import Section


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
    """``skills.motion``: arm and base motions every skill is built from (``skills/motion.py``, ``skills/legs.py``)."""

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


class ArticulateTuning(Section):
    """``skills.articulate``: open and close doors and drawers (``skills/articulate.py``, ``skills/door.py``)."""

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
