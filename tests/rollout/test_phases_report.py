"""The report's phase summary on tables registered directly: variants with different plans, crashed episodes
without phases, older runs without a phases table."""

from __future__ import annotations

import shutil

import duckdb
import pyarrow as pa

from housebench.report.phases import phases_html, summarize_phases
from housebench.results.schema import ROLLOUT_TABLES
from housebench.results.writer import connect, write_run


def _con(episodes: list[tuple[str, str, str]], phases: list[tuple[str, int, str, bool, float]]):
    """The two tables the summary reads, with only the columns it reads, in run ``r``."""

    def table(rows: list[tuple], names: tuple[str, ...]) -> pa.Table:
        return pa.table({"run": ["r"] * len(rows), **{k: [row[i] for row in rows] for i, k in enumerate(names)}})

    con = duckdb.connect()
    con.register("episodes", table(episodes, ("episode_id", "task", "policy")))
    con.register("phases", table(phases, ("episode_id", "phase", "verb", "reached", "time_s")))
    return con


def test_phases_are_counted_per_index_over_variants_and_the_first_missed_by_verb(tmp_path):
    con = _con(
        [("a", "t", "p"), ("b", "t", "p"), ("c", "t", "p"), ("d", "t", "p")],
        [
            ("a", 0, "navigate", True, 2.0),
            ("a", 1, "pick", True, 4.0),
            ("a", 2, "place", False, 9.0),
            ("b", 0, "navigate", True, 3.0),
            ("b", 1, "open", False, 5.0),
            ("c", 0, "navigate", True, 1.0),
            ("c", 1, "pick", True, 2.0),
            ("c", 2, "place", True, 3.0),
        ],  # d crashed before its first step: no phases
    )
    (row,) = summarize_phases(con)
    assert (row["episodes"], row["with_phases"]) == (4, 3)
    assert [(p["label"], p["episodes"], p["reached"], p["median_s"]) for p in row["phases"]] == [
        ("navigate", 3, 3, 2.0),
        ("pick|open", 3, 2, 3.0),
        ("place", 2, 1, 3.0),
    ]
    assert row["first_missed"] == {"place": 1, "open": 1, "(all reached)": 1}
    html = phases_html([row], tmp_path / "p.png")
    assert "1 pick|open 67% (3 s)" in html and "place 1, open 1, (all reached) 1" in html


def test_results_from_before_the_phases_table_read_it_empty(tmp_path):
    empty = {name: [] for name in ROLLOUT_TABLES}
    write_run(tmp_path, "old", empty)
    shutil.rmtree(tmp_path / "phases")  # as rolled out before the table existed
    con = connect(tmp_path)
    assert summarize_phases(con) == []
    assert "No phase rows" in phases_html([], tmp_path / "p.png")
