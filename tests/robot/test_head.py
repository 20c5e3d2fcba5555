"""The head camera's geometry on the kinematic model: the aim puts a point at the image's centre, a point behind
the robot is out of the image, and the image's edges are where the field of view says."""

from __future__ import annotations

import math

import numpy as np
import pytest

from housebench.robot.fetch import BASE_JOINTS, HEAD_JOINTS, HOME, TORSO_JOINT
from housebench.robot.head import HeadCamera

SIZE = (160, 120)
BASE = (2.0, -1.0, 0.7)  # x, y, yaw


@pytest.fixture(scope="module")
def head() -> HeadCamera:
    return HeadCamera()


def _joints(**extra) -> dict[str, float]:
    return {**HOME, **dict(zip(BASE_JOINTS, BASE)), TORSO_JOINT: 0.2, **extra}


@pytest.mark.parametrize(
    "ahead, side, z", [(1.0, 0.0, 0.75), (0.6, 0.4, 0.0), (2.5, -1.5, 1.8), (0.5, -0.3, 0.9), (3.0, 2.0, 0.4)]
)
def test_the_aim_puts_the_point_at_the_image_centre(head, ahead, side, z):
    c, s = math.cos(BASE[2]), math.sin(BASE[2])
    point = (BASE[0] + c * ahead - s * side, BASE[1] + s * ahead + c * side, z)
    aimed = head.aim(_joints(), point)
    col, row = head.pixel(_joints(**aimed), point, SIZE)
    assert abs(col - SIZE[0] / 2) < 0.5 and abs(row - SIZE[1] / 2) < 0.5
    assert head.sees(_joints(**aimed), point, SIZE)


def test_a_point_behind_is_out_of_the_image_and_the_pan_stops_at_its_limit(head):
    c, s = math.cos(BASE[2]), math.sin(BASE[2])
    behind = (BASE[0] - 1.5 * c, BASE[1] - 1.5 * s, 0.8)
    assert head.pixel(_joints(), behind, SIZE) is None
    aimed = head.aim(_joints(), behind)
    assert abs(aimed[HEAD_JOINTS[0]]) == pytest.approx(head.range[HEAD_JOINTS[0]][1])
    assert not head.sees(_joints(**aimed), behind, SIZE)


def test_the_image_edges_follow_the_field_of_view(head):
    pos, rot = head.pose(_joints())
    axis, up = -rot[:, 2], rot[:, 1]
    half = head.fovy / 2
    for inside, angle in ((True, half - 0.01), (False, half + 0.01)):
        point = pos + 2.0 * (math.cos(angle) * axis + math.sin(angle) * up)
        assert head.sees(_joints(), point, SIZE) is inside
    assert np.allclose(head.pixel(_joints(), pos + 2.0 * axis, SIZE), (SIZE[0] / 2, SIZE[1] / 2))
