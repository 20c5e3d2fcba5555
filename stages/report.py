"""DVC stage ``report``: results Parquet -> ``results/report/`` and ``results/metrics/<policy>.json``
(one small file per policy, so ``dvc metrics show`` prints one readable row each)."""

from __future__ import annotations

from housebench.inputs import InputError
from housebench.io import atomic_dir, write_json
from housebench.paths import REPORT_DIR, RESULTS_DIR
from housebench.procs import die_with_parent
from housebench.report.build import build_report
from housebench.report.inputs import report_inputs

METRICS = RESULTS_DIR / "metrics"


def main() -> None:
    die_with_parent()  # killing dvc repro takes this stage and its workers with it
    try:
        metrics = build_report(RESULTS_DIR, REPORT_DIR, **report_inputs())
    except InputError as err:
        raise SystemExit(str(err)) from None
    with atomic_dir(METRICS) as tmp:
        for policy, numbers in metrics.items():
            write_json(tmp / f"{policy}.json", numbers)
    for policy, m in metrics.items():
        print(f"report: {policy}: {m['episodes']} episodes, success rate {m['success_rate']:.3f}")
    print(f"-> {REPORT_DIR}/index.html, {METRICS}/")


if __name__ == "__main__":
    main()
