"""The report as one self-contained HTML page (images inlined as data URIs, no external links)."""

from __future__ import annotations

import base64
from collections.abc import Callable, Sequence
from html import escape
from pathlib import Path
from typing import Any

CSS = """body{font:14px/1.4 system-ui,sans-serif;margin:2em auto;max-width:70em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:.2em .6em}
th{background:#f3f3f3}figure{display:inline-block;margin:0 1em 1em 0}
figure img{max-width:32em}figcaption{font-size:12px;color:#555}"""

Column = tuple[str, Callable[[dict[str, Any]], Any]]  # header, row -> cell value


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _num(value: float | None) -> str:
    return "" if value is None else f"{value:.3f}"


def table(rows: list[dict[str, Any]], columns: Sequence[Column]) -> str:
    """An HTML table of ``rows``, one column per ``(header, row -> cell value)``."""
    if not rows:
        return "<p><em>none</em></p>"
    head = "".join(f"<th>{escape(header)}</th>" for header, _ in columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(str(cell(row)))}</td>" for _, cell in columns) + "</tr>" for row in rows
    )
    return f"<table><tr>{head}</tr>{body}</table>"


def _col(key: str, header: str, fmt: Callable[[Any], Any] = lambda v: v) -> Column:
    return header, lambda row: fmt(row[key])


TASKS = [
    _col("task", "task"),
    _col("policy", "policy"),
    _col("episodes", "episodes"),
    _col("success_rate", "success", _pct),
    ("95% CI (Wilson)", lambda r: f"{_pct(r['ci_low'])} – {_pct(r['ci_high'])}"),
    _col("mean_progress", "mean progress", _num),
    _col("crashes", "crashes"),
    _col("mean_wall_s", "mean wall s", _num),
    _col("mean_sim_s", "mean sim s", _num),
]
BACKENDS = [*TASKS[:2], _col("backend", "backend"), *TASKS[2:-1]]
CONDITIONS = [
    _col("task", "task"),
    _col("policy", "policy"),
    _col("condition_index", "#"),
    _col("predicate", "predicate"),
    _col("items", "items"),
    _col("pass_rate", "pass rate", _pct),
]
FAILURES = [
    _col("status", "status"),
    _col("failure_reason", "reason"),
    _col("episodes", "episodes"),
]
CHOICES = [
    _col("task", "task"),
    _col("choice", "choice"),
    _col("value", "value"),
    _col("variants", "variants"),
]
RUNS = [
    _col("run", "run"),
    _col("episodes", "episodes"),
    _col("successes", "successes"),
    _col("first_start", "first start (UTC)", lambda t: t.isoformat()),
    _col("last_start", "last start (UTC)", lambda t: t.isoformat()),
    _col("code_commits", "code commits"),
    _col("backends", "backends"),
    _col("hosts", "hosts"),
    _col("scenes", "scenes"),
    _col("assets", "assets hashes"),
]


def _figure(path: Path, caption: str) -> str:
    data = base64.b64encode(Path(path).read_bytes()).decode()
    return (
        f'<figure><img alt="{escape(caption)}" src="data:image/png;base64,{data}">'
        f"<figcaption>{escape(caption)}</figcaption></figure>"
    )


def render(
    title: str,
    sections: dict[str, list[dict[str, Any]]],
    metrics: dict[str, Any],
    plots: Sequence[tuple[Path, str]],
    scenes: Sequence[Path],
) -> str:
    """The whole page: headline, summary per task and policy (and per physics engine, side by side, when
    the runs used more than one), plots, conditions, failures, the
    sampled variants' choices, provenance, and a gallery of pictures (scene previews, the asset sheet)
    captioned with the last three parts of their path, e.g. ``<task>/<variant>/preview.png``."""
    headline = (
        f"{metrics['episodes']} episodes in {metrics['runs']} run(s); success "
        f"{_pct(metrics['success_rate'])} (95% CI {_pct(metrics['success_ci_low'])} – "
        f"{_pct(metrics['success_ci_high'])}), mean progress "
        f"{_num(metrics['mean_progress'])}, crash rate {_pct(metrics['crash_rate'])}"
    )
    engines = {row["backend"] for row in sections["backends"]}
    by_backend = (
        ["<h2>The same tasks in each physics engine</h2>", table(sections["backends"], BACKENDS)]
        if len(engines) > 1
        else []
    )
    gallery = "".join(_figure(p, "/".join(Path(p).parts[-3:])) for p in scenes) or "<p><em>none</em></p>"
    parts = [
        f"<!doctype html><html lang=en><head><meta charset=utf-8><title>{escape(title)}</title>",
        f"<style>{CSS}</style></head><body><h1>{escape(title)}</h1><p>{escape(headline)}</p>",
        "<h2>Summary by task and policy</h2>",
        table(sections["tasks"], TASKS),
        *by_backend,
        "<h2>Plots</h2>",
        "".join(_figure(path, caption) for path, caption in plots),
        "<h2>Goal conditions</h2>",
        table(sections["conditions"], CONDITIONS),
        "<h2>Top failure reasons</h2>",
        table(sections["failures"], FAILURES),
        "<h2>Variant choices</h2>",
        table(sections["choices"], CHOICES),
        "<h2>Provenance</h2>",
        table(sections["runs"], RUNS),
        "<h2>Pictures</h2>",
        gallery,
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"
