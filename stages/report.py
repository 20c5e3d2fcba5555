"""DVC stage ``report``: results Parquet -> ``results/report/`` and ``results/metrics.json``."""

from __future__ import annotations

from glob import glob
from pathlib import Path

from housebench.io import write_json
from housebench.params import load_keys
from housebench.paths import REPORT_DIR, RESULTS_DIR
from housebench.report.build import build_report

METRICS = RESULTS_DIR / "metrics.json"
VERIFICATION = RESULTS_DIR / "verification" / "status.json"  # the verify stage's status table


def main() -> None:
    params = load_keys("report", ("title", "scene_images", "runs"))
    scenes = sorted({Path(p) for pattern in params["scene_images"] for p in glob(pattern)})
    metrics = build_report(
        RESULTS_DIR,
        REPORT_DIR,
        scenes,
        title=params["title"],
        runs=params["runs"],
        verification=VERIFICATION if VERIFICATION.is_file() else None,
    )
    write_json(METRICS, metrics)
    print(
        f"report: {metrics['episodes']} episodes, success rate {metrics['success_rate']:.3f}"
        f" -> {REPORT_DIR}/index.html, {METRICS}"
    )


if __name__ == "__main__":
    main()
