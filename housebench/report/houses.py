"""The report's "Houses" section: the run's house set (``scenes/house/houses.json``: the houses that passed, the
held-out ones, and the bad houses left out with their reasons), the variants a procedural house could not hold
(``scenes/tasks/unsampled.json``) and, when the episodes ran in more than one house, success per house and policy
beside the control.

Shown only when there is something to say: more than one house in the episodes or the set, a bad house or an
unsampled variant (the default set, the grid house alone with none bad, adds nothing to the page).
:func:`summarize_houses` reads the episodes (before the connection closes), :func:`houses_html` writes the fragment.
"""

from __future__ import annotations

from html import escape
from typing import Any

import duckdb

from housebench.report.page import _ci, _col, _pct, table
from housebench.report.summary import _beside_control, _rate

QUERY = """
select track, house, policy, string_agg(distinct split, ', ' order by split) as splits, count(*) as episodes,
       count_if(success) as successes, avg(progress) as mean_progress, count_if(status = 'crash') as crashes,
       count(distinct task) as tasks, count(distinct task || '/' || variant) as variants
from episodes group by track, house, policy order by track, house, policy"""
RATES = [
    _col("track", "track"),
    _col("house", "house"),
    _col("splits", "splits"),
    _col("policy", "policy"),
    _col("episodes", "episodes"),
    _col("variants", "variants"),
    ("success", lambda r: _pct(r["success_rate"])),
    ("95% interval", _ci),
    ("control success", lambda r: _pct(r["control_success_rate"])),
    _col("mean_progress", "mean progress", lambda v: f"{v:.3f}"),
    _col("crashes", "crashes"),
]
BAD = [_col("id", "house"), _col("seed", "seed"), _col("reason", "why it is left out")]
UNSAMPLED = [_col("house", "house"), _col("task", "task"), _col("variant", "variant"), _col("reason", "why")]


def summarize_houses(con: duckdb.DuckDBPyConnection, control: str = "noop") -> list[dict[str, Any]]:
    """One row per track, house and policy: episodes, success with its 95% interval and the control's beside it."""
    relation = con.sql(QUERY)
    rows = [dict(zip(relation.columns, row)) for row in relation.fetchall()]
    for row in rows:
        _rate(row)
    _beside_control(rows, control, ("track", "house"))
    return rows


def _set_line(record: dict[str, Any]) -> str:
    houses = record.get("houses", [])
    named = ", ".join(f"{h['id']}{' (held out: test only)' if h.get('held_out') else ''}" for h in houses)
    return (
        f"<p>The benchmark's house set: {len(houses)} house{'s' * (len(houses) != 1)} that passed the access tests"
        f"{': ' + escape(named) if named else ''}; {len(record.get('bad', []))} bad house"
        f"{'s' * (len(record.get('bad', [])) != 1)} left out (below).</p>"
    )


def houses_html(rows: list[dict[str, Any]], record: dict[str, Any] | None) -> str:
    """The section's HTML, or "" when there is one house, no bad one and no unsampled variant (``record``:
    ``houses.json`` with ``unsampled``, :func:`housebench.report.inputs.house_record`; None when not given)."""
    record = record or {}
    bad, unsampled = record.get("bad", []), record.get("unsampled", [])
    if len({r["house"] for r in rows} | {h["id"] for h in record.get("houses", [])}) < 2 and not bad and not unsampled:
        return ""
    parts = ["<h2 id=houses>Houses</h2>"]
    if record:
        parts.append(_set_line(record))
    if len({r["house"] for r in rows}) > 1:
        parts += ["<h3>Success by house</h3>", table(rows, RATES)]
    parts += ["<h3 id=bad-houses>Bad houses</h3>", table(bad, BAD)]
    if unsampled:
        parts += [
            "<h3 id=unsampled>Variants a house could not hold</h3>",
            f"<p>{len(unsampled)} variants were not sampled (their tasks are missing from those houses' rates).</p>",
            table(unsampled, UNSAMPLED),
        ]
    return "\n".join(parts)
