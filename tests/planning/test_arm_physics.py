"""Arm motion round the house in contact physics (slow: needs the built scenes of ``dvc repro annotate``),
on toys_off_floor v000, whose duck pick stalled before (``pick:stalled``, 3 tries).

The toy car lies on the floor by the dresser. The straight
joint motion from the carry pose to its pre-grasp sweeps the upper arm through the dresser top, and the
straight carry motion with the car held sweeps the car and the wrist through the wall behind (the planning
model finds both); the RRT-Connect paths go round, and in physics the arm touches neither while the base
stands at the stance (driving there with the arm in the carry pose, the forearm brushes a wall: a base-path
matter, not an arm motion).
"""

from __future__ import annotations

import math

import pytest

from housebench.robot.fetch import PREFIX
from housebench.skills.base import SkillContext
from housebench.skills.drive import Stepper, tried
from housebench.skills.grasp import UP, grasps
from housebench.skills.motion import arm_clear
from housebench.skills.pick import Pick
from housebench.skills.stance import stance_search, top_down_option
from housebench.skills.tuning import tuning
from tests.conftest import built_job


def arm_geoms(model) -> set[int]:
    root = model.body(f"{PREFIX}shoulder_pan_link").id
    below = set()
    for body in range(model.nbody):
        b = body
        while b > 0 and b != root:
            b = int(model.body_parentid[b])
        if b == root:
            below.add(body)
    return {g for g in range(model.ngeom) if int(model.geom_bodyid[g]) in below}


def _logging_context(episode, obs):
    """A skill context whose events are kept in the returned list."""
    logged = []

    def log(kind, **detail):
        logged.append((kind, detail))

    return SkillContext(task=episode.task, scene=episode.scene, control_dt=0.1, initial=obs.state, log=log), logged


def _pick_touching(episode, ctx, obs, logged, obj):
    """Run ``Pick(obj)``; the bodies other than the arm that the arm touched while at the pick's stance."""
    model, data = episode.sim.model, episode.sim.data
    arm = arm_geoms(model)
    touched = set()
    runner = Stepper(tried(Pick(obj), ctx, obs))
    while (action := runner.step(obs)) is not None and not episode.done:
        obs = episode.step(action)
        stance = next(d["base"] for kind, d in logged if kind == "stance")
        if math.dist(obs.base[:2], stance[:2]) > 0.02:
            continue
        for g1, g2 in data.contact.geom[: data.ncon].tolist():
            for mine, other in ((g1, g2), (g2, g1)):
                if mine in arm and other not in arm:
                    touched.add(model.body(int(model.geom_bodyid[other])).name)
    return runner, obs, touched


@pytest.mark.slow
def test_pick_goes_round_the_dresser_and_the_wall_it_used_to_hit():
    job = built_job("toys_off_floor", "v000", "noop", horizon_s=120.0)
    episode = job.open()
    obs = episode.reset(0)
    ctx, logged = _logging_context(episode, obs)
    runner, obs, touched = _pick_touching(episode, ctx, obs, logged, "car")
    assert runner.done and runner.result[0] is None, runner.result
    assert all("car" in obs.finger_contacts[f] for f in ("left", "right"))  # held, in the carry pose
    plans = [d for kind, d in logged if kind == "arm_plan"]
    hits = [h for plan in plans for h in plan["hit"]]
    assert any(h.startswith("dresser/top") for h in hits), plans  # the straight motions would hit these
    assert any(h.startswith("walls/") and "held:car" in h for h in hits), plans
    assert all(plan["states"] >= 3 for plan in plans), plans  # and went round them
    assert not touched & {"House/dresser", "House/walls"}, touched
    assert touched <= {"car", "House/floor"}, touched  # the fingers on what they grasp, on the floor beside it


@pytest.mark.slow
def test_the_duck_pick_that_stalled_takes_a_stance_whose_arm_keeps_clear():
    """From the start of toys_off_floor v000 the duck's first reaching stance (the IK alone) puts the arm
    into the house at the grasp (the planning model says so; executed, the arm stalls: ``pick:stalled``);
    the search with the clearance check takes another, and the pick succeeds without the arm touching the
    house there."""
    job = built_job("toys_off_floor", "v000", "noop", horizon_s=120.0)
    episode = job.open()
    obs = episode.reset(0)
    ctx, logged = _logging_context(episode, obs)
    options = [top_down_option(o.pad, o.yaws) for o in grasps(ctx.scene.objects["duck"].asset, obs.objects["duck"])]
    _, (above, at, _, _) = stance_search(ctx, obs, options, UP * tuning().pick.approach_m)
    assert not (arm_clear(ctx, obs, above, ("duck",)) and arm_clear(ctx, obs, at, ("duck",), touch=True))
    runner, obs, touched = _pick_touching(episode, ctx, obs, logged, "duck")
    assert runner.done and runner.result[0] is None, runner.result
    assert touched <= {"duck", "House/floor"}, touched
