"""What the report says, computed with SQL over the results tables: summaries and flat metrics."""

from __future__ import annotations

import math
from typing import Any

import duckdb

Z95 = 1.959963984540054  # two-sided 95% normal quantile

QUERIES = {
    "tasks": """
        select task, policy, count(*) as episodes, count_if(success) as successes,
               avg(progress) as mean_progress, count_if(status = 'crash') as crashes,
               avg(wall_s) as mean_wall_s, avg(sim_s) as mean_sim_s
        from episodes group by task, policy order by task, policy""",
    "backends": """
        select task, policy, backend || ' ' || backend_version as backend, count(*) as episodes,
               count_if(success) as successes, avg(progress) as mean_progress,
               count_if(status = 'crash') as crashes, avg(wall_s) as mean_wall_s
        from episodes group by all order by task, policy, backend""",
    "conditions": """
        select task, policy, condition_index, predicate, count(*) as items,
               avg(ok::int) as pass_rate
        from conditions join episodes using (run, episode_id, task, variant, seed)
        group by all order by task, policy, condition_index, predicate""",
    "failures": """
        select status, failure_reason, count(*) as episodes from episodes
        where status <> 'success' group by all
        order by episodes desc, status, failure_reason limit 10""",
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
    "choices": """
        select task, choice, value, count(*) as variants from choices
        group by all order by task, choice, variants desc, value""",
}


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion; ``(0, 1)`` when there are no trials."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return min(p, centre - half), max(p, centre + half)  # it always holds p; guard the rounding


def summarize(con: duckdb.DuckDBPyConnection) -> dict[str, list[dict[str, Any]]]:
    """Every report section as a list of row dicts; task rows gain ``success_rate`` and its CI."""
    sections = {}
    for name, sql in QUERIES.items():
        relation = con.sql(sql)
        sections[name] = [dict(zip(relation.columns, row)) for row in relation.fetchall()]
    for row in sections["tasks"] + sections["backends"]:
        row["success_rate"] = row["successes"] / row["episodes"]
        row["ci_low"], row["ci_high"] = wilson(row["successes"], row["episodes"])
    return sections


def metrics(sections: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """Metrics for ``dvc metrics show``: overall numbers and ``per_task.<task>.<policy>``."""
    rows = sections["tasks"]
    n = sum(r["episodes"] for r in rows)
    successes = sum(r["successes"] for r in rows)
    low, high = wilson(successes, n)

    def rate(value: float) -> float:
        return round(value, 6)

    per_task: dict[str, dict[str, Any]] = {}
    for r in rows:
        per_task.setdefault(r["task"], {})[r["policy"]] = {
            "episodes": r["episodes"],
            "success_rate": rate(r["success_rate"]),
            "mean_progress": rate(r["mean_progress"]),
            "crash_rate": rate(r["crashes"] / r["episodes"]),
        }
    return {
        "episodes": n,
        "runs": len(sections["runs"]),
        "success_rate": rate(successes / n) if n else 0.0,
        "success_ci_low": rate(low),
        "success_ci_high": rate(high),
        "mean_progress": rate(sum(r["mean_progress"] * r["episodes"] for r in rows) / n) if n else 0.0,
        "crash_rate": rate(sum(r["crashes"] for r in rows) / n) if n else 0.0,
        "per_task": per_task,
    }
