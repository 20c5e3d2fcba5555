"""Rows as the rollout writes them, from real episodes on a built scene: the seed, wall and simulated seconds and the
event numbering mean what the schema says; an episode whose policy raises part way through is a crash row with its
events up to the crash and its states, and the batch around it completes."""

from __future__ import annotations

import dataclasses
import json
import time

import pytest

from housebench.policy.base import TRACKS, PolicyParams
from housebench.results.writer import read_table, write_run
from housebench.rollout.batch import run_batch
from housebench.rollout.records import records
from housebench.state import SimState
from tests.conftest import built_job

TASK, VARIANT = "put_fruit_in_container", "v000"
CRASH_AFTER = 5  # control steps the raising policy takes before it raises
HORIZON_S = 1.0  # simulated seconds of the episodes around it


class RaiseAfter:
    """A policy that logs a tick each control step and raises after ``steps`` of them (a bug in someone's policy)."""

    name = "raise_after"
    tracks = TRACKS

    class Params(PolicyParams):
        steps: int

    def __init__(self, params: Params) -> None:
        self.params, self.ticks, self.log = params, 0, None

    def reset(self, ctx, obs) -> None:
        self.ticks, self.log = 0, ctx.log

    def act(self, obs):
        if self.ticks == self.params.steps:
            raise RuntimeError(f"planted bug after {self.ticks} steps")
        self.ticks += 1
        self.log("tick", n=self.ticks)
        return None


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    """noop (seed 3), the raising policy (seed 4), noop (seed 5) in one batch, written and read back."""
    base = built_job(TASK, VARIANT, "noop", horizon_s=HORIZON_S)
    base = dataclasses.replace(base, provenance={"code_commit": "test", "scene_hash": "s", "assets_hash": "a"})
    entry = {"class": f"{__name__}:RaiseAfter", "steps": CRASH_AFTER}
    jobs = [
        dataclasses.replace(base, seed=3),
        dataclasses.replace(base, seed=4, policy="buggy", policy_entry=entry),
        dataclasses.replace(base, seed=5),
    ]
    clock = time.perf_counter()
    outcomes = run_batch(jobs, "local", workers=1, progress=False)
    elapsed = time.perf_counter() - clock
    root = tmp_path_factory.mktemp("records") / "results"
    write_run(root, "test", records(outcomes))
    tables = {name: read_table(root, name).to_pylist() for name in ("episodes", "events", "states", "conditions")}
    return outcomes, tables, elapsed


def _rows(rows: list[dict], episode_id: str) -> list[dict]:
    return [r for r in rows if r["episode_id"] == episode_id]


def test_the_crash_is_a_row_with_its_events_and_states(batch):
    outcomes, tables, _ = batch
    crash = next(e for e in tables["episodes"] if e["policy"] == "buggy")
    assert crash["episode_id"] == f"{TASK}/{VARIANT}/4/buggy"
    assert (crash["status"], crash["success"], crash["progress"]) == ("crash", False, 0.0)
    assert crash["failure_reason"] == f"RuntimeError: planted bug after {CRASH_AFTER} steps"
    assert crash["policy_class"] == f"{__name__}:RaiseAfter" and (crash["track"], crash["split"]) == ("state", "")
    # the policy's own events up to the crash, at the simulated time each was logged, then the crash, then the end
    events = _rows(tables["events"], crash["episode_id"])
    assert [e["seq"] for e in events] == list(range(len(events)))
    assert [e["kind"] for e in events] == ["episode_start", *["tick"] * CRASH_AFTER, "crash", "episode_end"]
    ticks = [(json.loads(e["detail"])["n"], e["t_sim"]) for e in events if e["kind"] == "tick"]
    assert ticks == [(n, pytest.approx((n - 1) * 0.1, abs=1e-9)) for n in range(1, CRASH_AFTER + 1)]
    crashed_at = CRASH_AFTER * 0.1  # it raised when asked for the step after its fifth
    assert events[-2]["t_sim"] == pytest.approx(crashed_at, abs=1e-9)
    assert "planted bug" in json.loads(events[-2]["detail"])["error"]
    assert crash["sim_s"] == pytest.approx(crashed_at, abs=1e-9) and crash["steps"] > 0
    (state,) = _rows(tables["states"], crash["episode_id"])
    assert state["initial"] is not None and state["final"] is not None  # the last state reached, for a re-judge
    assert SimState.model_validate_json(state["final"]).time == pytest.approx(crashed_at, abs=1e-9)
    assert _rows(tables["conditions"], crash["episode_id"]) == []  # no verdict, no condition rows
    assert outcomes[1].crash is not None


def test_the_batch_around_the_crash_completes(batch):
    _, tables, _ = batch
    assert [(e["policy"], e["seed"], e["status"]) for e in tables["episodes"]] == [
        ("noop", 3, "fail"),
        ("buggy", 4, "crash"),
        ("noop", 5, "fail"),
    ]
    for episode in tables["episodes"]:
        if episode["policy"] == "noop":
            assert episode["sim_s"] == pytest.approx(HORIZON_S, abs=1e-9)  # ran to its horizon
            assert _rows(tables["conditions"], episode["episode_id"])  # judged


def test_seed_wall_and_sim_seconds_are_what_they_say(batch):
    """A swap of wall_s and sim_s, or a seed that is not the job's, fails here: simulated seconds are the control
    steps taken (whatever the machine's speed), wall seconds fit inside the batch's measured wall time."""
    outcomes, tables, elapsed = batch
    for episode, outcome in zip(tables["episodes"], outcomes, strict=True):
        assert type(episode["seed"]) is int and episode["seed"] == outcome.job.seed
        assert episode["episode_id"] == f"{TASK}/{VARIANT}/{outcome.job.seed}/{outcome.job.policy}"
        assert episode["sim_s"] == pytest.approx(episode["steps"] * 0.002, abs=1e-9)  # 500 physics steps per s
        assert episode["sim_s"] == pytest.approx(outcome.final.time, abs=1e-9)
        assert 0 < episode["wall_s"] < elapsed
    assert sum(e["wall_s"] for e in tables["episodes"]) <= elapsed
    for episode in tables["episodes"]:
        events = _rows(tables["events"], episode["episode_id"])
        assert [e["seq"] for e in events] == list(range(len(events)))
        assert events[0]["kind"] == "episode_start" and json.loads(events[0]["detail"])["seed"] == episode["seed"]
        assert events[-1]["kind"] == "episode_end" and events[-1]["t_sim"] == pytest.approx(episode["sim_s"])
        assert [e["t_sim"] for e in events] == sorted(e["t_sim"] for e in events)
