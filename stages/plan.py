"""DVC stage ``plan``: the symbolic planner decomposes every task variant into a skill subgraph.

Reads ``params.yaml:plan``, ``scenes/tasks/*/*/task.json`` and ``annotations/scenes/``; writes
``scenes/plans/<task>/<variant>.json`` and ``scenes/plans/summary.json``. A variant the planner cannot
decompose is listed in the summary with its reason, and the stage exits 1 after writing everything.
"""

from __future__ import annotations

import sys

from housebench.params import load_section
from housebench.paths import Layout
from housebench.pipeline.plan import PlanParams, plan_all


def main() -> None:
    summary = plan_all(Layout(), load_section("plan", PlanParams))
    for name, row in summary["variants"].items():
        print(f"plan {name}: " + (f"{row['nodes']} nodes" if row["decomposed"] else f"FAILED {row['reason']}"))
    print(f"decomposed {summary['decomposed']:.1%} of the variants")
    if summary["decomposed"] < 1.0:
        sys.exit(1)


if __name__ == "__main__":
    main()
