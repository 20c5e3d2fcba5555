"""``housebench results query`` reads the results tables and nothing else (issue 16)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from housebench.cli import main
from housebench.results.writer import read_table


@pytest.mark.parametrize(
    "sql",
    [
        "copy (select 1 as a) to '{tmp}/written.csv'",  # a file write
        "copy episodes to '{tmp}/written.parquet' (format parquet)",
        "export database '{tmp}/written'",
        "attach '{tmp}/written.db' as elsewhere",  # a database created elsewhere
        "select * from read_csv('/etc/passwd')",  # other files read
        "select * from read_text('/etc/hostname')",
        "select * from glob('/root/*')",
        "select * from glob('{tmp}/*')",
        "select * from read_parquet('{tmp}/results/episodes/**/*.parquet')",
        "install httpfs",  # extensions
        "load httpfs",
        "install spatial from community",
        "set enable_external_access = true",  # the configuration is locked
        "set lock_configuration = false",
        "reset enable_external_access",
        "set temp_directory = '{tmp}/spill'",
        "set autoinstall_known_extensions = true",
    ],
)
def test_query_cannot_reach_outside_the_results(results_dir, tmp_path, sql):
    sql = sql.format(tmp=tmp_path)
    before = sorted(tmp_path.rglob("*"))
    result = CliRunner().invoke(main, ["results", "query", "--results", str(results_dir), sql])
    assert result.exit_code == 1, result.output
    assert result.output.count("\n") == 1 and "Traceback" not in result.output
    assert "root:" not in result.output
    assert sorted(tmp_path.rglob("*")) == before  # nothing written


def test_query_still_reads_every_table(results_dir):
    sql = "select (select count(*) from episodes), (select count(*) from events), (select count(*) from choices)"
    result = CliRunner().invoke(main, ["results", "query", "--results", str(results_dir), "--csv", sql])
    assert result.exit_code == 0, result.output
    counts = [read_table(results_dir, table).num_rows for table in ("episodes", "events", "choices")]
    assert result.stdout.splitlines()[1] == ",".join(map(str, counts)) and min(counts) > 0
