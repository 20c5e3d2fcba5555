"""Phases on a built scene: an outside policy that logs nothing (the scripted policy's actions, its events
dropped) reaches the plan's phases in order with times; a noop episode reaches none; the phases table round-trips;
the same actions replayed on the vision track give the same phases; the Gymnasium env shows the current phase."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import numpy as np
import pytest

from housebench.policy.scripted import ScriptedPolicy
from housebench.report.phases import phases_html, summarize_phases
from housebench.results.writer import connect, read_table, write_run
from housebench.rollout.episode import play, run_episode
from housebench.rollout.phases import PhaseMonitor, cached_phases, plan_phases
from housebench.rollout.records import records
from housebench.state import Action
from tests.conftest import built_job

TASK, VARIANT = "stack_blocks", "v000"  # the shortest scripted episode there is (about 37 s simulated)
HORIZON_S = 45.0
PROVENANCE = {"code_commit": "c", "scene_hash": "s", "assets_hash": "a"}
PLAN = [("navigate", ("block",)), ("pick", ("block",)), ("navigate", ("cube",)), ("stack", ("block", "cube"))]


class QuietScripted:
    """An outside policy, loaded by import path: the scripted policy's actions with its events dropped, so the
    episode has no skill event to take phases from. Keeps the actions of its last episode (for the replay)."""

    name = "quiet"
    tracks = ("state",)
    Params = ScriptedPolicy.Params
    actions: ClassVar[list[Action | None]] = []

    def __init__(self, params: ScriptedPolicy.Params) -> None:
        self.inner = ScriptedPolicy(params)

    def reset(self, ctx, obs) -> None:
        QuietScripted.actions = []
        self.inner.reset(dataclasses.replace(ctx, log=lambda kind, **detail: None), obs)

    def act(self, obs) -> Action | None:
        action = self.inner.act(obs)
        QuietScripted.actions.append(action)
        return action


class Replay:
    """Recorded actions, one per step, on the vision track (no ground truth shown, no events)."""

    tracks = ("vision",)

    def __init__(self, actions: list[Action | None]) -> None:
        self.actions, self.shown = list(actions), []

    def reset(self, ctx, obs) -> None:
        assert ctx.task is None and obs.state is None  # the vision track: nothing privileged
        self.shown.append(obs)

    def act(self, obs) -> Action | None:
        return self.actions.pop(0) if self.actions else Action(stop=True)


@pytest.fixture(scope="module")
def quiet():
    job = built_job(TASK, VARIANT, "quiet", HORIZON_S)
    job = dataclasses.replace(job, policy_entry={"class": f"{__name__}:QuietScripted"}, provenance=PROVENANCE)
    return run_episode(job), list(QuietScripted.actions)


@pytest.fixture(scope="module")
def noop():
    return run_episode(dataclasses.replace(built_job(TASK, VARIANT, "noop", 5.0), provenance=PROVENANCE))


def test_an_outside_policy_without_events_reaches_the_phases_in_order(quiet):
    outcome, _ = quiet
    assert outcome.crash is None and outcome.verdict.success, outcome.crash or outcome.verdict
    assert outcome.policy_class.endswith(":QuietScripted")
    assert not [kind for _, kind, _ in outcome.events if kind.startswith("skill")]  # nothing logged
    assert [(r.verb, r.targets) for r in outcome.phases] == PLAN
    assert all(r.reached for r in outcome.phases)
    times = [r.t_reached for r in outcome.phases]
    assert times == sorted(times) and 0 < times[0] and times[-1] <= outcome.sim_s
    assert sum(r.time_s for r in outcome.phases) == pytest.approx(times[-1])  # reaches split the time
    assert outcome.phases[1].time_s > 0 and outcome.phases[3].time_s > 0  # the pick and the stack take time


def test_a_noop_episode_reaches_no_phase(noop):
    assert noop.crash is None and not noop.verdict.success
    assert [r.verb for r in noop.phases] == [v for v, _ in PLAN]
    assert not any(r.reached for r in noop.phases)
    assert noop.phases[0].time_s == pytest.approx(noop.sim_s) and all(r.time_s == 0 for r in noop.phases[1:])


def test_the_phases_table_round_trips(quiet, noop, tmp_path):
    outcome, _ = quiet
    write_run(tmp_path, "test", records([outcome, noop]))
    rows = read_table(tmp_path, "phases").to_pylist()
    assert len(rows) == 2 * len(PLAN)
    mine = [r for r in rows if r["episode_id"].endswith("/quiet")]
    assert [(r["phase"], r["verb"], r["targets"], r["reached"]) for r in mine] == [
        (i, verb, ",".join(targets), True) for i, (verb, targets) in enumerate(PLAN)
    ]
    assert [r["t_reached"] for r in mine] == [r.t_reached for r in outcome.phases]
    assert all(r["t_reached"] is None and not r["reached"] for r in rows if r["episode_id"].endswith("/noop"))


def test_the_same_actions_on_the_vision_track_give_the_same_phases(quiet):
    outcome, actions = quiet
    picked = outcome.phases[2].t_reached  # replay up to the pick and the navigate after it (half the episode)
    job = dataclasses.replace(built_job(TASK, VARIANT, "replay", picked + 0.05), track="vision", image_size=(32, 24))
    episode = job.open()
    monitor = PhaseMonitor(cached_phases(episode.task, episode.scene, (job.task_file, job.annotations)), episode.scene)
    policy = Replay(actions)
    play(episode, policy, job.seed, on_step=monitor.hook())
    phases = monitor.finish(episode.state(), episode.time)
    assert policy.shown
    assert [(r.verb, r.reached, r.t_reached) for r in phases[:3]] == [
        (r.verb, r.reached, r.t_reached) for r in outcome.phases[:3]
    ]
    assert not phases[3].reached


def test_the_gym_env_shows_the_current_phase():
    from housebench.robot.fetch import ARM_JOINTS, TORSO_JOINT
    from housebench.rollout.gym_env import HousebenchEnv

    env = HousebenchEnv(built_job(TASK, VARIANT, "noop", 1.0).open(), render_mode=None)
    obs, info = env.reset(seed=0)
    assert info["phase"] == {"index": 0, "verb": "navigate", "targets": ["block"], "count": 4, "reached": 0}
    joints = [obs["joints"][env.robot_joints.index(j)] for j in (*ARM_JOINTS, TORSO_JOINT)]
    action = np.array([*joints, *obs["base"], obs["gripper_opening"][0]], dtype=np.float32)  # hold still
    truncated = False
    while not truncated:
        _, _, _, truncated, info = env.step(action)
        assert info["phase"]["verb"] == "navigate"
    assert [p["verb"] for p in info["phases"]] == [v for v, _ in PLAN]
    env.close()


def test_the_report_section_says_where_each_policy_stopped(quiet, noop, tmp_path):
    outcome, _ = quiet
    write_run(tmp_path / "results", "test", records([outcome, noop]))
    con = connect(tmp_path / "results")
    rows = summarize_phases(con)
    assert [(r["task"], r["policy"], r["with_phases"]) for r in rows] == [(TASK, "noop", 1), (TASK, "quiet", 1)]
    assert rows[0]["first_missed"] == {"navigate": 1} and rows[1]["first_missed"] == {"(all reached)": 1}
    assert [p["share"] for p in rows[1]["phases"]] == [1.0] * 4
    html = phases_html(rows, tmp_path / "phases.png")
    assert "id=phases" in html and "0 navigate 100%" in html and "data:image/png;base64," in html


def test_a_variant_the_planner_does_not_decompose_has_the_goal_as_its_one_phase():
    episode = built_job(TASK, VARIANT, "noop", 1.0).open()
    episode.reset(0)
    (phase,) = plan_phases(episode.task, episode.scene, max_expansions=1)  # no chain within one expansion
    assert (phase.verb, phase.targets) == ("goal", ("block",))
    assert not phase.holds(episode.state(), episode.scene, episode.initial)
