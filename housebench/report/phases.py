"""The report's "Where policies fail, by phase" section: from the ``phases`` table, per task and policy, the
share of episodes that reached each phase of the plan and the first phase each episode did not reach.

Phases come from the planner's chain for each variant (:mod:`housebench.rollout.phases`); variants of a task may
plan different chains, so a phase index is labelled with every verb it has across them (``pick|open``) and its
share counts the episodes whose plan has that phase. :func:`summarize_phases` reads the tables (before the
connection closes), :func:`phases_html` writes the figure and returns the HTML fragment.
"""

from __future__ import annotations

import base64
from collections import Counter
from html import escape
from itertools import groupby
from pathlib import Path
from statistics import median
from typing import Any

import duckdb
import matplotlib
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

ALL_REACHED = "(all reached)"
VERB_ORDER = ("navigate", "pick", "place", "insert", "stack", "lay", "lift", "open", "close", "heat", "chill", "goal")
PALETTE = [i for i in range(20) if i not in (4, 5)]  # tab20 without its greens: green is every phase reached
STYLE = {"figure.dpi": 100, "font.size": 9, "axes.grid": True, "grid.alpha": 0.3}
QUERY = """
select e.task, e.policy, p.run, p.episode_id, p.phase, p.verb, p.reached, p.time_s
from phases p join episodes e on e.run = p.run and e.episode_id = p.episode_id
order by e.task, e.policy, p.run, p.episode_id, p.phase
"""
EPISODES = "select task, policy, count(*) from episodes group by task, policy order by task, policy"


def summarize_phases(con: duckdb.DuckDBPyConnection) -> list[dict[str, Any]]:
    """One row per task and policy: ``episodes``, ``with_phases`` (episodes with phase rows), ``phases`` (per
    index: ``label``, ``episodes`` with that phase, ``reached``, ``share``, ``median_s`` spent in it when reached)
    and ``first_missed`` (verb of the first phase not reached -> episodes, ``(all reached)`` included)."""
    totals = {(task, policy): n for task, policy, n in con.execute(EPISODES).fetchall()}
    columns = ["task", "policy", "run", "episode_id", "phase", "verb", "reached", "time_s"]
    rows = [dict(zip(columns, r)) for r in con.execute(QUERY).fetchall()]
    out = []
    for (task, policy), group in groupby(rows, key=lambda r: (r["task"], r["policy"])):
        episodes = [list(e) for _, e in groupby(group, key=lambda r: (r["run"], r["episode_id"]))]
        by_index: dict[int, list[dict[str, Any]]] = {}
        missed: Counter[str] = Counter()
        for phases in episodes:
            for r in phases:
                by_index.setdefault(r["phase"], []).append(r)
            first = next((r for r in phases if not r["reached"]), None)
            missed[first["verb"] if first else ALL_REACHED] += 1
        per_phase = []
        for index in sorted(by_index):
            found = by_index[index]
            reached = [r for r in found if r["reached"]]
            per_phase.append(
                {
                    "index": index,
                    "label": "|".join(sorted({r["verb"] for r in found}, key=_verb_key)),
                    "episodes": len(found),
                    "reached": len(reached),
                    "share": len(reached) / len(found),
                    "median_s": median(r["time_s"] for r in reached) if reached else None,
                }
            )
        out.append(
            {
                "task": task,
                "policy": policy,
                "episodes": totals.get((task, policy), len(episodes)),
                "with_phases": len(episodes),
                "phases": per_phase,
                "first_missed": dict(sorted(missed.items(), key=lambda kv: _verb_key(kv[0]))),
            }
        )
    return out


def _verb_key(verb: str) -> tuple[int, str]:
    return (VERB_ORDER.index(verb) if verb in VERB_ORDER else len(VERB_ORDER) + (verb == ALL_REACHED), verb)


def plot_first_missed(rows: list[dict[str, Any]], path: Path) -> Path:
    """Stacked horizontal bars, one per task and policy: the share of its episodes by the first phase they did
    not reach (by verb), the last segment those that reached every phase."""
    labels = [f"{r['task']} / {r['policy']}" for r in rows][::-1]  # alphabetical from the top
    verbs = sorted({v for r in rows for v in r["first_missed"]}, key=_verb_key)
    colours = matplotlib.colormaps["tab20"]
    with matplotlib.rc_context(STYLE):
        fig = Figure(figsize=(7.2, 1.4 + 0.32 * max(len(rows), 4)))
        FigureCanvasAgg(fig)
        ax = fig.add_subplot()
        left = [0.0] * len(rows)
        for verb in verbs:
            shares = [r["first_missed"].get(verb, 0) / max(r["with_phases"], 1) for r in rows][::-1]
            colour = "#8c8" if verb == ALL_REACHED else colours(PALETTE[_verb_key(verb)[0] % len(PALETTE)])
            ax.barh(range(len(rows)), shares, 0.7, left=left, label=verb, color=colour)
            left = [a + b for a, b in zip(left, shares)]
        ax.set_yticks(range(len(rows)), labels)
        ax.set(xlim=(0, 1.0), xlabel="share of episodes, by the first phase not reached")
        if verbs:
            ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=6, fontsize=7, frameon=False)
        fig.tight_layout()
        fig.savefig(path, format="png", metadata={"Software": None})
    return path


def _reached(row: dict[str, Any]) -> str:
    return " → ".join(
        f"{p['index']} {p['label']} {100 * p['share']:.0f}%"
        + (f" ({p['median_s']:.0f} s)" if p["median_s"] is not None else "")
        for p in row["phases"]
    )


def _missed(row: dict[str, Any]) -> str:
    return ", ".join(f"{verb} {n}" for verb, n in row["first_missed"].items())


def phases_html(rows: list[dict[str, Any]], figure: Path) -> str:
    """The section (``#phases``): what a phase is, the table, the figure (written to ``figure``, inlined)."""
    head = (
        "<h2 id=phases>Where policies fail, by phase</h2>"
        "<p>The phases of an episode are the planner's skill calls for its variant's goal (navigate → pick → "
        "navigate → place ...), judged on the simulator's ground truth whatever the policy logs or is shown; a "
        "phase is reached when its skill's postconditions hold after the earlier phases acting on the same thing. "
        "Per phase: the share of episodes that reached it (median simulated seconds spent in it when reached); "
        "then how many episodes first missed each kind of phase.</p>"
    )
    if not rows:
        return head + "<p><em>No phase rows in these runs (rolled out before phases were recorded).</em></p>"
    cells = [(r["task"], r["policy"], f"{r['with_phases']}/{r['episodes']}", _reached(r), _missed(r)) for r in rows]
    header = ("task", "policy", "episodes with phases", "reached, per phase (median s in it)", "first phase missed")
    table = (
        "<table><tr>"
        + "".join(f"<th>{escape(h)}</th>" for h in header)
        + "</tr>"
        + "".join("<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in row) + "</tr>" for row in cells)
        + "</table>"
    )
    plot_first_missed(rows, figure)
    caption = "Episodes by the first phase they did not reach (green: every phase reached)"
    data = base64.b64encode(figure.read_bytes()).decode()
    img = (
        f'<figure><img alt="{escape(caption)}" src="data:image/png;base64,{data}">'
        f"<figcaption>{escape(caption)}</figcaption></figure>"
    )
    return head + table + img
