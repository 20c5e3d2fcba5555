"""How much the scripted policy's success depends on the physics engine: the same episodes (task, variant,
seed, pose noise) through the rollout's own loop in MuJoCo, in MuJoCo with the robot's 1 mm contact margin
at 0 (what Newton's MuJoCo solver runs under multi-contact CCD), and in Newton. One JSON row per episode
in ``--out`` (appended; ``--summary`` tabulates it without running): success per engine with Wilson 95 %
intervals, and the episodes whose verdict differs between engines. Needs the newton extra for ``newton``.

    python bench/bench_engines.py --tasks put_fruit_in_container heat_breakfast_preloaded --variants 2 \
        --engines mujoco mujoco-margin0 newton [--summary]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scripted import jobs, one, wilson  # noqa: E402

from housebench.paths import bench_rows  # noqa: E402

ENGINES = ("mujoco", "mujoco-margin0", "newton")


def _margin0() -> None:
    """The MuJoCo backend compiles the robot with every geom's contact margin at 0 (a fresh model cache)."""
    from housebench.sim.mujoco import compile as mj_compile

    spec = mj_compile.fetch_spec

    def fetch_spec(*args):
        robot = spec(*args)
        for geom in robot.geoms:
            geom.margin = 0.0
        return robot

    mj_compile.fetch_spec = fetch_spec
    os.environ["HOUSEBENCH_MJCF_CACHE"] = tempfile.mkdtemp(prefix="margin0-")


def summary(rows: list[dict]) -> str:
    engines = [e for e in ENGINES if any(r["engine"] == e for r in rows)]
    by_key: dict[tuple, dict[str, dict]] = {}
    for row in rows:
        by_key.setdefault((row["task"], row["variant"], row["seed"]), {})[row["engine"]] = row
    header = " | ".join(f"{e}: success [95 % CI]" for e in engines)
    lines = [f"| task | {header} |", "|---" * (1 + len(engines)) + "|"]
    for task in sorted({k[0] for k in by_key}):
        cells = []
        for engine in engines:
            group = [v[engine] for k, v in by_key.items() if k[0] == task and engine in v]
            n, k = len(group), sum(r["success"] for r in group)
            lo, hi = wilson(k, n) if n else (0.0, 0.0)
            cells.append(f"{k}/{n} [{lo:.0%}, {hi:.0%}]" if n else "-")
        lines.append(f"| {task} | " + " | ".join(cells) + " |")
    lines += ["", "| engine | same verdict as mujoco (episodes run on both) | differing episodes |", "|---|---|---|"]
    for engine in engines[1:]:
        both = {k: v for k, v in by_key.items() if engine in v and "mujoco" in v}
        differ = [k for k, v in both.items() if v[engine]["success"] != v["mujoco"]["success"]]
        names = ", ".join(f"{t}/{v} seed {s}" for t, v, s in differ) or "none"
        lines.append(f"| {engine} | {len(both) - len(differ)}/{len(both)} | {names} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", nargs="+", required=True)
    parser.add_argument("--variants", type=int, default=2)
    parser.add_argument("--engines", nargs="+", default=list(ENGINES), choices=ENGINES)
    parser.add_argument("--root", type=Path, default=Path("."))
    parser.add_argument("--out", type=Path, default=bench_rows("engines"))
    parser.add_argument("--summary", action="store_true", help="summarize --out, run nothing")
    args = parser.parse_args()
    if not args.summary:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        # margin0 patches the compiler for the rest of the process: it runs last
        for engine in sorted(args.engines, key=lambda e: e == "mujoco-margin0"):
            if engine == "mujoco-margin0":
                _margin0()
            for job in jobs(args.root, args.tasks, args.variants, "scripted"):
                job = dataclasses.replace(job, run="engines", backend="newton" if engine == "newton" else "mujoco")
                row = {"engine": engine, "seed": job.seed, **one(job)}
                print(json.dumps({k: row[k] for k in ("engine", "task", "variant", "success", "wall_s", "failure")}))
                with args.out.open("a") as f:
                    f.write(json.dumps(row) + "\n")
    rows = [json.loads(line) for line in args.out.read_text().splitlines()]
    print(summary([r for r in rows if r["task"] in args.tasks]))


if __name__ == "__main__":
    main()
