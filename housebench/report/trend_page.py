"""The nightly report's "Tonight against the last nights" section (``#trends``): the rule in words, the trend
table's rows (regressions first) and the trend plot, from :class:`housebench.report.trends.Trends`."""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

from housebench.report import plots
from housebench.report.page import Column, figure, table
from housebench.report.trends import Trends


def _pct(value: float | None) -> str:
    return "" if value is None else f"{100 * value:.1f}%"


def _p(value: float | None) -> str:
    return "" if value is None else f"{value:.2g}"


def _baseline(r: dict[str, Any]) -> str:
    return f"{_pct(r['baseline_rate'])} ({r['baseline_successes']}/{r['baseline_n']})" if r["baseline_n"] else "none"


COLUMNS: list[Column] = [
    ("", lambda r: "REGRESSED" if r["flag"] else ""),
    ("task", lambda r: r["task"]),
    ("policy", lambda r: r["policy"]),
    ("track, split", lambda r: f"{r['track']}, {r['split']}"),
    ("tonight (successes/episodes)", lambda r: f"{_pct(r['rate'])} ({r['successes']}/{r['n']})"),
    ("tonight 95% CI (Wilson)", lambda r: f"{_pct(r['ci_low'])} – {_pct(r['ci_high'])}"),
    ("baseline (successes/episodes)", _baseline),
    ("test", lambda r: r["test"] + (f" ({r['pairs']} pairs)" if r["test"] == "paired" else "")),
    ("p (one-sided)", lambda r: _p(r["p_value"])),
    ("p adjusted", lambda r: _p(r["p_adjusted"])),
]


def trends_html(trends: Trends, path: Path) -> str:
    """The section: the rule, the rows (regressed first), the plot (written to ``path``, inlined)."""
    params, runs = trends.params, ", ".join(trends.baseline) or "none (no earlier night in these results)"
    head = (
        "<h2 id=trends>Tonight against the last nights</h2>"
        f"<p>Each task's success tonight beside the last {params.nights} nights ({escape(runs)}). Where tonight's "
        "episodes match earlier ones (the same variant, seed and scene: a night run again) the pairs are compared "
        "by the exact McNemar test; otherwise tonight's rate is set against the nights pooled by a one-sided "
        f"Fisher exact test. Fewer than {params.min_episodes} episodes on a side: not tested. The night's "
        f"p-values are adjusted together ({escape(params.adjust)}); a task is REGRESSED when its adjusted "
        f"p-value is below {params.alpha:g}.</p>"
    )
    flagged = trends.flagged
    verdict = (
        f"<p class=failed><b>{len(flagged)} regressed:</b> "
        + escape(", ".join(f"{r['task']} ({r['policy']})" for r in flagged))
        + "</p>"
        if flagged
        else "<p><b>No task regressed.</b></p>"
    )
    rows = sorted(trends.rows, key=lambda r: not r["flag"])  # regressions first, else the table's order
    plots.trends(trends.rows, trends.history, trends.run, path)
    caption = "Success by task: earlier nights (grey), the baseline (black tick), tonight with its 95% interval"
    return head + verdict + table(rows, COLUMNS) + figure(path, caption)
