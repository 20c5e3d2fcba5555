"""The nightly flow's trend step on results written through the real writer (no simulation): the trends table
beside the rollout tables, the report's section, the artifact and the failed state's message."""

from __future__ import annotations

from pathlib import Path

import yaml

from flows.nightly import regression_message, trends, trends_markdown
from housebench.paths import Layout
from housebench.report.build import build_report
from housebench.results.writer import read_table, write_run
from tests.conftest import ROOT
from tests.results.conftest import run_records

EPISODES = 8


def write_night(results: Path, run: str, scripted_fruit: bool) -> None:
    """A night of two tasks x two policies x 8 episodes in the night's own scenes: noop never succeeds, scripted
    always does, but on fruit_in_bowl only when ``scripted_fruit``."""
    template = run_records(run, 29)["episodes"][0]
    rows = []
    for task in ("fruit_in_bowl", "book_on_shelf"):
        for policy in ("noop", "scripted"):
            for seed in range(EPISODES):
                ok = policy == "scripted" and (scripted_fruit or task != "fruit_in_bowl")
                variant = f"v{seed:03d}"
                rows.append(
                    template
                    | {"episode_id": f"{task}/{variant}/{seed}/{policy}", "task": task, "variant": variant}
                    | {"seed": seed, "policy": policy, "scene_hash": f"{run}-{variant}", "split": "test"}
                    | {"success": ok, "status": "success" if ok else "fail", "failure_reason": None if ok else "x"}
                )
    write_run(
        results, run, {"episodes": rows, "conditions": [], "events": [], "choices": [], "states": [], "phases": []}
    )


def project(tmp_path: Path) -> Path:
    params = yaml.safe_load((ROOT / "params.yaml").read_text())
    params["nightly"] |= {"nights": 2, "min_episodes": 5}
    (tmp_path / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    for night in ("2026-11-28", "2026-11-29"):
        write_night(tmp_path / "results", f"nightly-{night}-a1", scripted_fruit=True)
    return tmp_path


def test_an_unchanged_night_is_not_flagged_and_a_planted_drop_is(tmp_path):
    root = project(tmp_path)
    write_night(root / "results", "nightly-2026-11-30-a1", scripted_fruit=True)
    same = trends.fn(Layout.nightly(root, "nightly-2026-11-30-a1"), "nightly-2026-11-30-a1")
    assert same.flagged == [] and same.baseline == ["nightly-2026-11-28-a1", "nightly-2026-11-29-a1"]
    assert {(r["policy"], r["test"]) for r in same.rows} == {("noop", "unpaired"), ("scripted", "unpaired")}
    assert "no regression" in trends_markdown(same)

    write_night(root / "results", "nightly-2026-12-01-a1", scripted_fruit=False)
    dropped = trends.fn(Layout.nightly(root, "nightly-2026-12-01-a1"), "nightly-2026-12-01-a1")
    assert dropped.baseline == ["nightly-2026-11-29-a1", "nightly-2026-11-30-a1"]  # nightly.nights: 2
    [row] = dropped.flagged
    assert (row["task"], row["policy"], row["successes"], row["baseline_successes"]) == (
        "fruit_in_bowl",
        "scripted",
        0,
        16,
    )
    assert row["p_adjusted"] < 0.001
    assert regression_message(dropped).startswith(
        "nightly-2026-12-01-a1: regressed fruit_in_bowl (scripted, state, test) 100.0% -> 0.0%"
    )
    markdown = trends_markdown(dropped)
    assert "1 regressed" in markdown and "- **fruit_in_bowl** (scripted, state, test)" in markdown

    # the trends table beside the rollout tables, one partition per night
    table = read_table(root / "results", "trends").to_pylist()
    assert sorted({r["run"] for r in table}) == ["nightly-2026-11-30-a1", "nightly-2026-12-01-a1"]
    assert [(r["run"][8:18], r["task"], r["policy"]) for r in table if r["flag"]] == [
        ("2026-12-01", "fruit_in_bowl", "scripted")
    ]

    out = tmp_path / "report"
    build_report(root / "results", out, runs=["nightly-2026-12-01-a1"], trends=dropped)
    html = (out / "index.html").read_text()
    assert "<h2 id=trends>Tonight against the last nights</h2>" in html
    assert "1 regressed:</b> fruit_in_bowl (scripted)" in html
    assert html.index("id=trends") < html.index("id=leaderboard")  # right after the summary
    assert (out / "trends.png").stat().st_size > 1000
