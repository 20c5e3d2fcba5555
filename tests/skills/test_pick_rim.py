"""A rim pinch of a bowl with an apple in it, in contact physics (slow: needs the built scenes of
``dvc repro annotate``). Fully open, the inner finger lands on the apple and the arm stalls above the
rim; opened to the wall's width plus a margin, the fingers take the rim and the apple stays in. The
fingers lean by the wall's flare, so the bowl hangs with its far side up (straight, it hung 18 deg far
side down and slid out of the pinch), and the place that follows keeps that lean."""

from __future__ import annotations

import math

import numpy as np
import pytest

from housebench.skill_library.executors import Wait
from housebench.skills.base import SkillContext
from housebench.skills.pick import Pick
from housebench.skills.place import Place
from housebench.skills.view import pad_pose
from housebench.tasks import goal as g
from housebench.tasks.geometry import rotation
from tests.conftest import built_job, run_skill

TASK, VARIANT = "bring_fruit_bowl", "v000"


@pytest.mark.slow
def test_rim_pinch_takes_a_bowl_with_fruit_in_it():
    job = built_job(TASK, VARIANT, "noop", horizon_s=300.0)
    episode = job.open()
    obs = episode.reset(0)
    ctx = SkillContext(task=episode.task, scene=episode.scene, control_dt=0.1, initial=obs.state)
    failure, obs = run_skill(episode, ctx, obs, Pick("bowl"))
    assert failure is None, failure
    assert all("bowl" in obs.finger_contacts[f] for f in ("left", "right"))  # held by contact
    inside = ctx.judge([g.Inside(predicate="inside", items=["apple"], container="bowl")], obs.state)
    assert inside.success, inside
    pad, hand = pad_pose(ctx, obs)
    bowl = obs.objects["bowl"]
    inwards = np.asarray(bowl.pos[:2]) - pad[:2]
    up = rotation(bowl.quat)[:, 2]
    assert 0.0 < -math.degrees(math.asin(up[:2] @ inwards / np.linalg.norm(inwards))) < 15.0  # far side up
    table = next(s for s in ctx.scene.house.supports if s.name == "coffee_table/top")
    _, (rot,) = Place("bowl", support=table)._options(ctx, obs)[0]
    assert np.allclose(rot, hand)  # set down with the lean it is carried with
    failure, obs = run_skill(episode, ctx, obs, Wait(100.0))
    assert failure is None and obs.holding("bowl")
    assert ctx.judge([g.Inside(predicate="inside", items=["apple"], container="bowl")], obs.state).success
