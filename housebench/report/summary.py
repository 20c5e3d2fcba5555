"""What the report says, computed with SQL over the results tables: summaries and flat metrics.

Success (every goal condition held at the end) and progress (partial credit along the goal's tree) are
kept apart everywhere; each policy is set beside the control (``noop``: the robot holds still), and an
interval too wide to tell a policy from the control is flagged.
"""

from __future__ import annotations

import math
from typing import Any

import duckdb

Z95 = 1.959963984540054  # two-sided 95% normal quantile
WIDE = 0.3  # a 95% interval wider than this (30 points of rate) says little on its own

QUERIES = {
    "policies": """
        select policy, count(*) as episodes, count_if(success) as successes,
               avg(progress) as mean_progress, count_if(status = 'crash') as crashes,
               count(distinct task) as tasks, count(distinct task || '/' || variant) as variants,
               count(distinct seed) as seeds, min(sim_s) as min_sim_s, max(sim_s) as max_sim_s,
               min(horizon_s) as min_horizon_s, max(horizon_s) as max_horizon_s
        from episodes group by policy order by policy""",
    "tasks": """
        select task, policy, count(*) as episodes, count_if(success) as successes,
               avg(progress) as mean_progress, count_if(status = 'crash') as crashes,
               avg(wall_s) as mean_wall_s, max(sim_s) as max_sim_s
        from episodes group by task, policy order by task, policy""",
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
    "progress": "select task, policy, progress from episodes order by task, policy, progress",
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


def _beside_control(rows: list[dict[str, Any]], control: str, key: tuple[str, ...]) -> None:
    """Each row gains the control's numbers for the same ``key`` and a ``note`` flagging intervals
    too wide to read, or too close to the control's to tell the two apart."""
    controls = {tuple(r[k] for k in key): r for r in rows if r["policy"] == control}
    for row in rows:
        base = controls.get(tuple(row[k] for k in key))
        row["control_success_rate"] = base["success_rate"] if base else None
        row["control_progress"] = base["mean_progress"] if base else None
        notes = []
        if row["ci_high"] - row["ci_low"] > WIDE:
            notes.append(f"interval wider than {100 * WIDE:.0f} points: too few episodes")
        if (
            base is not None
            and row is not base
            and row["ci_low"] <= base["ci_high"]
            and base["ci_low"] <= row["ci_high"]
        ):
            notes.append("intervals overlap the control's: not told apart")
        row["note"] = "; ".join(notes)


def summarize(con: duckdb.DuckDBPyConnection, control: str = "noop") -> dict[str, list[dict[str, Any]]]:
    """Every report section as a list of row dicts; policy and task rows gain ``success_rate``, its
    95% interval and the control's numbers beside them."""
    sections = {}
    for name, sql in QUERIES.items():
        relation = con.sql(sql)
        sections[name] = [dict(zip(relation.columns, row)) for row in relation.fetchall()]
    for name, key in (("policies", ()), ("tasks", ("task",))):
        for row in sections[name]:
            _rate(row)
        _beside_control(sections[name], control, key)
    for row in sections["backends"]:
        _rate(row)
    return sections


def _r(value: float) -> float:
    return round(value, 6)


def metrics(sections: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """Metrics for ``dvc metrics show``, one short row per policy: episodes, success rate and its
    interval, mean progress, crash rate (per task numbers are the report's plots data)."""
    return {
        row["policy"]: {
            "episodes": row["episodes"],
            "success_rate": _r(row["success_rate"]),
            "success_ci_low": _r(row["ci_low"]),
            "success_ci_high": _r(row["ci_high"]),
            "mean_progress": _r(row["mean_progress"]),
            "crash_rate": _r(row["crashes"] / row["episodes"]),
        }
        for row in sections["policies"]
    }
