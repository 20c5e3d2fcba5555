"""Build the benchmark report from the results Parquet: ``index.html``, PNGs, ``metrics.json``."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from housebench.io import atomic_dir, check_output, write_json
from housebench.report import page, plots
from housebench.report.summary import metrics, summarize
from housebench.results.schema import SCHEMAS
from housebench.results.writer import connect

DEFAULT_TITLE = "housebench benchmark report"


def build_report(
    results_dir: Path,
    out_dir: Path,
    scene_images: Sequence[Path] = (),
    title: str = DEFAULT_TITLE,
    runs: Sequence[str] | None = None,
    guard: bool = False,
    force: bool = False,
) -> dict[str, Any]:
    """Write the report for every run under ``results_dir`` (or only ``runs``) into ``out_dir``
    (replaced atomically).

    ``out_dir`` gets ``index.html`` (self-contained), ``success_by_task.png``, ``progress.png`` and
    ``metrics.json``; ``scene_images`` (PNG files) fill the page's Pictures gallery. The same Parquet
    gives the same bytes. Returns the metrics. ``out_dir`` may never hold a results table; ``guard``
    and ``force`` as in :func:`housebench.io.check_output`.
    """
    tables = [Path(results_dir) / table for table in SCHEMAS]
    check_output(Path(out_dir), tables, guard, force)
    missing = [str(p) for p in scene_images if not Path(p).is_file()]
    if missing:
        raise FileNotFoundError(f"scene image not found: {missing[0]}")
    con = connect(results_dir, runs)
    sections = summarize(con)
    con.close()
    summary = metrics(sections)
    with atomic_dir(Path(out_dir), tables, guard, force) as tmp:
        figures = [
            (
                plots.success_by_task(sections["tasks"], tmp / "success_by_task.png"),
                "Success rate by task and policy (95% Wilson interval)",
            ),
            (
                plots.progress_distribution(sections["progress"], tmp / "progress.png"),
                "Distribution of episode progress",
            ),
        ]
        html = page.render(title, sections, summary, figures, [Path(p) for p in scene_images])
        (tmp / "index.html").write_text(html, encoding="utf-8")
        write_json(tmp / "metrics.json", summary)
    return summary
