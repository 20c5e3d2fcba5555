"""Top pinches of an item lying in a box near its wall: the fingers close along the wall, the pad shifted
off it within the item's extent (geometry), and in contact physics the pick of the foam cube 7 mm from
the toy box's wall in empty_basket v000 (slow: needs the built scenes of ``dvc repro annotate``), which
the stance search refused before (the hand, wider than the fingers, met the wall)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from housebench.annotations.schema import AssetAnnotation, ContainerProfile, GraspPrimitive
from housebench.skills.grasp import HAND_HALF, PAD_HALF, grasps, in_box
from housebench.skills.pick import Pick
from housebench.skills.tuning import tuning
from housebench.state import ObjectState
from tests.conftest import built_episode, run_skill

CUBE = AssetAnnotation(
    name="cube",
    category="toy",
    size=(0.06, 0.06, 0.06),
    mass=0.05,
    grasps=[GraspPrimitive(kind="top_pinch", point=(0.0, 0.0, 0.04), axis=(1.0, 0.0, 0.0), width=0.06)],
)
BOX = AssetAnnotation(
    name="box",
    category="container",
    size=(0.36, 0.26, 0.2),
    mass=0.5,
    container=ContainerProfile(shape="rect", inner_half_extents=(0.168, 0.118), floor_z=0.01, rim_z=0.2),
)
BOX_AT = ObjectState(pos=(1.0, 2.0, 0.75), quat=(math.cos(0.3), 0.0, 0.0, math.sin(0.3)))  # yaw 0.6 rad


def yaw_quat(yaw: float) -> tuple[float, float, float, float]:
    return (math.cos(yaw / 2), 0.0, 0.0, math.sin(yaw / 2))


def in_box_frame(local: tuple[float, float], yaw: float) -> ObjectState:
    c, s = math.cos(0.6), math.sin(0.6)
    x, y = local
    return ObjectState(pos=(1.0 + c * x - s * y, 2.0 + s * x + c * y, 0.76), quat=yaw_quat(0.6 + yaw))


def along(yaw: float, direction: float) -> float:
    """Angle between a closing direction and a line (both taken modulo pi)."""
    return abs((yaw - direction + math.pi / 2) % math.pi - math.pi / 2)


def test_near_a_wall_the_fingers_close_along_it_and_the_pad_moves_off_it():
    pose = in_box_frame((0.08, -0.073), yaw=0.4)  # 45 mm from the -y wall to the cube's middle, turned 23 deg
    (plain,) = grasps(CUBE, pose)
    boxed = in_box(plain, CUBE, pose, BOX, BOX_AT)
    assert all(along(yaw, 0.6) > 0.3 for yaw in plain.yaws)  # the cube's own faces: across the wall-ish
    assert boxed.yaws and all(along(yaw, 0.6) < 1e-9 for yaw in boxed.yaws)  # along the wall (the box's x)
    rot_t = np.array([[math.cos(0.6), math.sin(0.6)], [-math.sin(0.6), math.cos(0.6)]])
    gap_before = 0.118 + (rot_t @ (plain.pad[:2] - BOX_AT.pos[:2]))[1]
    gap_after = 0.118 + (rot_t @ (boxed.pad[:2] - BOX_AT.pos[:2]))[1]
    shift = gap_after - gap_before
    assert shift > 0.01  # off the wall, by what the hand needs or the pads allow
    assert shift <= CUBE.size[0] / 2 - PAD_HALF + 1e-9  # the finger pads stay on the cube
    assert gap_after >= min(HAND_HALF + 0.015, gap_before + CUBE.size[0] / 2 - PAD_HALF) - 1e-9
    assert boxed.pad[2] == pytest.approx(plain.pad[2])
    assert boxed.opening <= 0.1


def test_away_from_the_walls_or_outside_the_box_the_grasp_is_as_it_was():
    for pose in (in_box_frame((0.0, 0.0), yaw=0.4), ObjectState(pos=(3.0, 2.0, 0.76), quat=yaw_quat(0.4))):
        (plain,) = grasps(CUBE, pose)
        assert in_box(plain, CUBE, pose, BOX, BOX_AT) is plain


@pytest.mark.slow
def test_pick_takes_the_cube_next_to_the_toy_box_wall():
    episode, ctx, obs = built_episode("empty_basket", "v000", horizon_s=120.0)
    failure, obs = run_skill(episode, ctx, obs, Pick("cube"))
    assert failure is None, failure
    assert all("cube" in obs.finger_contacts[f] for f in ("left", "right"))  # held by contact
    assert obs.objects["cube"].pos[2] > 0.95 + 0.05  # lifted out over the box's rim


BLOCK = CUBE.model_copy(update={"name": "block", "size": (0.04, 0.04, 0.04)})


def test_in_a_corner_the_pad_moves_along_the_fingers_off_the_end_wall_and_they_open_wider():
    pose = in_box_frame((-0.133, 0.055), yaw=0.77)  # 35 mm from the -x wall, 63 mm from the +y wall, turned 44 deg
    (plain,) = grasps(BLOCK, pose)
    boxed = in_box(plain, BLOCK, pose, BOX, BOX_AT)
    assert all(along(yaw, 0.6 + math.pi / 2) < 1e-9 for yaw in boxed.yaws)  # along the -x wall (the box's y)
    rot_t = np.array([[math.cos(0.6), math.sin(0.6)], [-math.sin(0.6), math.cos(0.6)]])
    before, after = (rot_t @ (g.pad[:2] - BOX_AT.pos[:2]) for g in (plain, boxed))
    slide = before[1] - after[1]
    assert slide > 0.005  # off the +y wall, along the fingers
    width = 0.04 * (abs(math.cos(0.77)) + abs(math.sin(0.77)))
    assert (
        boxed.opening / 2 >= slide + width / 2 + tuning().grasp.finger_clear_m - 1e-9
    )  # the far finger still clears the block
    assert boxed.opening <= 0.1 + 1e-9


def test_where_the_pad_cannot_move_far_enough_off_the_wall_the_palm_leans_off_it():
    pose = in_box_frame((0.0, -0.083), yaw=0.0)  # 35 mm from the -y wall: the pads may move 6.5 mm
    (plain,) = grasps(BLOCK, pose)
    boxed = in_box(plain, BLOCK, pose, BOX, BOX_AT)
    assert boxed.tilt == tuning().grasp.tilt
    wall_normal = np.array([-math.sin(0.6), math.cos(0.6)])  # the box's +y: away from the -y wall
    for rot in boxed.rotations():
        assert along(math.atan2(rot[1, 1], rot[0, 1]), 0.6) < 1e-9  # the fingers still close along the wall
        palm = -rot[:, 0]  # up the hand from the pad
        assert palm[:2] @ wall_normal == pytest.approx(math.sin(tuning().grasp.tilt))  # leaning off the wall
        assert palm[2] == pytest.approx(math.cos(tuning().grasp.tilt))
    farther = in_box_frame((0.0, -0.06), yaw=0.0)  # 58 mm: the pad alone keeps the upright palm off the wall
    assert in_box(grasps(BLOCK, farther)[0], BLOCK, farther, BOX, BOX_AT).tilt == 0.0


@pytest.mark.slow
def test_pick_takes_the_block_from_a_corner_of_the_toy_box():
    episode, ctx, obs = built_episode("empty_basket", "v016", horizon_s=120.0)  # 51 and 63 mm from two walls
    failure, obs = run_skill(episode, ctx, obs, Pick("block"))
    assert failure is None, failure
    assert all("block" in obs.finger_contacts[f] for f in ("left", "right"))  # held by contact
    assert obs.objects["block"].pos[2] > 0.95 + 0.05  # lifted out over the box's rim


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["v004", "v011"])
def test_pick_takes_the_block_out_of_the_deep_toy_box(variant):
    """v004: the descent, done by the torso, brought the upper arm onto the rim (stalled); v011: the
    pre-grasp 12 cm over the block stood inside the box, the open fingers within the margin of its wall
    (every stance refused). Now the pre-grasp stands over the rim, only the gripper nears the walls and the
    torso stays still in the descent."""
    episode, ctx, obs = built_episode("empty_basket", variant, horizon_s=120.0)
    failure, obs = run_skill(episode, ctx, obs, Pick("block"))
    assert failure is None, failure
    assert obs.holding("block")
    assert obs.objects["block"].pos[2] > 0.95  # out over the rim (0.95 m)
