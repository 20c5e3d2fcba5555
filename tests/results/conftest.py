"""A small synthetic results set written through the real writer (two runs, two tasks, a crash)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from housebench.results.schema import ROLLOUT_TABLES
from housebench.results.writer import write_run
from housebench.rollout.records import event_rows, state_row, verdict_rows
from housebench.state import ObjectState, SimState
from housebench.tasks.verdict import ConditionResult, ItemResult, Verdict

TASKS = {"fruit_in_bowl": ("inside", ["apple", "pear"]), "book_on_shelf": ("on", ["book"])}
POLICIES = ("noop", "scripted")
CLASSES = {"noop": "housebench.policy.base:NoopPolicy", "scripted": "housebench.policy.scripted:ScriptedPolicy"}
SPLITS = {"v000": "train", "v001": "test"}
START = SimState(objects={"apple": ObjectState(pos=(1.0, 2.0, 0.75), quat=(1, 0, 0, 0))})
END = SimState(time=10.0, objects={"apple": ObjectState(pos=(1.0, 2.0, 0.0), quat=(1, 0, 0, 0))})


def _verdict(predicate: str, items: list[str], n_ok: int) -> Verdict:
    results = [
        ItemResult(item=item, ok=k < n_ok, reason="inside" if k < n_ok else "0.2 m away")
        for k, item in enumerate(items)
    ]
    condition = ConditionResult(
        index=0,
        path="goal.all_of[0]",
        predicate=predicate,
        ok=n_ok == len(items),
        progress=n_ok / len(items),
        items=results,
    )
    upright = ConditionResult(
        index=1,
        path="goal.all_of[1]",
        predicate="upright",
        ok=True,
        progress=1.0,
        items=[ItemResult(item=items[0], ok=True, reason="tilt 2 deg")],
    )
    return Verdict(success=condition.ok, progress=(condition.progress + 1.0) / 2, conditions=[condition, upright])


def run_records(run: str, day: int) -> dict[str, list[dict]]:
    """Episodes of every task x policy x seed; the scripted policy succeeds on odd seeds."""
    records: dict[str, list[dict]] = {name: [] for name in ROLLOUT_TABLES}  # phases: none (tests/rollout/test_phases*)
    for task, (predicate, items) in TASKS.items():
        for policy in POLICIES:
            for seed in range(3):
                meta = {
                    "run": run,
                    "task": task,
                    "variant": f"v{seed % 2:03d}",
                    "house": "grid",
                    "seed": seed,
                    "policy": policy,
                    "policy_class": CLASSES[policy],
                    "policy_version": "0.1.0",
                    "track": "state",
                    "split": SPLITS[f"v{seed % 2:03d}"],
                    "backend": "mujoco",
                    "backend_version": "3.3.7",
                    "code_commit": f"c0ffee{day}",
                    "scene_hash": "ab" * 32,
                    "assets_hash": "cd" * 32,
                    "host": "ci-1",
                    "started_at": datetime(2026, 11, day, tzinfo=UTC) + timedelta(seconds=seed),
                    "wall_s": 1.5 + seed,
                    "sim_s": 10.0,
                    "steps": 5000,
                    "horizon_s": 10.0,
                }
                if policy == "scripted" and task == "book_on_shelf" and seed == 2:
                    episode, conditions = verdict_rows(meta, None, crash_reason="MuJoCo: unstable")
                else:
                    n_ok = len(items) if (policy == "scripted" and seed % 2) else 0
                    episode, conditions = verdict_rows(meta, _verdict(predicate, items, n_ok))
                missed = policy == "scripted" and not episode["success"]  # a missed grasp, then a place that failed
                events = [
                    (0.0, "episode_start", {}),
                    (0.0, "skill_start", {"skill": "pick"}),
                    (4.0, "skill_end", {"skill": "pick", "ok": not missed, "reason": "missed" if missed else ""}),
                    *([(6.0, "skill_end", {"skill": "place", "ok": False, "reason": "dropped"})] if missed else []),
                    (10.0, "episode_end", {}),
                ]
                records["episodes"].append(episode)
                records["conditions"] += conditions
                records["events"] += event_rows(episode, events)
                records["states"].append(state_row(episode, START, None if episode["status"] == "crash" else END))
        records["choices"] += [
            {"run": run, "task": task, "variant": f"v{v:03d}", "choice": "dish.asset", "value": ("plate", "bowl")[v]}
            for v in (0, 1)
        ]
    return records


@pytest.fixture(scope="session")
def make_records():
    """``run_records(run, day)``: the synthetic records of one run, fresh each call."""
    return run_records


@pytest.fixture
def results_dir(tmp_path: Path) -> Path:
    """Two runs (``repro`` and a nightly) of synthetic episodes under ``tmp_path/results``."""
    root = tmp_path / "results"
    write_run(root, "repro", run_records("repro", 29))
    write_run(root, "nightly-2026-11-30", run_records("nightly-2026-11-30", 30))
    return root
