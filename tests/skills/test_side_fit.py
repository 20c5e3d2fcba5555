"""Which level pinches fit an item through a support's open edge: the fingers across a box's narrow side
turned up to a few degrees off square (its extent across them measured), within the skew from straight
in; and (slow, contact physics on the built scenes of ``dvc repro annotate``) the side pick of a toy car
on a bookcase level turned 37 deg off straight in, refused before (no side square to the fingers fitted)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from housebench.annotations.schema import AssetAnnotation, Support
from housebench.skills.base import Reason, SkillContext
from housebench.skills.edge import Edge, edges
from housebench.skills.side.fit import grip_height, grip_tips, level_ways, pinch_yaws
from housebench.skills.side.opening import passes_sides
from housebench.skills.side.pick import SidePick
from housebench.skills.side.turn import face_exit
from housebench.skills.tuning import tuning
from housebench.skills.view import wrap
from housebench.state import ObjectState
from tests.conftest import built_episode, built_job, run_skill

SIDE = tuning().side  # the defaults

CAR = AssetAnnotation(name="car", category="toy", size=(0.1, 0.06, 0.049), mass=0.08)
LEVEL = Support(name="shelf/level", owner="shelf", height=0.8, box=(0.0, 0.0, 0.34, 0.86), clearance=0.38)
FRONT = Edge(LEVEL, (1.0, 0.0), 0.34)  # the open side faces +x: straight in is yaw pi


def car_at(yaw: float) -> ObjectState:
    return ObjectState(pos=(0.2, 0.4, 0.8), quat=(math.cos(yaw / 2), 0.0, 0.0, math.sin(yaw / 2)))


def across(yaw: float, car_yaw: float) -> float:
    """The car's box extent across fingers that approach along ``yaw``."""
    d = np.array([-math.sin(yaw), math.cos(yaw)])
    x, y = np.array([math.cos(car_yaw), math.sin(car_yaw)]), np.array([-math.sin(car_yaw), math.cos(car_yaw)])
    return 0.1 * abs(d @ x) + 0.06 * abs(d @ y)


def test_a_car_square_to_the_edge_is_taken_straight_in_across_its_narrow_side():
    ways = pinch_yaws(CAR, car_at(0.0), FRONT, SIDE.max_skew)
    assert ways[0][1] == pytest.approx(0.06) and abs(wrap(ways[0][0] - math.pi)) < 1e-9


def test_a_car_turned_past_the_skew_is_taken_a_few_degrees_off_its_narrow_side():
    car_yaw = math.pi + SIDE.max_skew + math.radians(10)  # its narrow side square to an approach 45 deg off straight
    ways = pinch_yaws(CAR, car_at(car_yaw), FRONT, SIDE.max_skew)
    assert ways, "no pinch"
    for yaw, width in ways:
        assert abs(wrap(yaw - math.pi)) <= SIDE.max_skew + 1e-9
        assert width == pytest.approx(across(yaw, car_yaw), abs=1e-6) and width <= tuning().grasp.max_width_m
    assert ways[0][1] == min(w for _, w in ways)  # the widest margin first


def test_a_carton_under_a_ceiling_is_taken_straight_in_first_and_square_to_its_faces_once_its_corners_measured():
    milk = AssetAnnotation(name="milk", category="milk", size=(0.07, 0.07, 0.225), mass=1.05)
    turned = car_at(math.radians(20))  # 20 deg off square: straight in, the fingers close across its corners
    first = pinch_yaws(milk, turned, FRONT, SIDE.max_skew, ceiling=True)
    assert abs(wrap(first[0][0] - math.pi)) < 1e-9 and first[0][1] == 0.07  # taken as round: straight in
    square = pinch_yaws(milk, turned, FRONT, SIDE.max_skew, ceiling=True, square=True)
    assert square and all(width != 0.07 or abs(wrap(yaw - math.pi)) > 1e-9 for yaw, width in square)
    assert min(abs(wrap(yaw - math.pi - math.radians(20))) for yaw, _ in square) < math.radians(1.5)  # square to a face
    assert square[0][1] == pytest.approx(0.07, abs=1e-3)  # the narrowest first: across its faces


def test_a_car_lengthwise_across_the_opening_offers_no_level_pinch():
    assert pinch_yaws(CAR, car_at(math.pi / 2), FRONT, SIDE.max_skew) == []


@pytest.mark.slow
def test_side_pick_takes_a_car_turned_off_square_from_a_bookcase_level():
    job = built_job("clear_shelf", "v007", "noop", horizon_s=200.0)  # the car at 143 deg: 37 deg off straight in
    episode = job.open()
    obs = episode.reset(0)
    ctx = SkillContext(task=episode.task, scene=episode.scene, control_dt=0.1, initial=obs.state)
    start = obs.objects["car"].pos
    failure, obs = run_skill(episode, ctx, obs, SidePick("car"))
    assert failure is None, failure
    assert all("car" in obs.finger_contacts[f] for f in ("left", "right"))  # held by contact
    assert obs.objects["car"].pos[2] > start[2] + 0.2  # out of the shelf, in the carry pose


def test_a_car_lengthwise_along_the_edge_is_taken_aslant_after_every_straighter_way():
    ways = level_ways(CAR, car_at(math.pi / 2 - math.radians(30)), [FRONT], ceiling=True)  # 60 deg off straight in
    assert ways and all(aslant for _, _, _, aslant in ways)
    for edge, yaw, width, _ in ways:
        assert edge is FRONT and SIDE.max_skew < abs(wrap(yaw - math.pi)) <= SIDE.wide_skew + 1e-9
        assert width <= tuning().grasp.max_width_m
    square = level_ways(CAR, car_at(0.0), [FRONT], ceiling=True)
    assert not square[0][3]  # straight in first
    assert not level_ways(CAR, car_at(math.pi / 2), [FRONT], ceiling=False)  # no aslant way without a ceiling


@pytest.mark.slow
def test_side_pick_takes_a_duck_turned_past_the_skew_aslant():
    episode, ctx, obs = built_episode("clear_shelf", "v004", horizon_s=200.0)  # the duck 46 deg off straight in
    start = obs.objects["duck"].pos
    failure, obs = run_skill(episode, ctx, obs, SidePick("duck"))
    assert failure is None, failure
    assert all("duck" in obs.finger_contacts[f] for f in ("left", "right"))  # held by contact
    assert obs.objects["duck"].pos[2] > start[2] + 0.2


def test_a_turning_push_meets_the_near_face_of_a_footprint_at_its_end():
    """The line along the edge's normal through a point 3.5 cm along a car turned 30 deg off the edge
    leaves its footprint where the face nearest the edge is; a line beside it misses it."""
    yaw = math.radians(120)
    rot = np.array([[math.cos(yaw), -math.sin(yaw)], [math.sin(yaw), math.cos(yaw)]])
    c, half, n = np.array([0.2, 0.4]), np.array([0.05, 0.03]), np.array([1.0, 0.0])
    end = c + rot[:, 0] * 0.035
    face = face_exit(c, rot, half, np.array([c[0], end[1]]), n)
    local = rot.T @ (face - c)
    assert face[1] == pytest.approx(end[1])
    assert max(abs(local[0]) - half[0], abs(local[1]) - half[1]) == pytest.approx(0.0, abs=1e-9)
    assert face[0] > end[0]
    assert face_exit(c, rot, half, np.array([c[0], c[1] + 0.1]), n) is None


def test_a_hand_skewed_towards_a_side_wall_passes_only_well_clear_of_it():
    """Walled sides (only the front edge open): clear_shelf's car 35 deg off straight, its pad 12 cm from the
    side and 13 cm in, stalled the gripper on the side's front; straight in, or skewed away, it passes."""
    pad = np.array([0.21, 0.12, 0.83])
    towards, away = (
        math.pi - SIDE.max_skew,
        math.pi + SIDE.max_skew,
    )  # the hand comes from the low-y side wall / from the middle
    assert not passes_sides(FRONT, [FRONT], pad, towards)
    assert passes_sides(FRONT, [FRONT], pad, math.pi) and passes_sides(FRONT, [FRONT], pad, away)
    assert not passes_sides(FRONT, [FRONT], np.array([0.21, 0.05, 0.83]), math.pi)  # the hand's side in the wall
    assert passes_sides(FRONT, edges(LEVEL), pad, towards)  # no wall at an open side


def test_a_side_pick_of_an_item_on_no_support_fails_unsupported_not_with_a_crash():
    # restock_fridge v009 (rollout seed 0): the dropped juice stood on no support; the re-pick's ways in were
    # never computed and the open-top branch read them (UnboundLocalError, 9 episodes crashed)
    episode, ctx, obs = built_episode("restock_fridge", "v000", horizon_s=5.0)
    nowhere = ObjectState(pos=(-5.0, -5.0, 0.5), quat=(1.0, 0.0, 0.0, 0.0))  # outside the house: under it no support
    lost = dataclasses.replace(obs, objects={**obs.objects, "juice": nowhere})
    failure, _ = run_skill(episode, ctx, lost, SidePick("juice"))
    assert failure is not None and failure.reason == Reason.UNSUPPORTED


def test_a_round_item_under_a_ceiling_may_also_be_taken_turned_off_straight_and_tipped_lower():
    # heat_breakfast_combo v005: the oatmeal on fridge/bottom by the hinge: no level stance reached its pad
    # (0.116 m), and the open door stood over every stance square to it
    oatmeal = AssetAnnotation(name="oatmeal", category="food", size=(0.086, 0.086, 0.076), mass=0.4)
    ways = level_ways(oatmeal, car_at(0.0), [FRONT], ceiling=True)
    turned = [(yaw, aslant) for _, yaw, width, aslant in ways if abs(wrap(yaw - math.pi)) > 0.1]
    assert {round(abs(math.degrees(wrap(yaw - math.pi)))) for yaw, _ in turned} >= {15, 30, 45, 60}
    assert all(aslant == (abs(wrap(yaw - math.pi)) > SIDE.max_skew) for yaw, aslant in turned)
    assert abs(wrap(ways[0][1] - math.pi)) < 1e-9  # straight in first
    open_top = level_ways(oatmeal, car_at(0.0), [FRONT], ceiling=False)
    assert all(abs(wrap(yaw - math.pi)) <= math.pi / 4 + 1e-9 for _, yaw, _, _ in open_top)  # no such turns there
    tips = grip_tips(oatmeal.size[2])
    assert tips[0] == grip_height(oatmeal.size[2]) and [p for p, _ in tips] == sorted(p for p, _ in tips)
    assert max(p for p, _ in tips) > max(SIDE.pitches)  # tipped past the level hand's own pitches
