"""The nightly trend rules on hand-made episode rows: which nights are the baseline, when a comparison is paired,
the one-sided exact tests, the adjustment over a night's tests, and the flag."""

from __future__ import annotations

from datetime import date
from math import comb

import pytest

from housebench.report.trends import TrendParams, baseline_runs, parse_night, trend_rows

PARAMS = TrendParams(nights=7, alpha=0.05, min_episodes=5, adjust="bh")


def night(run: str, outcomes: list[bool], task: str = "t", scene: str | None = None, policy: str = "p") -> list[dict]:
    """Episodes of ``run``: one per outcome, variant ``v<i>`` and seed ``i``, in the night's own scenes unless
    ``scene`` names a hash (the same scenes on two nights)."""
    return [
        {
            "run": run,
            "policy": policy,
            "track": "state",
            "split": "test",
            "task": task,
            "variant": f"v{i:03d}",
            "seed": i,
            "scene_hash": scene or f"{run}/{i}",
            "success": ok,
        }
        for i, ok in enumerate(outcomes)
    ]


def fisher_less(a: int, n: int, b: int, m: int) -> float:
    """P(tonight's successes <= a) given the total, by the hypergeometric law written out."""
    total = a + b
    return sum(comb(n, k) * comb(m, total - k) for k in range(0, a + 1) if total - k <= m) / comb(n + m, total)


def test_a_night_is_compared_with_the_latest_attempt_of_each_of_the_last_nights():
    runs = [
        "nightly-2026-11-27-a1",
        "nightly-2026-11-28-a1",
        "nightly-2026-11-28-a2",  # the 28th's latest attempt
        "nightly-2026-11-29-a1",
        "nightly-2026-11-30-a1",  # an earlier attempt of tonight: a re-run is compared with it
        "nightly-2026-11-30-a3",  # later than tonight
        "nightly-2026-12-01-a1",  # later than tonight
        "repro",
        "heldout-spring-a1",
    ]
    assert baseline_runs(runs, "nightly-2026-11-30-a2", 3) == [
        "nightly-2026-11-28-a2",
        "nightly-2026-11-29-a1",
        "nightly-2026-11-30-a1",
    ]
    assert baseline_runs(runs, "nightly-2026-11-27-a1", 3) == []
    assert parse_night("nightly-2026-11-30-a12") == (date(2026, 11, 30), 12)
    assert parse_night("nightly-2026-13-30-a1") is None and parse_night("nightly-2026-11-30") is None
    with pytest.raises(ValueError, match="^trends: run 'repro' is not a nightly run"):
        baseline_runs(runs, "repro", 3)


def test_a_drop_against_the_pooled_nights_is_flagged_and_an_unchanged_night_is_not():
    past = night("nightly-2026-11-28-a1", [True] * 9 + [False]) + night("nightly-2026-11-29-a1", [True] * 10)
    tonight = "nightly-2026-11-30-a1"
    dropped = trend_rows(past + night(tonight, [True] * 3 + [False] * 7), tonight, PARAMS)
    [row] = dropped.rows
    assert (row["test"], row["n"], row["successes"], row["baseline_n"], row["baseline_successes"]) == (
        "unpaired",
        10,
        3,
        20,
        19,
    )
    assert row["pairs"] == 0 and row["baseline_rate"] == pytest.approx(0.95)
    assert row["p_value"] == pytest.approx(fisher_less(3, 10, 19, 20), rel=1e-9)
    assert row["p_value"] < 0.001 and row["flag"] and dropped.flagged == [row]
    assert row["baseline_runs"] == "nightly-2026-11-28-a1 nightly-2026-11-29-a1" and row["night"] == date(2026, 11, 30)
    assert row["ci_low"] < 0.3 < row["ci_high"]  # tonight's Wilson interval holds its rate

    same = trend_rows(past + night(tonight, [True] * 9 + [False]), tonight, PARAMS)
    [row] = same.rows
    assert row["test"] == "unpaired" and row["p_value"] > 0.3 and not row["flag"] and same.flagged == []
    better = trend_rows(past + night(tonight, [True] * 10), tonight, PARAMS)
    assert better.rows[0]["p_value"] == pytest.approx(1.0) and not better.rows[0]["flag"]


def test_the_same_scenes_and_seeds_are_compared_pair_by_pair():
    """A night run again (same variants, seeds and scenes): exact McNemar on the pairs that changed."""
    before = night("nightly-2026-11-30-a1", [True] * 8 + [False] * 2, scene="same")
    after = night("nightly-2026-11-30-a2", [False] * 7 + [True] + [True, False], scene="same")
    [row] = trend_rows(before + after, "nightly-2026-11-30-a2", PARAMS).rows
    # 7 pairs went from success to failure, 1 the other way: P(X >= 7), X ~ Binomial(8, 1/2)
    assert (row["test"], row["pairs"], row["baseline_n"], row["baseline_successes"]) == ("paired", 10, 10, 8)
    assert row["p_value"] == pytest.approx((comb(8, 7) + comb(8, 8)) / 2**8)
    assert row["flag"]
    # 6 lost and 1 gained: P(X >= 6 of 7) = 0.0625, not below 0.05
    after = night("nightly-2026-11-30-a2", [False] * 6 + [True] * 2 + [True, False], scene="same")
    [row] = trend_rows(before + after, "nightly-2026-11-30-a2", PARAMS).rows
    assert row["p_value"] == pytest.approx((comb(7, 6) + comb(7, 7)) / 2**7) and not row["flag"]
    # the same episodes in other scenes (another night's variants): no pairs, the pooled test instead
    moved = night("nightly-2026-11-30-a1", [True] * 8 + [False] * 2)
    [row] = trend_rows(moved + after, "nightly-2026-11-30-a2", PARAMS).rows
    assert (row["test"], row["pairs"]) == ("unpaired", 0)
    assert row["p_value"] == pytest.approx(fisher_less(3, 10, 8, 10), rel=1e-9)  # 3 of 10 against 8 of 10


def test_the_latest_night_holding_a_pair_is_its_baseline():
    old = night("nightly-2026-11-29-a1", [False] * 6, scene="same")  # superseded by the re-run below
    rerun = night("nightly-2026-11-30-a1", [True] * 6, scene="same")
    now = night("nightly-2026-11-30-a2", [False] * 6, scene="same")
    [row] = trend_rows(old + rerun + now, "nightly-2026-11-30-a2", PARAMS).rows
    assert (row["test"], row["baseline_successes"], row["flag"]) == ("paired", 6, True)
    assert row["p_value"] == pytest.approx(1 / 2**6)


def test_too_few_episodes_are_shown_and_never_flagged():
    rows = night("nightly-2026-11-29-a1", [True] * 4) + night("nightly-2026-11-30-a1", [False] * 4)
    [row] = trend_rows(rows, "nightly-2026-11-30-a1", PARAMS).rows
    assert (row["test"], row["p_value"], row["p_adjusted"], row["flag"]) == ("none", None, None, False)
    assert row["baseline_rate"] == 1.0 and row["rate"] == 0.0
    [row] = trend_rows(night("nightly-2026-11-30-a1", [True] * 9), "nightly-2026-11-30-a1", PARAMS).rows
    assert (row["test"], row["baseline_rate"], row["baseline_runs"], row["flag"]) == ("none", None, "", False)


def test_the_nights_tests_are_adjusted_together():
    """One task's modest drop (raw p 0.03) among nine unchanged tasks: flagged alone, not after Benjamini-Hochberg
    over the ten tests; a drop as large as the first test's still is."""
    episodes = []
    for k in range(10):
        task = f"task{k}"
        tonight = [True] * 3 + [False] * 7 if k == 0 else [True] * 8 + [False] * 2
        episodes += night("nightly-2026-11-29-a1", [True] * 8 + [False] * 2, task)
        episodes += night("nightly-2026-11-30-a1", tonight, task)
    raw = TrendParams(nights=7, alpha=0.05, min_episodes=5, adjust="none")
    [first, *rest] = trend_rows(episodes, "nightly-2026-11-30-a1", raw).rows
    assert 0.01 < first["p_value"] < 0.05 and first["flag"] and first["p_adjusted"] == first["p_value"]
    assert not any(r["flag"] for r in rest)
    [first, *rest] = trend_rows(episodes, "nightly-2026-11-30-a1", PARAMS).rows
    assert first["p_adjusted"] == pytest.approx(min(1.0, first["p_value"] * 10)) and not first["flag"]
    big = [e | {"success": False} if e["run"].endswith("30-a1") and e["task"] == "task0" else e for e in episodes]
    assert trend_rows(big, "nightly-2026-11-30-a1", PARAMS).rows[0]["flag"]


def test_groups_and_history():
    """Policies, tasks, tracks and splits are compared apart; the history lists each night's rate per group."""
    before, tonight = "nightly-2026-11-29-a1", "nightly-2026-11-30-a1"
    a = night(before, [True] * 6, policy="a") + night(before, [False] * 6, policy="b")
    b = night(tonight, [False] * 6, policy="a") + night(tonight, [False] * 6, policy="b")
    trends = trend_rows(a + b, tonight, PARAMS)
    assert [(r["policy"], r["flag"]) for r in trends.rows] == [("a", True), ("b", False)]
    assert [(h["run"][8:18], h["policy"], h["successes"], h["n"]) for h in trends.history] == [
        ("2026-11-29", "a", 6, 6),
        ("2026-11-29", "b", 0, 6),
        ("2026-11-30", "a", 0, 6),
        ("2026-11-30", "b", 0, 6),
    ]
    assert trends.baseline == ["nightly-2026-11-29-a1"]
