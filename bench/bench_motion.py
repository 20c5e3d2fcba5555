"""Scripted episodes as ``bench_scripted.py`` runs them, one after another in this process, with the CPU
seconds of the IK solves, the arm planner's plans and its collision checks per episode (timers wrapped
round ``FetchIK.solve``, ``ArmPlanner.plan``, ``ArmScene.contacts`` and ``ArmScene.sync``).

    PYTHONPATH=$PWD python bench/bench_motion.py --tasks empty_basket toys_off_floor --variants 2 \
        --out runs/bench/motion.jsonl

One JSON line per episode (``bench_scripted``'s row plus ``cpu_s`` and ``timers``: seconds and calls);
a rerun skips what ``--out`` holds; prints ``bench_scripted``'s table and the mean times per episode.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_scripted  # noqa: E402

from housebench.paths import bench_rows  # noqa: E402
from housebench.planning.arm import ArmPlanner, ArmScene  # noqa: E402
from housebench.robot.kinematics import FetchIK  # noqa: E402

TIMERS: dict[str, float] = {}
TIMED = (
    (FetchIK, "solve", "ik"),
    (ArmPlanner, "plan", "plan"),
    (ArmScene, "contacts", "check"),
    (ArmScene, "sync", "sync"),
)


def timed(owner: type, name: str, key: str) -> None:
    """Wrap ``owner.name`` to add its CPU seconds and calls to ``TIMERS[key]`` / ``TIMERS[key + '_n']``."""
    fn = getattr(owner, name)

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        start = time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            TIMERS[key] = TIMERS.get(key, 0.0) + time.process_time() - start
            TIMERS[key + "_n"] = TIMERS.get(key + "_n", 0) + 1

    setattr(owner, name, wrapper)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", nargs="+", required=True)
    parser.add_argument("--variants", type=int, default=2)
    parser.add_argument("--out", type=Path, default=bench_rows("motion"))
    args = parser.parse_args()
    for owner, name, key in TIMED:
        timed(owner, name, key)
    done = set()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    if args.out.exists():
        done = {(r["task"], r["variant"]) for r in map(json.loads, args.out.read_text().splitlines())}
    todo = [
        j
        for j in bench_scripted.jobs(Path("."), args.tasks, args.variants, "scripted")
        if (j.task, j.variant) not in done
    ]
    todo.sort(key=lambda j: (j.variant, j.task))
    rows = []
    for job in todo:
        TIMERS.clear()
        cpu = time.process_time()
        row = bench_scripted.one(job)
        row["cpu_s"] = round(time.process_time() - cpu, 2)
        row["timers"] = {k: round(v, 3) for k, v in TIMERS.items()}
        rows.append(row)
        with args.out.open("a") as sink:
            sink.write(json.dumps(row) + "\n")
        print(row["task"], row["variant"], row["success"], row["failure"], row["cpu_s"], row["timers"], flush=True)
    print(bench_scripted.summary(rows))
    n = max(1, len(rows))
    for key in ("ik", "plan", "check", "sync"):
        total, calls = sum(r["timers"].get(key, 0.0) for r in rows), sum(r["timers"].get(key + "_n", 0) for r in rows)
        print(f"{key}: {total / n:.3f} CPU s / episode, {calls / n:.0f} calls / episode")
    print(f"episode: {sum(r['cpu_s'] for r in rows) / n:.1f} CPU s")


if __name__ == "__main__":
    main()
