"""Scripted policy success per task over the built variants, with 95 % Wilson intervals, wall and
simulated time per episode, and the histogram of the failing skill and its measured reason.

    PYTHONPATH=$PWD python bench/bench_scripted.py --tasks put_fruit_in_container collect_fruits \
        --variants 20 --workers 2 --out runs/bench/scripted.jsonl

Episodes run through :func:`housebench.rollout.episode.run_episode` (the rollout's own loop); one JSON
line per episode goes to ``--out`` (appended; a rerun skips what it holds). Episodes go round robin over
the tasks (every task's v000, then every v001, ...), so a run cut short is balanced across tasks.
``--houses p100 p101`` runs those houses' variants (``p100_v000``; default: the grid house's);
``--only v003 v007`` reruns chosen variants; ``--summary`` prints the table of an existing ``--out``
without running anything.
"""

from __future__ import annotations

import argparse
import json
import math
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from housebench.paths import GRID, bench_rows
from housebench.pipeline.tasks import variant_name
from housebench.rollout.episode import EpisodeJob, EpisodeOutcome, run_episode

HORIZON_S = 400.0  # for tasks whose spec names none; the scripted policy stops when it is done


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of ``k`` successes in ``n``."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def first_failure(events: list) -> str:
    """``skill:reason`` of the last failed skill of the episode, or ``verb:stage`` of the last contract node that
    failed (the planned policy's; '' when none failed)."""
    failed = [
        f"{d['skill']}:{d['reason']}" if kind == "skill_end" else f"{d['verb']}:{d['stage']}"
        for _, kind, d in events
        if (kind == "skill_end" and not d.get("ok")) or kind == "node_failed"
    ]
    return failed[-1] if failed else ""


def one(job: EpisodeJob) -> dict:
    return row(job, run_episode(job))


def row(job: EpisodeJob, out: EpisodeOutcome) -> dict:
    """One JSON line of ``job``'s outcome ``out`` (also for outcomes the rollout stage ran)."""
    verdict = out.verdict
    return {
        "task": job.task,
        "variant": job.variant,
        "house": json.loads(job.task_file.read_text(encoding="utf-8")).get("house", GRID),
        "policy": job.policy,
        "success": bool(verdict and verdict.success),
        "progress": verdict.progress if verdict else 0.0,
        "wall_s": round(out.wall_s, 2),
        "sim_s": round(out.sim_s, 2),
        "crash": out.crash,
        "failure": first_failure(out.events),
        "failed_conditions": [
            f"{c.predicate}: {i.reason}" for c in (verdict.conditions if verdict else []) for i in c.items if not i.ok
        ][:4],
        "skills": [
            (round(t, 1), d["skill"], d["target"], d["reason"], d["detail"])
            for t, k, d in out.events
            if k == "skill_end"
        ],
    }


def jobs(
    root: Path,
    tasks: list[str],
    variants: int,
    policy: str,
    horizon_s: float = HORIZON_S,
    only: list[str] = (),
    seed: int | None = None,
    houses: list[str] = (GRID,),
) -> list[EpisodeJob]:
    out = []
    for task, house, k in ((t, h, k) for t in tasks for h in houses for k in range(variants)):
        variant = variant_name(house, k)
        if only and variant not in only:
            continue
        scene = root / "scenes/settled" / task / variant / "scene.usda"
        if not scene.exists():
            continue
        task_file = root / "scenes/tasks" / task / variant / "task.json"
        horizon = json.loads(task_file.read_text()).get("horizon_s") or horizon_s
        out.append(
            EpisodeJob(
                run="bench",
                task=task,
                variant=variant,
                seed=k if seed is None else seed,
                policy=policy,
                backend="mujoco",
                scene=scene,
                task_file=task_file,
                annotations=root / "annotations/scenes" / f"{task}__{variant}.json",
                horizon_s=horizon,
                control_dt=0.1,
                pose_noise_m=0.002,
            )
        )
    return out


def _rate_lines(rows: list[dict], key: str) -> list[str]:
    """Markdown rows by ``key`` (task or house): n, successes, rate [95 % interval], mean wall and sim s; then all."""
    lines = [
        f"| {key} | n | success | rate [95 % CI] | wall s / episode | sim s / episode |",
        "|---|---|---|---|---|---|",
    ]
    groups: dict[str, list[dict]] = {}
    for row in rows:
        groups.setdefault(row.get(key, "grid"), []).append(row)
    for name, group in [*sorted(groups.items()), ("all", rows)]:
        n, k = len(group), sum(r["success"] for r in group)
        lo, hi = wilson(k, n)
        wall = sum(r["wall_s"] for r in group) / n
        sim = sum(r["sim_s"] for r in group) / n
        lines.append(f"| {name} | {n} | {k} | {k / n:.0%} [{lo:.0%}, {hi:.0%}] | {wall:.1f} | {sim:.1f} |")
    return lines


def summary(rows: list[dict]) -> str:
    """Markdown tables: by task (and by house, when the rows hold more than one); then the failures."""
    if not rows:
        return "no episodes"
    lines = _rate_lines(rows, "task")
    if len({r.get("house", "grid") for r in rows}) > 1:
        lines += ["", *_rate_lines(rows, "house")]
    failures = Counter(r["failure"] or ("crash" if r["crash"] else "goal unmet") for r in rows if not r["success"])
    lines += ["", "| failing skill:reason | episodes |", "|---|---|"]
    lines += [f"| {name} | {count} |" for name, count in failures.most_common()]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", nargs="+", required=True)
    parser.add_argument("--variants", type=int, default=20)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--policy", default="scripted")
    parser.add_argument("--root", type=Path, default=Path("."))
    parser.add_argument("--out", type=Path, default=bench_rows("scripted"))
    parser.add_argument("--horizon", type=float, default=HORIZON_S, help="for tasks whose spec names none")
    parser.add_argument("--only", nargs="+", default=[], help="these variants only (v003 v007 ...)")
    parser.add_argument("--houses", nargs="+", default=[GRID], help="the houses' variants (grid, p100 ...)")
    parser.add_argument("--seed", type=int, help="every episode's seed (default: the variant's index; the rollout: 0)")
    parser.add_argument("--summary", action="store_true", help="summarize --out, run nothing")
    args = parser.parse_args()
    if args.summary:
        rows = [json.loads(line) for line in args.out.read_text().splitlines()]
        print(summary([r for r in rows if r["task"] in args.tasks and r["policy"] == args.policy]))
        return
    done = set()
    if args.out.exists():  # resume: skip episodes already measured
        rows = map(json.loads, args.out.read_text().splitlines())
        done = {(r["task"], r["variant"]) for r in rows if r["policy"] == args.policy}
    todo = [
        j
        for j in jobs(
            args.root, args.tasks, args.variants, args.policy, args.horizon, args.only, args.seed, args.houses
        )
        if (j.task, j.variant) not in done
    ]
    todo.sort(key=lambda j: (j.variant, j.task))  # round robin over tasks: a partial run stays balanced
    rows = []
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with ProcessPoolExecutor(args.workers) as pool, args.out.open("a") as sink:
        for row in pool.map(one, todo):
            rows.append(row)
            sink.write(json.dumps(row) + "\n")
            sink.flush()
            print(row["task"], row["variant"], row["success"], row["failure"], row["wall_s"], row["sim_s"], flush=True)
    print(summary(rows))


if __name__ == "__main__":
    main()
