"""Demonstrations: how fast they are made, how much disk they take, how exactly they replay.

Needs the built pipeline (``dvc repro annotate``). Generates ``--per-task`` successful scripted
demonstrations of each of ``--tasks`` (from the train split of params.yaml's ``splits``) through
:func:`housebench.demos.generate.generate`, into ``--store`` (kept: a rerun resumes), then reports:

- **rate**: successful demonstrations per core-hour, from every attempt's own CPU seconds (recorded in its
  meta.json: the process's, so a shared machine's load does not count; the renderer's threads do), failed
  attempts included;
- **disk**: MB per successful demonstration without video (frames.parquet + meta.json) and with the head
  video, and so GB per 1,000 demonstrations;
- **replay**: every recording replayed from its recorded state at step 0 and at its middle step (actuator
  targets): how many are bitwise and keep their verdict; and replayed open loop from the seed's reset by the
  env's action vector in float64 and in float32 (as the exported dataset stores it): the largest drift of
  any state value and of a prop's position, and how many keep their verdict.

    python bench/bench_demos.py [--root .] [--tasks t1 t2] [--per-task 3]
        [--images 160x120 | --images none] [--every 1] [--workers 1] [--store runs/bench/demos] [--no-replay]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from housebench.demos.generate import DemosParams, ImageParams, generate
from housebench.demos.recording import FRAMES, META, find_recordings, load_recording
from housebench.demos.replay import replay
from housebench.params import load_section
from housebench.paths import BENCH_RUNS, Layout
from housebench.rollout.plan import RolloutParams
from housebench.tasks.splits import SplitParams

MB = 1024**2


def disk(paths: list[Path]) -> dict:
    no_video = [(p / FRAMES).stat().st_size + (p / META).stat().st_size for p in paths]
    video = [sum(f.stat().st_size for f in p.glob("*.mp4")) for p in paths]
    n = max(1, len(paths))
    return {
        "mb_per_demo_no_video": sum(no_video) / n / MB,
        "mb_per_demo_video_only": sum(video) / n / MB,
        "mb_per_demo_with_video": (sum(no_video) + sum(video)) / n / MB,
    }


def replays(paths: list[Path], layout: Layout) -> dict:
    out = {"episodes": len(paths), "bitwise_start": 0, "bitwise_middle": 0, "verdict_start": 0, "verdict_middle": 0}
    for mode in ("env", "env32"):
        out.update({f"{mode}_verdict_holds": 0, f"{mode}_max_qpos_diff": 0.0, f"{mode}_max_object_pos_m": 0.0})
    for path in paths:
        rec = load_recording(path)
        for name, start in (("start", 0), ("middle", rec.steps // 2)):
            result = replay(rec, layout, start)
            out[f"bitwise_{name}"] += result.bitwise
            out[f"verdict_{name}"] += result.verdict_holds and result.progress == rec.meta["verdict"]["progress"]
        for mode in ("env", "env32"):
            result = replay(rec, layout, 0, restore_state=False, actions=mode)
            out[f"{mode}_verdict_holds"] += result.verdict_holds
            out[f"{mode}_max_qpos_diff"] = max(out[f"{mode}_max_qpos_diff"], result.max_qpos_diff)
            out[f"{mode}_max_object_pos_m"] = max(out[f"{mode}_max_object_pos_m"], result.max_object_pos_diff_m)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path("."))
    parser.add_argument("--tasks", nargs="+", default=["breakfast_setup", "arrange_drinks"])
    parser.add_argument("--per-task", type=int, default=3)
    parser.add_argument("--images", default="160x120")
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--store", type=Path, default=BENCH_RUNS / "demos")
    parser.add_argument("--no-replay", action="store_true")
    args = parser.parse_args()
    layout = Layout(root=args.root)
    images = None
    if args.images != "none":
        width, height = (int(v) for v in args.images.split("x"))
        images = ImageParams(width=width, height=height, every=args.every)
    params = DemosParams(
        policy="scripted",
        per_task=args.per_task,
        max_attempts=3 * args.per_task,
        seed=0,
        split="train",
        tasks=args.tasks,
        horizon_s=None,
        images=images,
        workers=args.workers,
        store=args.store,
    )
    rollout = load_section("rollout", RolloutParams, layout.at(Path("params.yaml")))
    splits = load_section("splits", SplitParams, layout.at(Path("params.yaml")))
    clock = time.perf_counter()
    chosen = generate(params, rollout, layout, splits, {"attempts": 3})
    wall = time.perf_counter() - clock
    demos = [p for paths in chosen.values() for p in paths]
    attempts = [p for p in find_recordings([layout.at(args.store)]) if p.parent.parent.name in args.tasks]
    metas = [json.loads((p / META).read_text()) for p in attempts]
    core_s = sum(m["cpu_s"] for m in metas)
    sim_s = sum(m["sim_s"] for m in metas)
    result = {
        "tasks": args.tasks,
        "images": args.images,
        "every": args.every,
        "attempts": len(metas),
        "successes": sum(m["success"] for m in metas),
        "demos": len(demos),
        "core_s": core_s,
        "sim_s": sim_s,
        "wall_s_this_run": wall,
        "demos_per_core_hour": sum(m["success"] for m in metas) / (core_s / 3600) if core_s else 0.0,
        "steps_per_demo": sum(m["steps"] for m in metas if m["success"]) / max(1, len(demos)),
        **disk(demos),
    }
    result["gb_per_1000_no_video"] = result["mb_per_demo_no_video"] * 1000 / 1024
    result["gb_per_1000_with_video"] = result["mb_per_demo_with_video"] * 1000 / 1024
    if not args.no_replay:
        result["replay"] = replays(attempts, layout)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
