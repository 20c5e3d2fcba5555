"""The report's figures as PNG files with stable bytes (Agg canvas, no software/date metadata)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from itertools import groupby
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

STYLE = {"figure.dpi": 100, "font.size": 9, "axes.grid": True, "grid.alpha": 0.3}


@contextmanager
def _axes(path: Path) -> Iterator[Axes]:
    """One plot drawn on an Agg canvas (whatever the global backend) and saved to ``path``."""
    with matplotlib.rc_context(STYLE):
        fig = Figure(figsize=(6.4, 3.6))
        FigureCanvasAgg(fig)
        yield fig.add_subplot()
        fig.tight_layout()
        fig.savefig(path, format="png", metadata={"Software": None})


def success_by_task(rows: list[dict[str, Any]], path: Path) -> Path:
    """Grouped bars: success rate per task, one bar per policy, Wilson 95% intervals as errors."""
    tasks = sorted({r["task"] for r in rows})
    policies = sorted({r["policy"] for r in rows})
    width = 0.8 / max(len(policies), 1)
    with _axes(path) as ax:
        for k, policy in enumerate(policies):
            mine = {r["task"]: r for r in rows if r["policy"] == policy}
            offset = (k - (len(policies) - 1) / 2) * width
            xs = [i + offset for i, task in enumerate(tasks) if task in mine]
            picked = [mine[task] for task in tasks if task in mine]
            errors = [[r["success_rate"] - r["ci_low"] for r in picked],
                      [r["ci_high"] - r["success_rate"] for r in picked]]
            ax.bar(xs, [r["success_rate"] for r in picked], width, yerr=errors, capsize=3,
                   label=policy)
        ax.set_xticks(range(len(tasks)), tasks)
        ax.set(ylim=(0, 1.05), ylabel="success rate (95% Wilson CI)", title="Success rate by task")
        if policies:
            ax.legend(title="policy")
    return path


def progress_distribution(rows: list[dict[str, Any]], path: Path) -> Path:
    """Histogram of episode progress in [0, 1], one series per task and policy (rows sorted)."""
    groups = groupby(rows, key=lambda r: (r["task"], r["policy"]))
    series = [(f"{task} / {policy}", [r["progress"] for r in group])
              for (task, policy), group in groups]
    with _axes(path) as ax:
        if series:
            labels, values = zip(*series)
            ax.hist(values, bins=np.linspace(0, 1, 11), label=labels)
            ax.legend(fontsize=7)
        ax.set(xlim=(0, 1), xlabel="progress (satisfied goal items / all items)",
               ylabel="episodes", title="Progress distribution")
    return path
