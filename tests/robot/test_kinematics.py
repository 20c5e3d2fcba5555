"""mink IK on the kinematic model: the grasp frame reaches table-height grasps from above."""

from __future__ import annotations

import math

import numpy as np

from housebench.robot import fetch
from housebench.robot.kinematics import FetchIK, top_down


def test_top_down_grasp_at_table_height_and_fk_agree():
    ik = FetchIK()
    start = fetch.home_qpos((1.0, 2.0, 0.5))
    target = np.array([1.0 + 0.6 * math.cos(0.5), 2.0 + 0.6 * math.sin(0.5), 0.8])
    result = ik.solve(start, target, top_down(0.5 + math.pi / 2))
    assert result.ok(), (result.pos_err, result.rot_err)
    pos, rot = ik.fk(result.joints)
    assert np.linalg.norm(pos - target) < 0.004
    assert rot[2, 0] < -0.99  # the approach axis points down
    assert all(abs(result.joints[j] - start[j]) < 1e-9 for j in fetch.BASE_JOINTS)  # the base stays put


def test_out_of_reach_is_reported_not_faked():
    ik = FetchIK()
    result = ik.solve(fetch.home_qpos((0.0, 0.0, 0.0)), (1.6, 0.0, 0.8), top_down(math.pi / 2))
    assert not result.ok() and result.pos_err > 0.3
