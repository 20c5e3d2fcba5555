"""An open door's leaf gives way to the arm (it swings shut, no joint stalls), so the skills keep the arm off it by
geometry: a side pick's stance whose arm at the pre-pose or the target runs into the leaf is not taken, and the base's
roomy paths keep the carry arm's room off it as off the house's boxes. Fast checks on the small build's fridge (the
observation's door set open, as the scripted Open leaves it); slow: a procedural house's fridge pick in physics."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from housebench.skills.base import SkillContext
from housebench.skills.navigate import ARM_SIDE, part_box, planner
from housebench.skills.side.entries import entry_stance
from housebench.skills.side.opening import edge_stances
from housebench.skills.side.pick import SidePick
from housebench.skills.stance import leaves_clear, stance_search
from tests.skills.test_side import _episode, _fridge_open

LEAF = "fridge/door"


def _hinge_half(obs):
    """``obs`` with the fridge door open as the scripted Open leaves it and the oatmeal on shelf_2 in the door's
    hinge half (the leaf at 1.27 rad leans over it)."""
    oatmeal = obs.objects["oatmeal"]
    obs = _fridge_open(obs)
    return dataclasses.replace(
        obs, objects={**obs.objects, "oatmeal": oatmeal.model_copy(update={"pos": (0.416, 3.2, 0.9)})}
    )


def test_a_side_picks_arm_runs_into_no_open_doors_leaf_at_the_pre_pose_or_the_target():
    episode, obs, ctx = _episode("heat_breakfast", "v000")
    obs = _hinge_half(obs)
    pick = SidePick("oatmeal")
    entries = pick.entries(ctx, obs)
    _, out, at, _ = entry_stance(pick, ctx, obs, entries)
    assert leaves_clear(ctx, obs, out, at)
    before = next(  # the first stance of the search without the rule
        found
        for e in entries
        if (found := stance_search(ctx, obs, [(e.pad, [e.rot])], e.back, (), edge_stances(e.edge, e.pad)))
    )
    assert not leaves_clear(ctx, obs, before[1][0])  # its arm at the pre-pose ran into the leaf


def test_a_roomy_path_keeps_the_carry_arms_room_off_an_open_leaf():
    episode, obs, ctx = _episode("heat_breakfast", "v000")
    part = next(p for p in ctx.scene.house.articulated if p.name == LEAF)
    box = part_box(part, 1.27)
    beside = (box[3] + ARM_SIDE / 2, (box[1] + box[4]) / 2)  # half the arm's reach out from the leaf's free end
    shut, open_ = planner(ctx, obs), planner(ctx, _fridge_open(obs))
    assert shut.keep is None and shut.grid.lookup(shut.room, *beside)  # the house alone leaves room there
    assert not open_.grid.lookup(open_.keep, *beside)  # kept off even within the 0.5 m round a goal
    far = (box[3] + ARM_SIDE + 0.1, (box[1] + box[4]) / 2)
    assert open_.grid.lookup(open_.keep, *far)
    assert float(np.mean(open_.keep)) > 0.98  # the leaf's ring only


@pytest.mark.slow
def test_a_pick_behind_an_open_fridge_doors_hinge_half_keeps_the_door_open(tmp_path):
    """Procedural house p000 (heat_breakfast p000_v000, built here through the pipeline's stages): its fridge
    hinged on the west, the oatmeal in the hinge half. Before the rule the stance stood on the hinge side and the arm's
    way in swung the open door shut (1.27 to 0.0 rad), the pick stalled; now it stands on the open side and the door
    stays open."""
    from housebench.paths import Layout
    from housebench.rollout.episode import EpisodeJob
    from housebench.skills.articulate import Open
    from tests.builtdata import built
    from tests.conftest import run_skill
    from tests.house.test_house_set_pipeline import _project, _run

    houses = {"grid": False, "procedural": [0], "held_out": []}
    root = _project(tmp_path / "project", built(), houses, "heat_breakfast")  # the default pairs' assets
    _run(root, "h.main(); t.main(); s.main(); a.main()")
    layout, variant = Layout(root), "p000_v000"
    job = EpisodeJob(
        run="test",
        task="heat_breakfast",
        variant=variant,
        seed=0,
        policy="noop",
        backend="mujoco",
        scene=layout.settled_scene("heat_breakfast", variant),
        task_file=layout.task_dir("heat_breakfast", variant) / "task.json",
        annotations=layout.scene_annotations("heat_breakfast", variant),
        horizon_s=300.0,
        control_dt=0.1,
        pose_noise_m=0.002,
    )
    episode = job.open()
    obs = episode.reset(0)
    ctx = SkillContext(task=episode.task, scene=episode.scene, control_dt=0.1, initial=obs.state)
    failure, obs = run_skill(episode, ctx, obs, Open(LEAF))
    assert failure is None, failure
    opened = obs.parts[LEAF]
    failure, obs = run_skill(episode, ctx, obs, SidePick("oatmeal"))
    assert failure is None, failure
    assert obs.holding("oatmeal") and all("oatmeal" in obs.finger_contacts[f] for f in ("left", "right"))
    assert obs.parts[LEAF] >= opened - 0.05  # not pushed shut by the arm or the carry arm's drive
