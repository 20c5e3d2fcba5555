"""bench/ holds the benchmark programs, RESULTS.md and its figures; their raw rows go under runs/bench/."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from housebench.paths import BENCH_RUNS, bench_rows
from tests.conftest import ROOT

FIGURES = (".png", ".svg")  # pictures RESULTS.md shows
PROGRAMS = (".py", ".sh")  # benchmark programs and the recipes that run them (device.sh)
# a rows file named in bench/ (bench/x.jsonl), not under runs/bench/
ROWS_IN_BENCH = re.compile(r"(?<![\w/])bench/[\w<>{},]+\.(?:jsonl|csv|parquet|json)\b")


def git(*args: str) -> list[str]:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout.splitlines()


def stray(paths: list[str]) -> list[str]:
    """The paths under bench/ that are neither a program, RESULTS.md nor a figure."""
    return [
        p
        for p in paths
        if not (p == "bench/RESULTS.md" or (p.endswith(PROGRAMS) and p.count("/") == 1) or p.endswith(FIGURES))
    ]


def test_bench_holds_programs_results_and_figures_only():
    # committed or about to be (a deletion not yet committed is on its way out)
    listed = [p for p in git("ls-files", "--cached", "--others", "--exclude-standard", "bench") if (ROOT / p).exists()]
    assert "bench/RESULTS.md" in listed
    assert stray(listed) == []


def test_the_rule_refuses_rows_tables_and_nested_files():
    kept = ["bench/RESULTS.md", "bench/bench_rollout.py", "bench/collision.png", "bench/figures/look.png"]
    rows = ["bench/scripted.jsonl", "bench/t.csv", "bench/e.parquet", "bench/old/bench_x.py", "bench/notes.txt"]
    assert stray(kept + rows) == rows


def test_rows_go_under_runs_bench_which_git_ignores():
    assert bench_rows("scripted20_stop27") == Path("runs/bench/scripted20_stop27.jsonl")
    assert bench_rows("x").parent == BENCH_RUNS
    ignored = git("check-ignore", "--no-index", str(bench_rows("scripted")), str(BENCH_RUNS / "look" / "a.json"))
    assert len(ignored) == 2


def test_no_program_or_doc_names_rows_in_bench():
    texts = [*sorted((ROOT / "bench").glob("*.py")), ROOT / "bench/RESULTS.md", ROOT / "README.md", ROOT / "DESIGN.md"]
    found = [f"{p.name}: {m}" for p in texts for m in ROWS_IN_BENCH.findall(p.read_text())]
    assert found == []
    cited = "rows in `bench/scripted.jsonl` and `runs/bench/look.jsonl`"
    assert ROWS_IN_BENCH.findall(cited) == ["bench/scripted.jsonl"]


def test_every_picture_results_shows_exists():
    text = (ROOT / "bench/RESULTS.md").read_text()
    shown = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert shown
    assert [s for s in shown if not (ROOT / "bench" / s).is_file()] == []
