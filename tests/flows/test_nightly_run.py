"""Running the same night twice keeps both: each run is a new attempt, in the run id and the workspace."""

from __future__ import annotations

from pathlib import Path

from flows.nightly import night_run
from housebench.paths import Layout


def test_each_run_of_a_night_is_a_new_attempt(tmp_path):
    assert night_run(tmp_path, "2026-11-30") == "nightly-2026-11-30-a1"
    (tmp_path / "results/episodes/run=nightly-2026-11-30-a1").mkdir(parents=True)
    (tmp_path / "results/episodes/run=nightly-2026-12-01-a7").mkdir(parents=True)  # another night
    assert night_run(tmp_path, "2026-11-30") == "nightly-2026-11-30-a2"
    (tmp_path / "runs/nightly/2026-11-30-a2").mkdir(parents=True)  # an attempt that failed before writing results
    assert night_run(tmp_path, "2026-11-30") == "nightly-2026-11-30-a3"
    layout = Layout.nightly(tmp_path, "nightly-2026-11-30-a3")
    assert layout.tasks_dir == Path("runs/nightly/2026-11-30-a3/tasks")
    assert layout.report_dir == Path("runs/nightly/2026-11-30-a3/report")
