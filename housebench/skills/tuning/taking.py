"""The tuning of taking and setting down: the top-down pick and its stance search, the grasps, place, the hand's
regrasps, press, knob, the pose in front of an appliance."""

from __future__ import annotations

import math

from pydantic import Field

from housebench.params import Section


class PickTuning(Section):
    """``skills.pick``: the top-down pick, its stance search and the carry pose (``skills/pick.py``,
    ``skills/stance.py``, ``skills/carry.py``)."""

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
    inside_above_m: float = Field(0.1, ge=0)  # an item across a cavity this far over its rim is in it (on another), m
    open_s: float = Field(0.8, ge=0)  # the fingers are opened for this long at the release, s
    release_lift_m: float = Field(0.08, ge=0)  # ``release`` lifts the open hand this far, m
    release_speed: float = Field(0.5, gt=0)  # ... at this joint speed, rad/s


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
    """``skills.hand``: stack, lower, regrasp, lay and upright (``skills/hand.py``, ``skills/lay.py``)."""

    regrasp_timeout_s: float = Field(240.0, gt=0)  # sim seconds a regrasp may take, s
    stack_timeout_s: float = Field(120.0, gt=0)  # ... a stack, s
    lay_timeout_s: float = Field(120.0, gt=0)  # ... a lay, s
    upright_timeout_s: float = Field(240.0, gt=0)  # ... an upright, s
    contact_m: float = Field(0.004, ge=0)  # a set-down bottom this far over the surface (the fingers hold it), m
    side_drop_m: float = Field(0.02, ge=0)  # a laid object's lowest side this far over the surface at release, m
    sink_m: float = Field(0.03, ge=0)  # how far under a surface a lying object's box corners may reach, m
    draw_m: float = Field(0.1, ge=0)  # the open hand draws back this far along its pointing axis before it rises, m
    open_s: float = Field(0.8, ge=0)  # the fingers are opened for this long at a release, s


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
