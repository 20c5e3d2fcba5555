"""The report as one self-contained HTML page (images inlined as data URIs, no external links).

Sections carry stable ids (``#glance``, ``#tasks``, ``#failures``, ``#assets``, ``#episodes``, ...) so
a reader, or a browser test, can go straight to them.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Sequence
from html import escape
from itertools import groupby
from pathlib import Path
from typing import Any

from housebench.report.summary import NOTES

CSS = """body{font:14px/1.4 system-ui,sans-serif;margin:2em auto;max-width:74em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:.2em .6em;vertical-align:top}
th{background:#f3f3f3}figure{display:inline-block;margin:0 1em 1em 0;vertical-align:top}
figure img{max-width:32em}figcaption{font-size:12px;color:#555;max-width:32em}
.glance{border:2px solid #246;padding:.5em 1em;margin:1em 0;background:#f7f9fc}
.success{font-weight:bold}.progress{color:#666;font-style:italic}.flag{color:#a40}.failed{color:#a00}
details{margin:.2em 0}summary{cursor:pointer}
td.rate{white-space:nowrap}td.rate small{color:#555}svg.ci{vertical-align:middle;margin:0 .3em}
.mark{color:#a40;font-weight:bold}tr.control td{color:#666;background:#fafafa}p.legend{font-size:12px;color:#444}"""

Column = tuple[str, Callable[[dict[str, Any]], Any]]  # header, row -> cell value


def _pct(value: float | None) -> str:
    return "" if value is None else f"{100 * value:.1f}%"


def _num(value: float | None) -> str:
    return "" if value is None else f"{value:.3f}"


def _ci(row: dict[str, Any]) -> str:
    return f"{_pct(row['ci_low'])} – {_pct(row['ci_high'])}"


def table(rows: list[dict[str, Any]], columns: Sequence[Column], css: str = "") -> str:
    """An HTML table of ``rows``, one column per ``(header, row -> cell value)``."""
    if not rows:
        return "<p><em>none</em></p>"
    head = "".join(f"<th>{escape(header)}</th>" for header, _ in columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(str(cell(row)))}</td>" for _, cell in columns) + "</tr>" for row in rows
    )
    return f"<table{f' class={css}' if css else ''}><tr>{head}</tr>{body}</table>"


def _col(key: str, header: str, fmt: Callable[[Any], Any] = lambda v: v) -> Column:
    return header, lambda row: fmt(row[key])


def _role(control: str) -> Column:
    return "role", lambda r: "control" if r["policy"] == control else "policy"


BACKENDS = [
    _col("task", "task"),
    _col("policy", "policy"),
    _col("backend", "backend"),
    _col("episodes", "episodes"),
    ("SUCCESS (successes / episodes)", lambda r: f"{_pct(r['success_rate'])} ({r['successes']}/{r['episodes']})"),
    ("success 95% CI (Wilson)", _ci),
    _col("mean_progress", "progress (partial credit)", _num),
    _col("crashes", "crashes"),
]
CONDITIONS = [
    _col("task", "task"),
    _col("policy", "policy"),
    _col("condition_index", "#"),
    _col("predicate", "predicate"),
    _col("items", "items judged"),
    _col("pass_rate", "items that held", _pct),
]
FAILURES = [
    _col("task", "task"),
    _col("policy", "policy"),
    _col("predicate", "predicate"),
    _col("item", "item"),
    ("failed in", lambda r: f"{r['failed']} of {r['judged']} episodes"),
]
CRASHES = [
    _col("task", "task"),
    _col("policy", "policy"),
    _col("failure_reason", "reason"),
    _col("episodes", "episodes"),
]
SKILL_FAILURES = [
    _col("task", "task"),
    _col("policy", "policy"),
    _col("skill", "failing skill"),
    _col("reason", "measured reason"),
    _col("episodes", "failed episodes"),
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
ASSETS = [
    _col("name", "asset"),
    _col("verdict", "drop test"),
    _col("hulls", "hulls"),
    _col("method", "collider"),
    _col("detail", "what was measured / why"),
]
EPISODE_CONDITIONS = [
    _col("condition_index", "#"),
    _col("predicate", "predicate"),
    ("verdict", lambda r: "held" if r["ok"] else "FAILED"),
    _col("failed", "failed items (measured)", lambda v: v or ""),
]
EPISODE_EVENTS = [_col("seq", "#"), _col("t_sim", "sim s", _num), _col("kind", "kind"), _col("detail", "detail")]


BAR_W, BAR_H = 90, 12  # the interval bar, pixels: 0 to 100 % of success across


def ci_bar(lo: float, hi: float, rate: float, control: tuple[float, float] | None = None) -> str:
    """The 95% interval as a small inline SVG on 0-100 %: the interval in blue, a black tick at the rate, and
    the control's interval (when given) as a pale orange band behind it, so an overlap is seen at once."""
    band = ""
    if control is not None:
        c_lo, c_hi = control
        width = max(BAR_W * (c_hi - c_lo), 1)
        band = f'<rect x="{BAR_W * c_lo:.1f}" y="0" width="{width:.1f}" height="{BAR_H}" fill="#f6d5b8"/>'
    return (
        f'<svg class="ci" width="{BAR_W}" height="{BAR_H}" viewBox="0 0 {BAR_W} {BAR_H}" role="img">'
        f"<title>95% CI {_pct(lo)} – {_pct(hi)}</title>"
        f'<rect x="0" y="5" width="{BAR_W}" height="2" fill="#ddd"/>{band}'
        f'<rect x="{BAR_W * lo:.1f}" y="3" width="{max(BAR_W * (hi - lo), 1):.1f}" height="6" fill="#468"/>'
        f'<rect x="{max(BAR_W * rate - 0.75, 0):.1f}" y="1" width="1.5" height="{BAR_H - 2}" fill="#000"/></svg>'
    )


def _marks(row: dict[str, Any]) -> str:
    return "".join(f"<span class=mark>{NOTES[m][0]}</span>" for m in row["marks"])


def _legend(bar: str) -> str:
    """The marks and the bar explained once, under a table."""
    marks = " ".join(f"<span class=mark>{sign}</span> {escape(text)}." for sign, text in NOTES.values())
    return f"<p class=legend>{marks} {bar}</p>"


def _control_of(row: dict[str, Any]) -> tuple[float, float] | None:
    return None if row["control_ci_low"] is None else (row["control_ci_low"], row["control_ci_high"])


def raw_table(headers: Sequence[str], rows: list[list[str]], classes: Sequence[str] = ()) -> str:
    """An HTML table whose cells are HTML already (escaped by the caller); ``classes`` per row."""
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join(
        f"<tr{f' class={c}' if c else ''}>" + "".join(rows[k]) + "</tr>"
        for k, c in enumerate(list(classes) + [""] * (len(rows) - len(classes)))
    )
    return f"<table><tr>{head}</tr>{body}</table>"


def _split_title(row: dict[str, Any]) -> str:
    split = row["split"] or "no split"
    if row["heldout"]:
        return f"{split} split, held-out (variants sampled from a seed outside the repository)"
    return f"{split} split"


def leaderboard(rows: list[dict[str, Any]], control: str) -> str:
    """One table per track, split and source (summary's ``leaderboard`` rows, ranked): every policy of the
    runs, where it comes from (built-in, imported, remote), its success with the 95% interval drawn, n, mean
    progress and crashes, the control in the same table and its interval behind every bar."""
    if not rows:
        return "<p><em>none</em></p>"
    tracks = sorted({r["track"] for r in rows})
    parts = [
        "<p>Every policy of the runs, one table per observation track and split: a policy on the vision track "
        "is never ranked beside one on the state track"
        + (f" (this report has {len(tracks)} tracks: {', '.join(tracks)})" if len(tracks) > 1 else "")
        + ". A published number is the <b>test</b> split's, a held-out run's where there is one; train and "
        "val are for training and tuning. Ranked by success rate, then by its interval's lower bound; "
        f"<code>{escape(control)}</code>, the control, sits at the bottom of each table.</p>"
    ]
    for (track, split, heldout), group in groupby(rows, key=lambda r: (r["track"], r["split"], r["heldout"])):
        group = list(group)
        first = group[0]
        anchor = f"leaderboard-{track}-{split or 'none'}" + ("-heldout" if heldout else "")
        runs = sorted({run for r in group for run in r["runs"].split()})
        parts.append(
            f"<h3 id={escape(anchor)}>{escape(track)} track · {escape(_split_title(first))}</h3>"
            f"<p class=legend>{max(r['tasks'] for r in group)} tasks, {max(r['variants'] for r in group)} "
            f"variants; runs {escape(', '.join(runs))}</p>"
        )
        cells = []
        for r in group:
            version = f" {r['policy_version']}" if r["policy_version"] else ""
            is_control = r["policy"] == control
            cells.append(
                [
                    f"<td>{r['rank'] or ''}</td>",
                    f"<td><b>{escape(r['policy'])}</b>{' (control)' if is_control else ''}</td>",
                    f"<td>{escape(r['kind'])}</td>",
                    f"<td><code>{escape(r['policy_class'])}</code>{escape(version)}</td>",
                    f"<td>{r['episodes']}</td>",
                    f"<td class=rate><b>{_pct(r['success_rate'])}</b> <small>{r['successes']}/{r['episodes']}"
                    f"</small>{_marks(r)}</td>",
                    f"<td class=rate>{ci_bar(r['ci_low'], r['ci_high'], r['success_rate'], _control_of(r))}"
                    f"<small>{_ci(r)}</small></td>",
                    f"<td class=progress>{_num(r['mean_progress'])}</td>",
                    f"<td>{r['crashes']}</td>",
                ]
            )
        headers = ["#", "policy", "kind", "class (version)", "n", "success", "95% CI (Wilson)", "progress", "crashes"]
        parts.append(raw_table(headers, cells, ["control" if r["policy"] == control else "" for r in group]))
    parts.append(
        _legend(
            "Bar: success from 0 to 100 %, the interval in blue, the rate a black tick, the control's interval "
            "in the same table the pale band behind. Progress is partial credit, not success."
        )
    )
    return "".join(parts)


def task_matrix(rows: list[dict[str, Any]], control: str) -> str:
    """Success by task: one row per task, a column per policy (the control first), each cell the rate, n, the
    interval drawn, marks, mean progress and crashes; one table per track. The marks are explained once."""
    if not rows:
        return "<p><em>none</em></p>"
    parts = []
    tracks = sorted({r["track"] for r in rows})
    for track in tracks:
        mine = [r for r in rows if r["track"] == track]
        policies = sorted({r["policy"] for r in mine}, key=lambda p: (p != control, p))
        tasks = sorted({r["task"] for r in mine})
        by = {(r["task"], r["policy"]): r for r in mine}
        if len(tracks) > 1:
            parts.append(f"<h3 id=tasks-{escape(track)}>{escape(track)} track</h3>")
        cells = []
        for task in tasks:
            line = [f"<td>{escape(task)}</td>"]
            for policy in policies:
                r = by.get((task, policy))
                if r is None:
                    line.append("<td></td>")
                    continue
                crashed = f" <small class=flag>{r['crashes']} crashed</small>" if r["crashes"] else ""
                line.append(
                    f"<td class=rate><b>{_pct(r['success_rate'])}</b> <small>{r['successes']}/{r['episodes']}"
                    f"</small>{_marks(r)}<br>{ci_bar(r['ci_low'], r['ci_high'], r['success_rate'], _control_of(r))}"
                    f"<small class=progress>progress {_num(r['mean_progress'])}</small>{crashed}</td>"
                )
            cells.append(line)
        headers = ["task", *(f"{p} (control)" if p == control else p for p in policies)]
        parts.append(raw_table(headers, cells))
    parts.append(
        _legend(
            "Each cell: success rate, successes/episodes, the 95% Wilson interval as a bar on 0-100 % (the rate "
            "a black tick, the control's interval on the same task the pale band behind), mean progress "
            "(partial credit, not success)."
        )
    )
    return "".join(parts)


def figure(path: Path, caption: str) -> str:
    """A PNG inlined as a data URI, with its caption."""
    data = base64.b64encode(Path(path).read_bytes()).decode()
    return (
        f'<figure><img alt="{escape(caption)}" src="data:image/png;base64,{data}">'
        f"<figcaption>{escape(caption)}</figcaption></figure>"
    )


def _seconds(lo: float, hi: float) -> str:
    return f"{lo:g} s" if lo == hi else f"{lo:g}–{hi:g} s"


def glance(sections: dict[str, list[dict[str, Any]]], control: str) -> str:
    """The box at the top: per policy success (bold, with its interval) apart from progress (grey),
    what the control is, how many episodes and how long each ran."""
    policies = sections["policies"]
    lines = []
    for r in policies:
        role = "the control" if r["policy"] == control else "policy"
        role += f", {r['tracks']} track{'s' if ',' in r['tracks'] else ''}"
        note = f' <span class="flag">({escape(r["note"])})</span>' if r["note"] else ""
        lines.append(
            f"<li><b>{escape(r['policy'])}</b> ({role}): <span class=success>success {_pct(r['success_rate'])}"
            f" ({r['successes']} of {r['episodes']} episodes; 95% CI {_ci(r)})</span>{note}; "
            f"<span class=progress>progress {_num(r['mean_progress'])} (partial credit, not success)</span>; "
            f"{r['crashes']} crashed</li>"
        )
    n = sum(r["episodes"] for r in policies)
    horizon = (
        _seconds(min(r["min_horizon_s"] for r in policies), max(r["max_horizon_s"] for r in policies)) if n else ""
    )
    span = _seconds(min(r["min_sim_s"] for r in policies), max(r["max_sim_s"] for r in policies)) if n else ""
    shape = "; ".join(
        f"{escape(r['policy'])}: {r['tasks']} tasks, {r['variants']} variants, {r['seeds']} seeds" for r in policies
    )
    return (
        f"<div class=glance id=glance><h2>At a glance</h2><p>{n} episodes ({shape}); horizon {horizon} per "
        f"episode (the task's own); episodes ran {span} of simulated time.</p><ul>{''.join(lines)}</ul>"
        "<p><b>Success</b>: every goal condition held at the end of the episode. <b>Progress</b> is partial "
        "credit only: each top-level goal condition weighs the same (the share of its items that hold; an "
        "<code>any_of</code> counts once one term holds); an episode can make progress and still fail.</p>"
        f"<p><b>The control</b> (<code>{escape(control)}</code>) does nothing: the robot holds its start pose "
        "in the same scenes and seeds, until nothing in the scene has changed for 2 s (nothing can change after "
        "that, so its verdict is the horizon's). What it scores comes with the scene (parts that "
        "start closed, objects that start where the goal wants them); a policy is better only where it beats "
        "the control, and only where the two intervals do not overlap.</p></div>"
    )


def _state_text(final: str) -> str:
    """The final state as a reader needs it: objects (position, orientation), open parts, temperatures."""
    state = json.loads(final)
    lines = [
        f"{name}: pos {tuple(round(v, 3) for v in o['pos'])}, quat {tuple(round(v, 3) for v in o['quat'])}"
        for name, o in sorted(state.get("objects", {}).items())
    ]
    parts = {j: q for j, q in state.get("joints", {}).items() if not j.startswith("robot0:") and abs(q) > 1e-3}
    lines += [f"{j}: {q:.3f} from closed" for j, q in sorted(parts.items())] or ["every articulated part closed"]
    lines += [f"{n}: {t:.1f} C" for n, t in sorted(state.get("temperatures_c", {}).items())]
    return "\n".join(lines)


def _episodes(sections: dict[str, list[dict[str, Any]]]) -> str:
    """One collapsible block per episode: its verdict per condition, its events, its final state."""
    states = {(r["run"], r["episode_id"]): _state_text(r["final"]) for r in sections["episode_states"]}
    conds = {k: list(g) for k, g in groupby(sections["episode_conditions"], lambda r: (r["run"], r["episode_id"]))}
    events = {k: list(g) for k, g in groupby(sections["episode_events"], lambda r: (r["run"], r["episode_id"]))}
    blocks = []
    for e in sections["episodes"]:
        key = (e["run"], e["episode_id"])
        state = states.get(key)
        verdict = "SUCCESS" if e["status"] == "success" else e["status"].upper()
        blocks.append(
            f"<details><summary>{escape(e['episode_id'])} ({escape(e['run'])}): <b>{verdict}</b>, progress "
            f"{_num(e['progress'])}, {e['sim_s']:g} s</summary>"
            + (f"<p class=failed>{escape(e['failure_reason'])}</p>" if e["failure_reason"] else "")
            + table(conds.get(key, []), EPISODE_CONDITIONS)
            + "<p>Events</p>"
            + table(events.get(key, []), EPISODE_EVENTS)
            + (
                f"<p>Final state (whole: <code>housebench results state</code>)</p><pre>{escape(state)}</pre>"
                if state
                else ""
            )
            + "</details>"
        )
    return "".join(blocks) or "<p><em>none</em></p>"


VERIFICATION = [
    _col("verb", "verb"),
    _col("path", "path"),
    _col("scenario", "scenario"),
    _col("status", "status"),
    _col("reason", "measured reason"),
]


def verification_section(status: dict[str, Any] | None) -> str:
    """The skill verification stage's status table (``results/verification/status.json``), if given."""
    if status is None:
        return "<p>Skill verification was not given to this report.</p>"
    head = (
        f"verbs passed {status['verbs_passed']}/{status['verbs']} ({_pct(status['verb_rate'])}), "
        f"policy paths passed {status['paths_passed']}/{status['paths']} ({_pct(status['path_rate'])}); "
        f"skill library {status['library_version']}"
    )
    return f"<p>{escape(head)}</p>" + table(status["rows"], VERIFICATION)


def render(
    title: str,
    sections: dict[str, list[dict[str, Any]]],
    control: str,
    plots: Sequence[tuple[Path, str]],
    pictures: Sequence[tuple[Path, str]],
    assets: list[dict[str, Any]] | None = None,
    verification: dict[str, Any] | None = None,
    extra: Sequence[str] = (),
    lead: Sequence[str] = (),
) -> str:
    """The whole page: at a glance (then ``lead``: a nightly run's trends), success by task beside the control,
    plots, failures grouped by predicate and item (and, when the runs used more than one physics engine, the
    same tasks in each engine side by side), crashes, goal conditions, asset health, skill verification, the sampled
    variants' choices, provenance, pictures (captioned) and a drill-down per episode."""
    health = (
        "<p>Asset health was not given to this report.</p>"
        if assets is None
        else f"<p>{sum(a['verdict'] != 'passed' for a in assets)} of {len(assets)} assets failed.</p>"
        + table(assets, ASSETS)
    )
    engines = {row["backend"] for row in sections["backends"]}
    by_backend = (
        ["<h2 id=backends>The same tasks in each physics engine</h2>", table(sections["backends"], BACKENDS)]
        if len(engines) > 1
        else []
    )
    parts = [
        f"<!doctype html><html lang=en><head><meta charset=utf-8><title>{escape(title)}</title>",
        f"<style>{CSS}</style></head><body><h1>{escape(title)}</h1>",
        glance(sections, control),
        *lead,
        "<h2 id=leaderboard>Leaderboard</h2>",
        leaderboard(sections["leaderboard"], control),
        "<h2 id=tasks>Success by task, beside the control</h2>",
        task_matrix(sections["tasks"], control),
        *by_backend,
        "<h2 id=plots>Plots</h2>",
        "".join(figure(path, caption) for path, caption in plots),
        "<h2 id=failures>Why episodes failed: by predicate and item</h2>",
        "<p>Each row: a goal condition's item that did not hold, in how many of the judged (not crashed) "
        "episodes of that task and policy.</p>",
        table(sections["failures"], FAILURES),
        "<h2 id=crashes>Crashes</h2>",
        table(sections["crashes"], CRASHES),
        "<h2 id=conditions>Goal conditions</h2>",
        table(sections["conditions"], CONDITIONS),
        "<h2 id=assets>Asset health</h2>",
        health,
        "<h2 id=skills>Skill verification: each verb and policy path in physics</h2>",
        verification_section(verification),
        "<h2 id=skill-failures>Where skills fail</h2>"
        "<p>The last failed skill of each unsuccessful episode and its measured reason.</p>",
        table(sections["skill_failures"], SKILL_FAILURES),
        *extra,
        "<h2 id=choices>Variant choices</h2>",
        table(sections["choices"], CHOICES),
        "<h2 id=provenance>Provenance</h2>",
        table(sections["runs"], RUNS),
        "<h2 id=pictures>Pictures</h2>",
        "".join(figure(path, caption) for path, caption in pictures) or "<p><em>none</em></p>",
        "<h2 id=episodes>Episodes</h2>",
        _episodes(sections),
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"
