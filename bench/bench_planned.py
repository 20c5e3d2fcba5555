"""Planned subgraphs run end to end: the ``planned`` policy (symbolic planner + skill runtime) per task,
success with 95 % Wilson intervals, how far each plan got, and the first failing node with its
measured reason.

    PYTHONPATH=$PWD python bench/bench_planned.py --variants 1 --out runs/bench/planned.jsonl   # every task

Episodes run through :func:`housebench.rollout.episode.run_episode` (the rollout's own loop, the task's
evaluator at the end); one JSON line per episode goes to ``--out`` (appended).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from bench_scripted import jobs, wilson

from housebench.paths import bench_rows
from housebench.rollout.episode import run_episode


def one(job) -> dict:
    out = run_episode(job)
    plan = next((d for _, k, d in out.events if k == "plan"), {})
    top = [d for _, k, d in out.events if k == "node_post" and "." not in d["node"] and "/" not in d["node"]]
    failed = [d for _, k, d in out.events if k == "node_failed"]
    first = failed[0] if failed else {}
    return {
        "task": job.task,
        "variant": job.variant,
        "success": bool(out.verdict and out.verdict.success),
        "progress": out.verdict.progress if out.verdict else 0.0,
        "nodes": len(plan.get("nodes", [])),
        "nodes_ok": sum(d["ok"] for d in top),
        "failure": f"{first['verb']}:{first['stage']}:{','.join(first['failed'])}" if first else "",
        "crash": out.crash,
        "wall_s": round(out.wall_s, 2),
        "sim_s": round(out.sim_s, 2),
    }


def summary(rows: list[dict]) -> str:
    lines = ["| task | n | success | nodes done | wall s | sim s |", "|---|---|---|---|---|---|"]
    for row in sorted(rows, key=lambda r: (r["task"], r["variant"])):
        lines.append(
            f"| {row['task']} | 1 | {'yes' if row['success'] else 'no'} | {row['nodes_ok']}/{row['nodes']} "
            f"| {row['wall_s']:.0f} | {row['sim_s']:.0f} |"
        )
    k, n = sum(r["success"] for r in rows), len(rows)
    lo, hi = wilson(k, n)
    lines += ["", f"success {k}/{n} ({k / max(n, 1):.0%}, 95 % CI {lo:.0%} - {hi:.0%})", ""]
    failures = Counter(r["failure"] or ("crash" if r["crash"] else "goal unmet") for r in rows if not r["success"])
    lines += ["| first failing node (verb:stage:predicates) | episodes |", "|---|---|"]
    lines += [f"| {name} | {count} |" for name, count in failures.most_common()]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", nargs="*", default=[])
    parser.add_argument("--variants", type=int, default=1)
    parser.add_argument("--root", type=Path, default=Path("."))
    parser.add_argument("--out", type=Path, default=bench_rows("planned"))
    args = parser.parse_args()
    tasks = args.tasks or sorted(p.stem for p in (args.root / "tasks").glob("*.json"))
    rows = []
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("a") as sink:
        for job in jobs(args.root, tasks, args.variants, "planned"):
            rows.append(one(job))
            sink.write(json.dumps(rows[-1]) + "\n")
            sink.flush()
            print(json.dumps(rows[-1]), flush=True)
    print(summary(rows))


if __name__ == "__main__":
    main()
