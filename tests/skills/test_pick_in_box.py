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
