"""``results query`` is bounded by rows, bytes and seconds; ``results state`` writes both states or none
(issue 33)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from housebench.cli import main
from housebench.results import query
from housebench.results.writer import read_table, write_run
from tests.security.conftest import records


def _query(results_dir, *args: str):
    return CliRunner().invoke(main, ["results", "query", "--results", str(results_dir), *args])


@pytest.mark.parametrize(
    ("sql", "needle"),
    [
        (f"select range from range({query.MAX_ROWS + 1})", f"more than {query.MAX_ROWS} rows"),
        ("select repeat('x', 1000) as text from range(200000)", f"over {query.MAX_BYTES >> 20} MB of result"),
    ],
    ids=["rows", "bytes"],
)
def test_a_result_over_its_limits_is_refused_not_printed(results_dir, sql, needle):
    result = _query(results_dir, sql)
    assert result.exit_code == 1 and result.output.count("\n") == 1, result.output[:300]
    assert needle in result.output


def test_a_query_stops_at_its_time_limit(results_dir):
    sql = "select count(*) from range(100000000) a, range(100000000) b"
    result = _query(results_dir, "--timeout-s", "1", sql)
    assert result.exit_code == 1 and "stopped after 1 s (--timeout-s)" in result.output, result.output


def test_a_query_within_the_limits_still_prints(results_dir):
    result = _query(results_dir, "--csv", "select count(*) as n from episodes")
    rows = read_table(results_dir, "episodes").num_rows
    assert result.exit_code == 0 and result.stdout.splitlines() == ["n", str(rows)]


def test_results_state_with_a_nan_is_one_line_and_writes_nothing(tmp_path, monkeypatch):
    found = records("repro")
    row = found["states"][0]
    row["final"] = row["final"].replace('"time": 10.0', '"time": NaN')
    assert "NaN" in row["final"]
    write_run(tmp_path / "results", "repro", found)
    monkeypatch.chdir(tmp_path)
    args = ["results", "state", "--results", "results", "--run", "repro", "--out", "state", row["episode_id"]]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1 and result.output.count("\n") == 1, result.output
    assert "final: NaN is not a number" in result.output
    assert not (tmp_path / "state").exists() and not list(tmp_path.glob(".state.tmp-*"))


def test_results_state_writes_both_states(results_dir, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    episode = read_table(results_dir, "states").column("episode_id")[0].as_py()
    args = ["results", "state", "--results", str(results_dir), "--run", "repro", "--out", "state", episode]
    for _ in range(2):  # its own output is replaced
        assert CliRunner().invoke(main, args).exit_code == 0
    written = sorted(p.name for p in (tmp_path / "state").iterdir())
    assert written == [".housebench-output", "final.json", "initial.json"]
