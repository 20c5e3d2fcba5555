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


def trends(rows: list[dict[str, Any]], history: list[dict[str, Any]], tonight: str, path: Path) -> Path:
    """One line per trend row (policy and task, tonight): each earlier night's success rate as a grey dot (darker
    the more recent), the baseline's pooled rate as a black tick, tonight's rate with its Wilson 95% interval,
    red where it regressed."""
    keys = ("policy", "track", "split", "task")
    several = len({(r["track"], r["split"]) for r in rows}) > 1
    labels = [f"{r['task']} / {r['policy']}" + (f" ({r['track']}, {r['split']})" if several else "") for r in rows]
    where = {tuple(r[k] for k in keys): len(rows) - 1 - i for i, r in enumerate(rows)}  # first row on top
    nights = sorted({h["run"] for h in history if h["run"] != tonight})
    with _axes(path, len(rows)) as ax:
        for k, run in enumerate(nights):
            past = [h for h in history if h["run"] == run and tuple(h[c] for c in keys) in where]
            shade = str(0.8 - 0.5 * (k + 1) / len(nights))  # grey: older nights lighter
            label = "earlier nights" if k == len(nights) - 1 else None
            ax.scatter(
                [h["rate"] for h in past],
                [where[tuple(h[c] for c in keys)] for h in past],
                s=14,
                color=shade,
                label=label,
            )
        based = [r for r in rows if r["baseline_rate"] is not None]
        ys = [where[tuple(r[k] for k in keys)] for r in based]
        ax.scatter(
            [r["baseline_rate"] for r in based], ys, s=160, color="k", marker="|", label="baseline (pooled or paired)"
        )
        for flagged, colour, label in ((False, "C0", "tonight, 95% Wilson CI"), (True, "C3", "tonight: REGRESSED")):
            mine = [r for r in rows if r["flag"] == flagged]
            if not mine:
                continue
            errors = [[r["rate"] - r["ci_low"] for r in mine], [r["ci_high"] - r["rate"] for r in mine]]
            y = [where[tuple(r[k] for k in keys)] for r in mine]
            ax.errorbar([r["rate"] for r in mine], y, xerr=errors, fmt="o", color=colour, capsize=3, label=label)
        ax.set_yticks(range(len(rows)), labels[::-1])
        ax.set(xlim=(-0.03, 1.03), xlabel="success rate (every goal condition held)")
        if rows:
            ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, fontsize=7, frameon=False)
    return path
