"""The hand, contact and body skills (stack, lower, regrasp, lay, upright; push, pull, sweep; tuck,
reset; switch): their geometry, and each verb's verification scenario run in contact physics by the skill
runtime, contracts measured on the simulated state (slow; on the small build of :mod:`tests.builtdata`)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from housebench.pipeline.verify import VerifyParams, run_scenario
from housebench.robot.kinematics import top_down
from housebench.skill_library.verification import load_scenarios
from housebench.skills.body import tuck_hits
from housebench.skills.contact import Shove, stroke_rot
from housebench.skills.lay import turned
from tests.builtdata import built

VERBS = ("stack", "lower", "regrasp", "lay", "upright", "push", "pull", "sweep", "switch", "tuck", "reset")


def test_turned_levels_or_raises_the_held_axis_about_the_closing_axis():
    rot = top_down(0.3)
    up_in_pad = rot.T @ np.array([0.0, 0.0, 1.0])  # held upright under a top-down hand
    level = np.cross(rot[:, 1], [0.0, 0.0, 1.0])
    new = turned(rot, up_in_pad, level / np.linalg.norm(level))
    assert np.allclose(new @ up_in_pad, level / np.linalg.norm(level), atol=1e-9)
    assert np.allclose(new[:, 1], rot[:, 1], atol=1e-9)  # the fingers keep their closing axis
    assert abs(new[2, 0]) < 1e-9  # the hand now points level
    back = turned(new, up_in_pad, np.array([0.0, 0.0, 1.0]))
    assert np.allclose(back, rot, atol=1e-9)


def test_stroke_fingers_point_down_and_close_across_the_stroke():
    d = np.array([math.cos(1.0), math.sin(1.0), 0.0])
    rot = stroke_rot(d)
    assert np.allclose(rot[:, 0], [0, 0, -1]) and abs(rot[:, 1] @ d) < 1e-12
    assert np.allclose(rot.T @ rot, np.eye(3), atol=1e-12) and np.linalg.det(rot) > 0
    with pytest.raises(ValueError, match="unknown verb"):
        Shove("kick", "apple", (0, 0, 0, 1, 1, 1))


def test_tuck_hits_a_box_only_where_a_link_reaches_it():
    points = np.array([[0.3, 0.4, 0.8]])
    table = (1.0, -1.0, 0.0, 2.0, 1.0, 0.75)
    assert tuck_hits(points, (0.65, 0.0, 0.0), [table]) == [0]  # the link 5 cm above and 5 cm short of the top
    assert tuck_hits(points, (0.0, 0.0, 0.0), [table]) == []
    assert tuck_hits(points, (1.0, 0.0, math.pi), [table]) == []  # turned round: the link points away


@pytest.mark.slow
@pytest.mark.parametrize("verb", VERBS)
def test_verification_scenario_passes_in_physics(verb):
    scenario = next(s for s in load_scenarios() if s.verb == verb)
    task, variant = scenario.scene.split("/")
    params = VerifyParams(seed=0, control_dt=0.1, horizon_s=150.0, attempts=1, verbs=[])
    row = run_scenario(scenario, built(task, variant), params)
    assert row["status"] == "passed", row["reason"]
    assert row["sim_s"] > 0.0  # it ran in simulated time
