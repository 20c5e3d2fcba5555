"""Build the benchmark report from the results Parquet: ``index.html``, PNGs, plots data, metrics."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from housebench.io import atomic_dir, check_output, write_json
from housebench.report import page, plots
from housebench.report.houses import houses_html, summarize_houses
from housebench.report.phases import phases_html, summarize_phases
from housebench.report.pictures import check_picture
from housebench.report.summary import metrics, summarize
from housebench.report.trend_page import trends_html
from housebench.report.trends import Trends
from housebench.results.schema import SCHEMAS
from housebench.results.writer import connect

DEFAULT_TITLE = "housebench benchmark report"
PLOTS_DATA = {  # file -> the columns of the task rows it keeps (``dvc plots`` reads them)
    "success_by_task.csv": ("label", "task", "policy", "episodes", "success_rate", "ci_low", "ci_high"),
    "progress_by_task.csv": ("label", "task", "policy", "episodes", "mean_progress"),
}


def _write_csv(path: Path, rows: list[dict[str, Any]], columns: Sequence[str]) -> None:
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(columns)
        writer.writerows([[round(v, 6) if isinstance(v, float) else v for v in (r[c] for c in columns)] for r in rows])


def _by_track(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``rows`` for the plots: where the runs have more than one track, each policy is named with its track
    (``noop (vision)``), so one policy on two tracks is two bars, never one."""
    if len({r["track"] for r in rows}) < 2:
        return rows
    named = [{**r, "policy": f"{r['policy']} ({r['track']})"} for r in rows]
    return sorted(named, key=lambda r: (r["task"], r["policy"]))


def build_report(
    results_dir: Path,
    out_dir: Path,
    pictures: Sequence[Path | tuple[Path, str]] = (),
    title: str = DEFAULT_TITLE,
    runs: Sequence[str] | None = None,
    guard: bool = False,
    force: bool = False,
    control: str = "noop",
    assets: list[dict[str, Any]] | None = None,
    verification: dict[str, Any] | None = None,
    trends: Trends | None = None,
    houses: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Write the report for every run under ``results_dir`` (or only ``runs``) into ``out_dir``
    (replaced atomically).

    ``out_dir`` gets ``index.html`` (self-contained), ``success_by_task.png``, ``progress.png``, the
    plots data (``success_by_task.csv``, ``progress_by_task.csv``) and ``metrics.json`` (one entry per
    policy). ``pictures`` (PNG files, or ``(file, caption)``) fill the Pictures section; ``control`` is
    the policy every other is set beside; ``assets`` the asset health rows
    (:func:`housebench.report.assets.asset_health`). The same inputs give the same bytes. Returns
    the metrics. ``trends`` (a nightly run's comparison with the last nights) adds the ``#trends`` section and
    ``trends.png``, right after the summary; ``houses`` (the house set, ``scenes/house/houses.json``) the
    ``#houses`` section after it, when there are several houses or a bad one. ``out_dir`` may never hold a
    results table; ``guard`` and ``force`` as in :func:`housebench.io.check_output`.
    """
    tables = [Path(results_dir) / table for table in SCHEMAS]
    check_output(Path(out_dir), tables, guard, force)
    pictures = [(Path(p), "/".join(Path(p).parts[-3:])) if not isinstance(p, tuple) else p for p in pictures]
    for path, _ in pictures:
        check_picture(path)
    con = connect(results_dir, runs)
    sections = summarize(con, control)
    phase_rows = summarize_phases(con)
    house_rows = summarize_houses(con, control)
    con.close()
    summary = metrics(sections)
    tasks, progress = _by_track(sections["tasks"]), _by_track(sections["progress"])
    with atomic_dir(Path(out_dir), tables, guard, force) as tmp:
        figures = [
            (
                plots.success_by_task(tasks, tmp / "success_by_task.png"),
                "SUCCESS rate by task and policy: every goal condition held (95% Wilson interval)",
            ),
            (
                plots.progress_distribution(progress, tmp / "progress.png"),
                "PROGRESS per episode: partial credit, not success (each top-level condition weighs the same)",
            ),
            (
                plots.skill_failures(sections["skill_failures"], tmp / "skill_failures.png"),
                "Failing skill and measured reason (last failed skill of each unsuccessful episode)",
            ),
        ]
        phases = phases_html(phase_rows, tmp / "phases.png")
        lead = [trends_html(trends, tmp / "trends.png")] if trends is not None else []
        lead += [part for part in [houses_html(house_rows, houses)] if part]
        html = page.render(title, sections, control, figures, pictures, assets, verification, extra=[phases], lead=lead)
        (tmp / "index.html").write_text(html, encoding="utf-8")
        labelled = [{**r, "label": f"{r['task']} / {r['policy']}"} for r in tasks]
        for name, columns in PLOTS_DATA.items():
            _write_csv(tmp / name, labelled, columns)
        write_json(tmp / "metrics.json", summary)
    return summary
