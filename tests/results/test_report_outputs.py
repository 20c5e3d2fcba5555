"""The report never replaces the results or a folder housebench did not make (issue 16)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from housebench.cli import main
from housebench.results.schema import ROLLOUT_TABLES


@pytest.mark.parametrize("out", ["results", ".", "results/episodes"])
def test_report_build_never_replaces_the_results(results_dir, monkeypatch, out):
    monkeypatch.chdir(results_dir.parent)
    before = sorted(results_dir.rglob("*.parquet"))
    result = CliRunner().invoke(main, ["report", "build", "--out", out])
    assert result.exit_code == 1 and result.output.count("\n") == 1, result.output
    assert f"{out}: output: " in result.output
    assert sorted(results_dir.rglob("*.parquet")) == before and len(before) == 2 * len(ROLLOUT_TABLES)


def test_report_build_refuses_a_foreign_folder_and_replaces_its_own(results_dir, tmp_path):
    out = tmp_path / "notes"
    out.mkdir()
    (out / "todo.md").write_text("x")
    args = ["report", "build", "--results", str(results_dir), "--out", str(out)]
    assert CliRunner().invoke(main, args).exit_code == 1 and (out / "todo.md").exists()
    assert CliRunner().invoke(main, [*args, "--force"]).exit_code == 0
    assert CliRunner().invoke(main, args).exit_code == 0 and (out / "index.html").is_file()
