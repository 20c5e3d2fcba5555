"""DVC stage ``report``: results Parquet -> ``results/report/`` and ``results/metrics.json``."""

from __future__ import annotations

from housebench.inputs import InputError
from housebench.io import write_json
from housebench.params import load_section
from housebench.paths import REPORT_DIR, RESULTS_DIR
from housebench.procs import die_with_parent
from housebench.report.build import build_report
from housebench.report.pictures import ReportParams, gallery

METRICS = RESULTS_DIR / "metrics.json"


def main() -> None:
    die_with_parent()  # killing dvc repro takes this stage and its workers with it
    params = load_section("report", ReportParams)
    try:
        scenes = gallery(params.scene_images)
        metrics = build_report(RESULTS_DIR, REPORT_DIR, scenes, title=params.title, runs=params.runs)
    except InputError as err:
        raise SystemExit(str(err)) from None
    write_json(METRICS, metrics)
    print(
        f"report: {metrics['episodes']} episodes, success rate {metrics['success_rate']:.3f}"
        f" -> {REPORT_DIR}/index.html, {METRICS}"
    )


if __name__ == "__main__":
    main()
