"""The report's figures as PNG files with stable bytes (Agg canvas, no software/date metadata)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from itertools import groupby
from pathlib import Path
from typing import Any

import matplotlib
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from housebench.report.text import LITERAL

STYLE = {"figure.dpi": 100, "font.size": 9, "axes.grid": True, "grid.alpha": 0.3, **LITERAL}


@contextmanager
def _axes(path: Path, rows: int = 4) -> Iterator[Axes]:
    """One plot drawn on an Agg canvas (whatever the global backend) and saved to ``path``; the
    figure grows with the number of ``rows`` (tasks) it lists."""
    with matplotlib.rc_context(STYLE):
        fig = Figure(figsize=(7.2, 1.4 + 0.32 * max(rows, 4)))
        FigureCanvasAgg(fig)
        yield fig.add_subplot()
        fig.tight_layout()
        fig.savefig(path, format="png", metadata={"Software": None})


def success_by_task(rows: list[dict[str, Any]], path: Path) -> Path:
    """Horizontal bars: success rate per task, one bar per policy, Wilson 95% intervals as error bars.
    Progress is drawn elsewhere (:func:`progress_distribution`), never on the success axis."""
    tasks = sorted({r["task"] for r in rows}, reverse=True)  # alphabetical from the top
    policies = sorted({r["policy"] for r in rows})
    height = 0.8 / max(len(policies), 1)
    with _axes(path, len(tasks)) as ax:
        for k, policy in enumerate(policies):
            mine = {r["task"]: r for r in rows if r["policy"] == policy}
            offset = (k - (len(policies) - 1) / 2) * height
            ys = [i + offset for i, task in enumerate(tasks) if task in mine]
            picked = [mine[task] for task in tasks if task in mine]
            errors = [
                [r["success_rate"] - r["ci_low"] for r in picked],
                [r["ci_high"] - r["success_rate"] for r in picked],
            ]
            ax.barh(ys, [r["success_rate"] for r in picked], height, xerr=errors, capsize=3, label=policy)
        ax.set_yticks(range(len(tasks)), tasks)
        ax.set(xlim=(0, 1.05), xlabel="success rate (every goal condition held), 95% Wilson CI")
        if policies:  # above the axes, where it covers neither the bars nor the axis label
            ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=4, fontsize=7, frameon=False)
    return path


def progress_distribution(rows: list[dict[str, Any]], path: Path) -> Path:
    """Box plot of episode progress in [0, 1], one box per task and policy (rows sorted)."""
    groups = groupby(rows, key=lambda r: (r["task"], r["policy"]))
    series = [(f"{task} / {policy}", [r["progress"] for r in group]) for (task, policy), group in groups][
        ::-1
    ]  # alphabetical from the top
    with _axes(path, len(series)) as ax:
        if series:
            labels, values = zip(*series)
            ax.boxplot(values, orientation="horizontal", tick_labels=labels, widths=0.6)
        ax.set(
            xlim=(-0.02, 1.02),
            xlabel="progress: partial credit along the goal, NOT success",
            title="Progress per episode (each top-level condition weighs the same)",
        )
    return path


def skill_failures(rows: list[dict[str, Any]], path: Path) -> Path:
    """Horizontal bars: unsuccessful episodes by their last failing skill and its measured reason."""
    counts: dict[str, int] = {}
    for r in rows:
        key = f"{r['policy']}: {r['skill']} / {r['reason']}"
        counts[key] = counts.get(key, 0) + r["episodes"]
    labels = sorted(counts, key=lambda k: (counts[k], k))
    with _axes(path, len(labels)) as ax:
        ax.barh(range(len(labels)), [counts[k] for k in labels], 0.6)
        ax.set_yticks(range(len(labels)), labels)
        ax.set(xlabel="failed episodes", title="Failing skill and measured reason")
    return path
