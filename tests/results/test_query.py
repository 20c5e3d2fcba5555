"""DuckDB over the hive layout, directly and through ``housebench results query``."""

import duckdb
from click.testing import CliRunner

from housebench.cli import main


def test_duckdb_reads_the_hive_layout(results_dir):
    rows = duckdb.sql(f"""
        select run, count(*) as n, count_if(success) as ok
        from read_parquet('{results_dir}/episodes/**/*.parquet', hive_partitioning = true)
        group by run order by run""").fetchall()
    assert rows == [("nightly-2026-11-30", 12, 2), ("repro", 12, 2)]


def test_cli_query_joins_the_tables(results_dir):
    sql = (
        "select e.policy, count(*) as items from conditions c join episodes e "
        "using (run, episode_id) group by e.policy order by e.policy"
    )
    args = ["results", "query", "--results", str(results_dir), "--csv", sql]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert result.stdout == "policy,items\nnoop,30\nscripted,26\n"
    assert result.stderr == "runs read: nightly-2026-11-30, repro\n"  # it says which runs it read


def test_cli_query_reads_the_runs_asked_for(results_dir):
    args = ["results", "query", "--results", str(results_dir), "--run", "repro", "--csv"]
    result = CliRunner().invoke(main, [*args, "select count(*) as n from episodes"])
    assert result.exit_code == 0, result.output
    assert (result.stdout, result.stderr) == ("n\n12\n", "runs read: repro\n")


def test_cli_query_error_is_one_line(results_dir):
    result = CliRunner().invoke(main, ["results", "query", "--results", str(results_dir), "select nope from episodes"])
    assert result.exit_code == 1
    assert result.output.count("\n") == 1 and "nope" in result.output
