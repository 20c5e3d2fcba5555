"""How long the default ``dvc repro`` takes on this machine, from a fresh clone.

Every stage before the rollout is timed for real in a fresh clone of the committed tree (``git clone``,
this checkout's ``.venv`` linked in, ``dvc repro --single-item`` stage by stage, cold caches); the
rollout, which is nearly all of the time, is measured on a sample: every ``--every``-th of the rollout
stage's own jobs (all policies, the params' horizon and seeds), run on ``--workers`` worker processes
as the stage runs them, its wall clock scaled by the number of jobs; the report stage is timed on the
sample's results. Prints each stage's wall clock and the total, in minutes, and the episodes per hour
per core of each policy (the sample's episodes, one per worker process). Not included: creating the
virtual environment and ``pip install -e .`` (1.8 minutes on the development machine).

    python bench/bench_repro.py [--every 20] [--workers 2] [--keep]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
ROLLOUT = "rollout"


def stages(root: Path) -> list[str]:
    """The pipeline's stages in ``dvc.yaml`` order (the order they run in)."""
    return list(yaml.safe_load((root / "dvc.yaml").read_text())["stages"])


def timed(cmd: list[str], cwd: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


SAMPLE = """
import json, sys, time
from housebench.policy.registry import policy_entries
from housebench.params import load_params, load_section
from housebench.paths import RESULTS_DIR, Layout
from housebench.results.writer import write_run
from housebench.rollout.batch import run_batch
from housebench.rollout.plan import RolloutParams, plan_jobs
from housebench.rollout.records import records

if __name__ == "__main__":  # the spawned workers import this module again
    every, workers = int(sys.argv[1]), int(sys.argv[2])
    params = load_section("rollout", RolloutParams)
    jobs = plan_jobs("repro", params, Layout(), policy_entries())
    sample = jobs[::every]
    start = time.perf_counter()
    outcomes = run_batch(sample, params.executor, workers, progress=False, ray=params.ray)
    wall = time.perf_counter() - start
    write_run(RESULTS_DIR, "repro", records(outcomes))
    cpu = {}
    for o in outcomes:
        cpu.setdefault(o.job.policy, []).append(o.wall_s)
    print(json.dumps({"jobs": len(jobs), "sample": len(sample), "wall_s": wall, "episode_s": cpu}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=20, help="sample every N-th rollout job")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--keep", action="store_true", help="keep the clone (its path is printed)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench_repro_"))
    clone = work / "housebench"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    (clone / ".venv").symlink_to(ROOT / ".venv")
    env = {
        **os.environ,
        "PATH": f"{ROOT / '.venv' / 'bin'}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(clone),
        "MUJOCO_GL": os.environ.get("MUJOCO_GL", "egl"),
    }
    times: dict[str, float] = {}
    try:
        for stage in stages(clone):
            if stage == ROLLOUT:
                out = subprocess.run(
                    [sys.executable, "-c", SAMPLE, str(args.every), str(args.workers)],
                    cwd=clone,
                    env=env,
                    check=True,
                    capture_output=True,
                    text=True,
                ).stdout.splitlines()[-1]
                sample = json.loads(out)
                times[stage] = sample["wall_s"] * sample["jobs"] / sample["sample"]
            else:
                times[stage] = timed(["dvc", "repro", "--single-item", stage], clone, env)
            print(f"{stage}: {times[stage] / 60:.1f} min", flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    per_core = {policy: 3600 * len(walls) / sum(walls) for policy, walls in sample["episode_s"].items()}
    print()
    print(f"| stage | minutes ({os.cpu_count()} cores, {args.workers} rollout workers) |")
    print("|---|---|")
    for stage, seconds in times.items():
        how = f" (1 in {args.every} of {sample['jobs']} jobs, scaled)" if stage == ROLLOUT else ""
        print(f"| {stage}{how} | {seconds / 60:.1f} |")
    print(f"| **whole `dvc repro`** | **{sum(times.values()) / 60:.0f}** |")
    print()
    print("episodes per hour per core: " + ", ".join(f"{p} {n:.0f}" for p, n in sorted(per_core.items())))
    if args.keep:
        print(f"clone kept at {clone}")


if __name__ == "__main__":
    main()
