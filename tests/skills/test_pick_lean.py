"""A top pinch next to a wall: where the upright hand's wrist meets the wall, the hand leans away from the
base about its fingers' axis (geometry), and in contact physics the apple at the back of the side table on
the living room's east wall (sort_items v009, 8 cm from the wall), which the stance search refused before
(the forearm and wrist 1.5 cm into the wall from every stance), is picked (slow: needs the built scenes)."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from housebench.robot.kinematics import top_down
from housebench.skills.pick import Pick
from housebench.skills.stance import leaned
from tests.conftest import built_episode, run_skill


@pytest.mark.parametrize("finger_yaw", [math.pi / 2, -math.pi / 2, math.pi / 2 + 0.5, 2.0])
def test_the_leaned_hand_tips_away_from_the_base_with_its_fingers_level(finger_yaw):
    pose, target = (0.0, 0.0, 0.0), np.array([0.7, 0.2, 0.6])
    rot = leaned(top_down(finger_yaw), pose, target, 0.3)
    np.testing.assert_allclose(rot @ rot.T, np.eye(3), atol=1e-12)
    np.testing.assert_allclose(rot[:, 1], top_down(finger_yaw)[:, 1], atol=1e-12)  # fingers as they were: level
    approach = rot[:, 0]
    assert approach[2] == pytest.approx(-math.cos(0.3))  # 0.3 rad off straight down
    assert approach[:2] @ (target[:2] - pose[:2]) > 0  # tipped away from the base: the wrist comes back


@pytest.mark.slow
def test_pick_takes_the_apple_by_the_wall_with_a_leaned_hand():
    episode, ctx, obs = built_episode("sort_items", "v009", horizon_s=60.0)
    stances = []
    ctx = replace(ctx, log=lambda kind, **detail: stances.append(detail) if kind == "stance" else None)
    failure, obs = run_skill(episode, ctx, obs, Pick("apple"))
    assert failure is None, failure
    assert stances[0]["lean"] > 0  # no upright grasp was clear
    assert obs.holding("apple")
    assert obs.objects["apple"].pos[2] > 0.55 + 0.1  # lifted off the side table
