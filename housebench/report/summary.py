"""What the report says, computed with SQL over the results tables: summaries and flat metrics.

Success (every goal condition held at the end) and progress (partial credit along the goal's tree) are
kept apart everywhere; each policy is set beside the control (``noop``: the robot holds still), and an
interval too wide to tell a policy from the control is flagged.
"""

from __future__ import annotations

import math
from itertools import groupby
from typing import Any

import duckdb

Z95 = 1.959963984540054  # two-sided 95% normal quantile
WIDE = 0.3  # a 95% interval wider than this (30 points of rate) says little on its own
HELDOUT_PREFIX = "heldout-"  # the runs of flows/heldout.py: variants sampled from a seed outside the repository
SPLIT_ORDER = ("test", "val", "train")  # the split a published number must use comes first
# as housebench.policy.registry's (a test holds them equal): not imported, the report reads Parquet only
REMOTE_CLASS = "housebench.remote.client:RemotePolicy"  # a served policy whose server never answered
REMOTE_PREFIX = "remote:"  # a served policy: remote:<the class its server named>

QUERIES = {
    "policies": """
        select policy, string_agg(distinct track, ', ' order by track) as tracks, count(*) as episodes,
               count_if(success) as successes,
               avg(progress) as mean_progress, count_if(status = 'crash') as crashes,
               count(distinct task) as tasks, count(distinct task || '/' || variant) as variants,
               count(distinct seed) as seeds, min(sim_s) as min_sim_s, max(sim_s) as max_sim_s,
               min(horizon_s) as min_horizon_s, max(horizon_s) as max_horizon_s
        from episodes group by policy order by policy""",
    "tasks": """
        select track, task, policy, count(*) as episodes, count_if(success) as successes,
               avg(progress) as mean_progress, count_if(status = 'crash') as crashes,
               avg(wall_s) as mean_wall_s, max(sim_s) as max_sim_s
        from episodes group by track, task, policy order by track, task, policy""",
    # one table per track, split and source (a held-out run's variants were sampled from a seed outside the
    # repository: its test rows are never pooled with the repository's own test split)
    "leaderboard": f"""
        select track, split, starts_with(run, '{HELDOUT_PREFIX}') as heldout, policy,
               string_agg(distinct policy_class, ' ' order by policy_class) as policy_class,
               string_agg(distinct policy_version, ' ' order by policy_version) as policy_version,
               count(*) as episodes, count_if(success) as successes, avg(progress) as mean_progress,
               count_if(status = 'crash') as crashes, count(distinct task) as tasks,
               count(distinct task || '/' || variant) as variants, count(distinct seed) as seeds,
               string_agg(distinct run, ' ' order by run) as runs
        from episodes group by track, split, heldout, policy order by track, split, heldout, policy""",
    "policy_splits": f"""
        select policy, track, split, starts_with(run, '{HELDOUT_PREFIX}') as heldout,
               count(*) as episodes,
               count_if(success) as successes, avg(progress) as mean_progress,
               count_if(status = 'crash') as crashes
        from episodes group by all order by policy, track, split, heldout""",
    "backends": """
        select task, policy, backend || ' ' || backend_version as backend, count(*) as episodes,
               count_if(success) as successes, avg(progress) as mean_progress,
               count_if(status = 'crash') as crashes, avg(wall_s) as mean_wall_s
        from episodes group by all order by task, policy, backend""",
    "conditions": """
        select task, policy, condition_index, predicate, count(*) as items,
               avg(ok::int) as pass_rate
        from conditions group by all order by task, policy, condition_index, predicate""",
    "failures": """
        with judged as (select task, policy, count(*) as judged from episodes
                        where status <> 'crash' group by all)
        select task, policy, predicate, item, count(distinct (run, episode_id)) as failed, judged
        from conditions join judged using (task, policy)
        where not ok group by all order by task, policy, failed desc, predicate, item""",
    "crashes": """
        select task, policy, failure_reason, count(*) as episodes from episodes
        where status = 'crash' group by all order by episodes desc, task, policy, failure_reason""",
    "runs": """
        select run, count(*) as episodes, count_if(success) as successes,
               min(started_at) as first_start, max(started_at) as last_start,
               string_agg(distinct code_commit, ' ' order by code_commit) as code_commits,
               string_agg(distinct backend || ' ' || backend_version, ', '
                          order by backend || ' ' || backend_version) as backends,
               string_agg(distinct host, ' ' order by host) as hosts,
               count(distinct scene_hash) as scenes,
               string_agg(distinct left(assets_hash, 12), ' '
                          order by left(assets_hash, 12)) as assets
        from episodes group by run order by run""",
    "progress": "select track, task, policy, progress from episodes order by task, policy, track, progress",
    "skill_failures": """
        with failed as (
            select ep.task, ep.policy,
                   json_extract_string(ev.detail, '$.skill') as skill,
                   json_extract_string(ev.detail, '$.reason') as reason,
                   row_number() over (partition by ev.run, ev.episode_id order by ev.seq desc) as latest
            from events ev join episodes ep using (run, episode_id)
            where ev.kind = 'skill_end' and json_extract_string(ev.detail, '$.ok') = 'false' and not ep.success)
        select task, policy, skill, reason, count(*) as episodes from failed where latest = 1
        group by all order by episodes desc, task, policy, skill, reason""",
    "choices": """
        select task, choice, value, count(*) as variants from choices
        group by all order by task, choice, variants desc, value""",
    "episodes": """
        select run, episode_id, task, variant, seed, policy, status, progress, sim_s, failure_reason
        from episodes order by task, policy, variant, seed, run""",
    "episode_conditions": """
        select run, episode_id, condition_index, predicate, bool_and(ok) as ok,
               string_agg(item || ': ' || reason, '; ' order by item) filter (where not ok) as failed
        from conditions group by all order by run, episode_id, condition_index""",
    "episode_states": "select run, episode_id, final from states where final is not null order by run, episode_id",
    "episode_events": """
        select run, episode_id, seq, t_sim, kind, detail from events order by run, episode_id, seq""",
}


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion; ``(0, 1)`` when there are no trials."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return min(p, centre - half), max(p, centre + half)  # it always holds p; guard the rounding


def _rate(row: dict[str, Any]) -> None:
    row["success_rate"] = row["successes"] / row["episodes"]
    row["ci_low"], row["ci_high"] = wilson(row["successes"], row["episodes"])


NOTES = {  # the marks a rate may carry, each explained once under its table
    "wide": ("\u2020", f"interval wider than {100 * WIDE:.0f} points: too few episodes"),
    "overlap": ("\u2021", "intervals overlap the control's: not told apart"),
}


def _beside_control(rows: list[dict[str, Any]], control: str, key: tuple[str, ...]) -> None:
    """Each row gains the control's numbers for the same ``key``, ``marks`` (keys of :data:`NOTES`) flagging
    an interval too wide to read, or too close to the control's to tell the two apart, and ``note`` (them
    in words)."""
    controls = {tuple(r[k] for k in key): r for r in rows if r["policy"] == control}
    for row in rows:
        base = controls.get(tuple(row[k] for k in key))
        row["control_success_rate"] = base["success_rate"] if base else None
        row["control_ci_low"] = base["ci_low"] if base else None
        row["control_ci_high"] = base["ci_high"] if base else None
        row["control_progress"] = base["mean_progress"] if base else None
        marks = []
        if row["ci_high"] - row["ci_low"] > WIDE:
            marks.append("wide")
        if (
            base is not None
            and row is not base
            and row["ci_low"] <= base["ci_high"]
            and base["ci_low"] <= row["ci_high"]
        ):
            marks.append("overlap")
        row["marks"] = marks
        row["note"] = "; ".join(NOTES[m][1] for m in marks)


def policy_kind(class_path: str) -> str:
    """Where a policy comes from, read off its class path: ``remote`` (a policy server: ``remote:<its class>``),
    ``built-in`` (inside housebench) or ``imported`` (an import path or an entry point of another package)."""
    paths = set(class_path.split())
    remote = {p for p in paths if p == REMOTE_CLASS or p.startswith(REMOTE_PREFIX)}
    if remote == paths:
        return "remote"
    if all(p.startswith("housebench.") for p in paths):
        return "built-in"
    return "imported" if not remote else "mixed"


def _split_order(split: str) -> int:
    return SPLIT_ORDER.index(split) if split in SPLIT_ORDER else len(SPLIT_ORDER)


def _ranked(rows: list[dict[str, Any]], control: str) -> list[dict[str, Any]]:
    """Leaderboard rows grouped by (track, split, held-out), the test split first and each group ranked by
    success rate, then by its interval's lower bound; the control last in its group."""

    def key(r: dict[str, Any]) -> tuple:
        group = (r["track"], _split_order(r["split"]), r["split"], not r["heldout"])
        return group, r["policy"] == control, -r["success_rate"], -r["ci_low"], r["policy"]

    ranked = sorted(rows, key=key)
    for _, group in groupby(ranked, key=lambda r: key(r)[0]):
        rank = 0
        for row in group:
            rank += row["policy"] != control
            row["rank"] = rank if row["policy"] != control else None
    return ranked


def summarize(con: duckdb.DuckDBPyConnection, control: str = "noop") -> dict[str, list[dict[str, Any]]]:
    """Every report section as a list of row dicts; policy, task and leaderboard rows gain ``success_rate``,
    its 95% interval and the control's numbers beside them."""
    sections = {}
    for name, sql in QUERIES.items():
        relation = con.sql(sql)
        sections[name] = [dict(zip(relation.columns, row)) for row in relation.fetchall()]
    for name, key in (
        ("policies", ()),
        ("tasks", ("track", "task")),
        ("leaderboard", ("track", "split", "heldout")),
    ):
        for row in sections[name]:
            _rate(row)
        _beside_control(sections[name], control, key)
    for row in sections["leaderboard"]:
        row["kind"] = policy_kind(row["policy_class"])
    sections["leaderboard"] = _ranked(sections["leaderboard"], control)
    for name in ("backends", "policy_splits"):
        for row in sections[name]:
            _rate(row)
    return sections


def _r(value: float) -> float:
    return round(value, 6)


def _numbers(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "episodes": row["episodes"],
        "success_rate": _r(row["success_rate"]),
        "success_ci_low": _r(row["ci_low"]),
        "success_ci_high": _r(row["ci_high"]),
        "mean_progress": _r(row["mean_progress"]),
        "crash_rate": _r(row["crashes"] / row["episodes"]),
    }


def split_key(split: str, heldout: bool) -> str:
    """A split's name in the metrics: ``test``, ``val``, ``train``, or ``heldout_test`` for a held-out run's."""
    return f"heldout_{split}" if heldout else split or "none"


def metrics(sections: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """Metrics for ``dvc metrics show``, one short row per policy: episodes, success rate and its interval,
    mean progress, crash rate, and the same per track and split (``tracks.<track>.<split>``; per task
    numbers are the report's plots data)."""
    out = {row["policy"]: _numbers(row) for row in sections["policies"]}
    for row in sections["policy_splits"]:
        tracks = out[row["policy"]].setdefault("tracks", {})
        tracks.setdefault(row["track"], {})[split_key(row["split"], row["heldout"])] = _numbers(row)
    return out
