"""Component tasks in physics: the Gymnasium checker on a component env, the scripted solver (the runtime on the
one node) through the rollout's ``run_episode``, and starts taken from a state file and a recording."""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from housebench.components.envs import make_component_env, register
from housebench.components.jobs import ComponentJob
from housebench.components.scenario import component, load_component
from housebench.components.task import PREFIX, ComponentEpisode, scene_files
from housebench.paths import Layout
from housebench.rollout.episode import run_episode
from housebench.rollout.records import records
from housebench.sim.offscreen import use_offscreen_gl
from tests.builtdata import built

ROOT = Path(__file__).resolve().parents[2]
SOLVER = {"class": "housebench.components.solver:SkillPolicy"}


def layout(comp, start: str) -> Layout:
    """The tests' small build holding the base scene of ``comp``'s ``start`` (a pair of tests/builtdata.py)."""
    return built(*comp.start(start)[1].scene.split("/"))


def job(comp, start: str, horizon_s: float | None = None) -> ComponentJob:
    scene, task_file, annotations = scene_files(layout(comp, start), comp, start)
    return ComponentJob(
        run="test", task=f"{PREFIX}{comp.name}", variant=start, seed=0, policy="skill", backend="mujoco",
        scene=scene, task_file=task_file, annotations=annotations, horizon_s=horizon_s or comp.spec.horizon_s,
        control_dt=0.1, pose_noise_m=0.0, policy_entry=SOLVER, component_file=comp.path,
    )  # fmt: skip


def test_a_component_env_passes_gymnasiums_checker():
    comp = component("place_item")
    use_offscreen_gl()
    env = make_component_env("place_item", "s000", root=layout(comp, "s000").root, horizon_s=1.0, render_mode=None)
    check_env(env.unwrapped, skip_render_check=True)
    obs, _ = env.reset(seed=0)
    episode = env.unwrapped.episode
    assert episode.task.goal.condition.all_of[0].predicate == "on"  # the verb's postconditions
    held = env.unwrapped.object_names.index("apple")
    assert obs["objects"][held][2] > 0.9  # the apple held up in the carry pose, not on the table
    start = next(d for _, kind, d in episode.events if kind == "component_start")
    assert start["pre_ok"], start  # holding it: the verb's preconditions hold at the start


def test_the_gym_ids_make_component_envs(monkeypatch):
    comp = component("pick_item")
    monkeypatch.chdir(layout(comp, "s001").root)  # the ids read the built scenes under the working directory
    register()
    env = gym.make("housebench/pick-item-v1", start="s001", render_mode=None)
    obs, _ = env.reset(seed=1)
    assert env.unwrapped.episode.task.task == "pick_item" and env.unwrapped.episode.task.variant == "s001"
    assert np.isfinite(obs["joints"]).all()
    env.close()


@pytest.mark.parametrize("name,start", [("close_door", "s001")])
def test_the_scripted_solver_solves_a_start_through_the_rollout(name, start):
    outcome = run_episode(job(component(name), start))
    assert outcome.crash is None, outcome.crash
    assert outcome.verdict.success, [c for c in outcome.verdict.conditions if not c.ok]
    assert outcome.sim_s < component(name).spec.horizon_s  # ended at success, not at the horizon
    rows = records([outcome])
    assert rows["episodes"][0]["task"] == f"component:{name}"
    assert {r["kind"] for r in rows["events"]} >= {"component_start", "node_pre", "node_path"}


def test_a_start_from_a_state_file(tmp_path):
    """The state a pick ended in, written as a SimState file, is the start of a place: the apple still held."""
    pick = component("pick_item")
    outcome = run_episode(job(pick, "s000"))
    assert outcome.crash is None and outcome.verdict.success, outcome.crash  # the solver picks it
    state = tmp_path / "after_pick.json"
    state.write_text(json.dumps(outcome.final.model_dump(mode="json")))
    scene = pick.spec.starts[0].scene
    text = f"""version: 1
verb: place
instruction: Put the $object down.
horizon_s: 60
starts:
  - id: s000
    scene: {scene}
    args: {{object: apple, support: dining_table/top}}
    from: {{state: after_pick.json}}
"""
    (tmp_path / "place_after_pick.yaml").write_text(text)
    place = load_component(tmp_path / "place_after_pick.yaml")
    out = run_episode(job(place, "s000"))
    assert out.crash is None, out.crash
    start = next(d for _, kind, d in out.events if kind == "component_start")
    assert start["pre_ok"], start  # held across the restore: the fingers' targets closed again
    assert out.verdict.success, [c for c in out.verdict.conditions if not c.ok]


def test_a_state_file_naming_other_objects_is_one_line(tmp_path):
    comp = component("pick_item")
    state = {"time": 0.0, "objects": {"unicorn": {"pos": [0, 0, 1], "quat": [1, 0, 0, 0]}}, "joints": {}}
    (tmp_path / "s.json").write_text(json.dumps(state))
    scene = comp.spec.starts[0].scene
    (tmp_path / "pick_x.yaml").write_text(
        f"version: 1\nverb: pick\ninstruction: x\nhorizon_s: 5\nstarts:\n  - id: a\n    scene: {scene}\n"
        "    args: {object: apple}\n    from: {state: s.json}\n"
    )
    bad = load_component(tmp_path / "pick_x.yaml")
    episode = ComponentEpisode(bad, "a", scene_files(layout(bad, "a"), bad, "a"))
    with pytest.raises(Exception, match=r"pick_x\.yaml: starts\[0\]\.from\.state: objects \['unicorn'\] are not in"):
        episode.reset(0)


def test_a_start_from_a_recorded_step(tmp_path):
    """A scripted episode recorded (the demos package), its step 100 the start of a navigate component."""
    from housebench.demos import record as demos
    from housebench.rollout.episode import EpisodeJob

    comp = component("navigate_to")
    scene, task_file, annotations = scene_files(layout(comp, "s000"), comp, "s000")
    recorded = EpisodeJob(
        run="test", task="put_fruit_in_container", variant="v000", seed=0, policy="scripted", backend="mujoco",
        scene=scene, task_file=task_file, annotations=annotations, horizon_s=12.0, control_dt=0.1, pose_noise_m=0.0,
    )  # fmt: skip
    demos.record_episode(recorded, tmp_path / "rec")
    text = f"""version: 1
verb: navigate
instruction: Go to the $target.
horizon_s: 60
starts:
  - id: s000
    scene: {comp.spec.starts[0].scene}
    args: {{target: bowl}}
    from: {{recording: rec, step: 100}}
"""
    (tmp_path / "navigate_rec.yaml").write_text(text)
    nav = load_component(tmp_path / "navigate_rec.yaml")
    episode = ComponentEpisode(nav, "s000", scene_files(layout(nav, "s000"), nav, "s000"))
    obs = episode.reset(0)
    assert obs.time == 0.0 and episode.steps == 0
    from housebench.demos.recording import load_recording

    rec = load_recording(tmp_path / "rec")
    base = rec.array("obs.base")
    assert np.linalg.norm(base[100, :2] - base[0, :2]) > 0.1  # the recorded robot was on its way at step 100
    assert np.allclose(obs.base, base[100], atol=1e-9)  # and the start is there
    out = run_episode(job(nav, "s000"))
    assert out.verdict.success, [c for c in out.verdict.conditions if not c.ok]


def test_component_jobs_plan_every_start_for_the_rollout():
    from housebench.components.jobs import component_jobs
    from housebench.params import PARAMS, load_section
    from housebench.rollout.plan import RolloutParams

    comp = component("pick_item")
    params = load_section("rollout", RolloutParams, ROOT / PARAMS)
    params = params.model_copy(update={"policies": ["noop"], "episodes_per_variant": 2})
    jobs = component_jobs("r", params, layout(comp, "s000"), [comp])  # every start's base scene is built
    assert len(jobs) == 2 * len(comp.spec.starts)
    assert {j.task for j in jobs} == {"component:pick_item"} and jobs[0].variant == "s000"
    assert jobs[0].horizon_s == comp.spec.horizon_s and jobs[0].provenance["scene_hash"]
    assert isinstance(jobs[0].open(), ComponentEpisode)
    assert jobs[0].split in ("train", "val", "test")  # the base scene's split


def test_a_component_row_is_written_and_cached_like_any_episode_row(tmp_path):
    """The rollout's writer takes a component episode's row: the same provenance as a task episode's."""
    import dataclasses

    import pyarrow.parquet as pq

    from housebench.components.jobs import component_jobs
    from housebench.params import PARAMS, load_section
    from housebench.results.writer import write_run
    from housebench.rollout.cache import EpisodeCache
    from housebench.rollout.plan import RolloutParams, plan_jobs

    comp = component("pick_item")
    params = load_section("rollout", RolloutParams, ROOT / PARAMS)
    params = params.model_copy(update={"policies": ["noop"], "episodes_per_variant": 1})
    built_layout = layout(comp, "s000")
    job = dataclasses.replace(component_jobs("r", params, built_layout, [comp])[0], horizon_s=0.3)
    task_job = next(
        j
        for j in plan_jobs("r", params, built_layout)
        if (j.task, j.variant) == tuple(comp.start("s000")[1].scene.split("/"))
    )
    assert set(job.provenance) == set(task_job.provenance)
    assert job.provenance["assets_hash"] == task_job.provenance["assets_hash"]
    assert EpisodeCache(tmp_path / "cache", 2**20).key(job) is not None, "a component episode is cached too"
    write_run(tmp_path / "results", "r", records([run_episode(job)]))
    row = pq.read_table(next((tmp_path / "results" / "episodes").rglob("*.parquet"))).to_pylist()[0]
    assert row["task"] == "component:pick_item" and row["assets_hash"] == job.provenance["assets_hash"]


def test_a_held_out_file_names_its_split_and_demonstrations_refuse_it(tmp_path):
    """The generator writes ``split: test`` into a held-out file; the rollout labels its starts so, and the
    demonstrations refuse to learn from it (they would from a file of their own split)."""
    from housebench.components.generate import generate
    from housebench.components.jobs import DemoJobs, component_jobs
    from housebench.params import PARAMS, load_section
    from housebench.rollout.plan import RolloutParams

    built_layout = built("put_fruit_in_container", "v000")
    pool = ["put_fruit_in_container/v000:apple"]
    (held_out,) = generate(built_layout, tmp_path / "test", 2, ["pick_item"], seed=2, only=pool, split="test")
    (training,) = generate(built_layout, tmp_path / "train", 2, ["pick_item"], seed=1, only=pool)
    params = load_section("rollout", RolloutParams, ROOT / PARAMS)
    params = params.model_copy(update={"policies": ["noop"], "episodes_per_variant": 1})
    comps = [load_component(held_out), load_component(training)]
    jobs = component_jobs("r", params, built_layout, comps)
    assert [j.split for j in jobs[:2]] == ["test", "test"]
    assert {j.split for j in jobs[2:]} == {"train"}  # no split named: the base scene's (v000 is train)
    demos = DemoJobs(None, built_layout, params, "skill", SOLVER, "train")
    assert demos.variants(f"{PREFIX}{training}") == ["s000", "s001"]
    with pytest.raises(ValueError, match=r"test/pick_item.yaml: split: 'test', not the demonstrations' 'train'"):
        demos.variants(f"{PREFIX}{held_out}")


def test_a_component_and_its_base_task_get_their_own_phases():
    """A component task is made from its base scene's files with a goal of its own: the per-process phase plans
    must not hand one the other's (a worker running a component start, then the base task, did)."""
    from housebench.rollout.phases import cached_phases

    comp = component("pick_item")
    episode = job(comp, "s000").open()
    _, task_file, annotations = scene_files(layout(comp, "s000"), comp, "s000")
    files = (task_file, annotations)
    own = cached_phases(episode.task, episode.scene, files)
    base = cached_phases(episode.base_task, episode.scene, files)
    assert [p.verb for p in own][-1] == "pick"  # the planner's chain to the component's goal: pick the apple
    assert [p.verb for p in base][-1] == "insert" and len(base) > len(own)  # the base task puts it in the bowl
