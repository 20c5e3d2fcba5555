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
  any state value and of a prop's position, and how many keep their verdict (``--replay start``: only the
  replay from step 0);
- **LeRobot** (``--lerobot PYTHON``, LeRobot's environment): the demonstrations exported, opened with LeRobot's
  loader (``housebench/demos/check_lerobot.py``), and how many episodes match their recording (length, first and
  last frame of every vector feature, success).

    python bench/bench_demos.py [--root .] [--tasks t1 t2] [--per-task 3]
        [--images 160x120 | --images none] [--every 1] [--workers 1] [--store runs/bench/demos]
        [--replay all|start|none] [--lerobot .venv-lerobot/bin/python]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import time
from pathlib import Path

import numpy as np
from tqdm import tqdm

from housebench.demos.generate import DemosParams, ImageParams, generate
from housebench.demos.lerobot_v3 import export_lerobot, frame_arrays
from housebench.demos.recording import FRAMES, META, find_recordings, load_recording
from housebench.demos.replay import replay
from housebench.params import load_section
from housebench.paths import BENCH_RUNS, Layout
from housebench.rollout.plan import RolloutParams
from housebench.tasks.splits import SplitParams

MB = 1024**2
CHECK = Path(__file__).resolve().parents[1] / "housebench/demos/check_lerobot.py"


def disk(paths: list[Path]) -> dict:
    no_video = [(p / FRAMES).stat().st_size + (p / META).stat().st_size for p in paths]
    video = [sum(f.stat().st_size for f in p.glob("*.mp4")) for p in paths]
    n = max(1, len(paths))
    return {
        "mb_per_demo_no_video": sum(no_video) / n / MB,
        "mb_per_demo_video_only": sum(video) / n / MB,
        "mb_per_demo_with_video": (sum(no_video) + sum(video)) / n / MB,
    }


def replays(paths: list[Path], layout: Layout, only_start: bool = False) -> dict:
    out = {"episodes": len(paths), "bitwise_start": 0, "verdict_start": 0}
    if not only_start:
        out.update({"bitwise_middle": 0, "verdict_middle": 0})
        for mode in ("env", "env32"):
            out.update({f"{mode}_verdict_holds": 0, f"{mode}_max_qpos_diff": 0.0, f"{mode}_max_object_pos_m": 0.0})
    for path in tqdm(paths, desc="replay", unit="episode"):
        rec = load_recording(path)
        for name, start in (("start", 0), ("middle", rec.steps // 2))[: 1 if only_start else 2]:
            result = replay(rec, layout, start)
            out[f"bitwise_{name}"] += result.bitwise
            out[f"verdict_{name}"] += result.verdict_holds and result.progress == rec.meta["verdict"]["progress"]
        for mode in () if only_start else ("env", "env32"):
            result = replay(rec, layout, 0, restore_state=False, actions=mode)
            out[f"{mode}_verdict_holds"] += result.verdict_holds
            out[f"{mode}_max_qpos_diff"] = max(out[f"{mode}_max_qpos_diff"], result.max_qpos_diff)
            out[f"{mode}_max_object_pos_m"] = max(out[f"{mode}_max_object_pos_m"], result.max_object_pos_diff_m)
    return out


def lerobot_check(demos: list[Path], out: Path, python: str) -> dict:
    """Export ``demos`` to ``out``, open every dataset with LeRobot's loader in ``python``, and count the episodes
    whose length, first and last frames and success are their recording's."""
    shutil.rmtree(out, ignore_errors=True)
    written = export_lerobot(demos, out)
    proc = subprocess.run(
        [python, str(CHECK), *(w["path"] for w in written)], capture_output=True, text=True, check=True, timeout=3600
    )
    loaded = [json.loads(line) for line in proc.stdout.strip().splitlines()[-len(written) :]]
    recs = {}
    for path in demos:
        rec = load_recording(path)
        recs[rec.meta["task"], rec.meta["variant"], rec.meta["seed"]] = rec
    match = 0
    for dataset in loaded:
        for episode in dataset["per_episode"]:
            origin = episode["provenance"]
            rec = recs[origin["housebench/task"], origin["housebench/variant"], origin["housebench/seed"]]
            expected = frame_arrays(rec, "state")
            same = episode["length"] == len(expected["action"]) and episode["success"] == rec.success
            for key, values in expected.items():
                same &= np.array_equal(np.array(episode["first"][key], dtype=np.float32), values[0])
                same &= np.array_equal(np.array(episode["last"][key], dtype=np.float32), values[-1])
            match += bool(same)
    return {
        "datasets": len(loaded),
        "episodes": sum(d["episodes"] for d in loaded),
        "frames": sum(d["frames"] for d in loaded),
        "episodes_matching_their_recording": match,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path("."))
    parser.add_argument("--tasks", nargs="+", default=["breakfast_setup", "arrange_drinks"])
    parser.add_argument("--per-task", type=int, default=3)
    parser.add_argument("--images", default="160x120")
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--store", type=Path, default=BENCH_RUNS / "demos")
    parser.add_argument("--replay", choices=("all", "start", "none"), default="all")
    parser.add_argument("--lerobot", help="LeRobot's python: export the demonstrations and open them with its loader")
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
    if args.replay != "none":
        result["replay"] = replays(attempts, layout, only_start=args.replay == "start")
    if args.lerobot:
        result["lerobot"] = lerobot_check(demos, layout.at(args.store).with_name("demos-lerobot"), args.lerobot)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
