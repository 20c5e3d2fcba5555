"""Rollout throughput: episodes per second on one worker against one worker per core, same jobs.

Needs the built pipeline (`dvc repro`). Run from the repo root:

    python bench/bench_rollout.py [--episodes 4]
"""

from __future__ import annotations

import argparse
import os
import time

from housebench.params import load_section
from housebench.paths import Layout
from housebench.rollout.batch import run_batch
from housebench.rollout.plan import RolloutParams, plan_jobs


def timed(jobs, workers: int) -> float:
    start = time.perf_counter()
    outcomes = run_batch(jobs, "local", workers=workers, progress=False)
    elapsed = time.perf_counter() - start
    assert not [o.crash for o in outcomes if o.crash], "a crashed episode makes the figure meaningless"
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=4, help="episodes per variant")
    args = parser.parse_args()
    params = load_section("rollout", RolloutParams, episodes_per_variant=args.episodes)
    jobs = plan_jobs("bench", params, Layout())
    cores = os.cpu_count() or 1
    timed(jobs[:1], 1)  # warm the compile cache so both sides load cached models
    serial, parallel = timed(jobs, 1), timed(jobs, cores)
    sim_s = params.horizon_s * len(jobs)
    print(f"{len(jobs)} episodes of {params.horizon_s} s sim, {cores} cores")
    print(f"1 worker:      {serial:6.2f} s  {len(jobs) / serial:6.2f} ep/s  {sim_s / serial:6.1f}x real time")
    print(
        f"{cores} workers:     {parallel:6.2f} s  {len(jobs) / parallel:6.2f} ep/s  {sim_s / parallel:6.1f}x real time"
    )
    print(f"speed-up: {serial / parallel:.2f}x")


if __name__ == "__main__":
    main()
