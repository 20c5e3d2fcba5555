"""Rollout throughput: whole episodes of a policy, the episode loop against raw ``mj_step``, 1 against 2 workers.

Needs the built pipeline (``dvc repro annotate``). Three measurements, in one run:

- **Overhead**: the longest episode of the plan run through :class:`housebench.rollout.env.Episode`
  (observations, thermal model, policy, verdict), against the same physics as bare ``mujoco.mj_step``
  calls on the same compiled model, from the same start state, replaying the control targets the
  episode's policy set at each control step. CPU seconds of this process (the machine is shared).
- **Episodes**: every planned job (every settled variant x ``--episodes`` seeds of ``--policy``) run in
  this process as one worker runs them: CPU seconds per episode by task, episodes per hour per core
  over the whole plan, and the wall clock.
- **Workers**: the same jobs through :func:`housebench.rollout.batch.run_batch` on 2 worker processes,
  wall clock (paying the processes' start-up), against the one-worker wall clock, with the machine's
  load average at the time; and the bound the plan itself sets: the jobs' own CPU seconds handed out
  in plan order to whichever of two workers is free first (what two idle cores would give).

Goals (issue 15): overhead at most 1.3x raw ``mj_step``; 2 workers at least 1.8x faster than 1.

    python bench/bench_rollout.py [--policy noop] [--episodes 1] [--tasks t1 t2] [--variants 4] [--horizon 400]
        [--write]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import time
from collections import defaultdict
from pathlib import Path

import mujoco

from housebench.params import load_section
from housebench.paths import Layout
from housebench.policy.registry import BUILTIN, make_policy, policy_entries
from housebench.rollout.batch import run_batch
from housebench.rollout.episode import EpisodeJob, context, run_episode
from housebench.rollout.plan import RolloutParams, plan_jobs

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "RESULTS.md"
SECTION = "## Rollout"


def overhead(job: EpisodeJob) -> dict:
    """CPU seconds of the episode loop and of raw ``mj_step`` replaying its control targets."""
    episode = job.open()
    policy = make_policy(job.policy, job.policy_entry)
    obs = episode.reset(job.seed)
    policy.reset(context(episode), obs)
    model, data = episode.sim.model, episode.sim.data
    raw = mujoco.MjData(model)
    mujoco.mj_copyData(raw, model, data)  # the whole start state, which bodies sleep included
    controls, act_s = [], 0.0
    clock = time.process_time()
    while not episode.done:
        tick = time.process_time()
        action = policy.act(obs)
        act_s += time.process_time() - tick
        obs = episode.step(action)
        controls.append(data.ctrl.copy())
    episode.verdict()
    loop_s = time.process_time() - clock
    clock = time.process_time()
    for ctrl in controls:
        raw.ctrl[:] = ctrl
        mujoco.mj_step(model, raw, episode.substeps)
    raw_s = time.process_time() - clock
    return {"job": f"{job.task}/{job.variant}", "sim_s": episode.time, "loop_s": loop_s, "act_s": act_s, "raw_s": raw_s}


def episodes(jobs: list[EpisodeJob]) -> tuple[dict[str, list[tuple[float, float]]], list[float], tuple[float, float]]:
    """Per task: (simulated s, CPU s) of each of its jobs run in this process; each job's CPU s; and the
    wall clock of them all with the load average after (one worker)."""
    by_task, costs, wall = defaultdict(list), [], time.perf_counter()
    for job in jobs:
        clock = time.process_time()
        outcome = run_episode(job)
        assert outcome.crash is None, outcome.crash
        costs.append(time.process_time() - clock)
        by_task[job.task].append((outcome.sim_s, costs[-1]))
    return by_task, costs, (time.perf_counter() - wall, os.getloadavg()[0])


def workers(jobs: list[EpisodeJob], n: int) -> tuple[float, float]:
    """Wall seconds of the jobs on ``n`` workers, and the 1-minute load average after."""
    clock = time.perf_counter()
    outcomes = run_batch(jobs, "local", workers=n, progress=False)
    assert not [o.crash for o in outcomes if o.crash], "a crashed episode makes the figure meaningless"
    return time.perf_counter() - clock, os.getloadavg()[0]


def schedule_bound(costs: list[float], n: int = 2) -> float:
    """Speed-up of ``n`` idle workers taking jobs of these costs in order, each the next job when free."""
    loads = [0.0] * n
    for cost in costs:
        loads[loads.index(min(loads))] += cost
    return sum(costs) / max(loads)


def report(policy: str, over: dict, by_task: dict, walls: dict[int, tuple[float, float]], bound: float) -> str:
    n_jobs = sum(len(runs) for runs in by_task.values())
    cpu = sum(c for runs in by_task.values() for _, c in runs)
    sim = sum(s for runs in by_task.values() for s, _ in runs)
    lines = [
        f"Policy `{policy}`, {n_jobs} episodes ({sim:.0f} s simulated).",
        "",
        "| measure | value |",
        "|---|---|",
        f"| overhead: episode loop / raw `mj_step` ({over['job']}, {over['sim_s']:.0f} s) | "
        f"**{over['loop_s'] / over['raw_s']:.2f}x** ({over['loop_s']:.2f} s against {over['raw_s']:.2f} s CPU; "
        f"policy.act {over['act_s']:.2f} s) |",
        f"| overhead without the policy's own computation | **{(over['loop_s'] - over['act_s']) / over['raw_s']:.2f}x**"
        " |",
        f"| episodes per hour per core (this plan, CPU time) | **{3600 * n_jobs / cpu:.0f}** |",
        f"| real-time factor of the episodes (CPU time) | {sim / cpu:.1f}x |",
        f"| 1 worker (this process), wall | {walls[1][0]:.1f} s (load average {walls[1][1]:.1f}) |",
        f"| 2 workers (spawned processes), wall | {walls[2][0]:.1f} s (load average {walls[2][1]:.1f}) |",
        f"| 2 workers against 1, measured | **{walls[1][0] / walls[2][0]:.2f}x** |",
        f"| 2 workers against 1, bound of the plan on two idle cores | {bound:.2f}x |",
        "",
        "| task | episodes | simulated s each | CPU s each | real-time x |",
        "|---|---|---|---|---|",
    ]
    for task, runs in sorted(by_task.items()):
        s, c = statistics.mean(s for s, _ in runs), statistics.mean(c for _, c in runs)
        lines.append(f"| {task} | {len(runs)} | {s:.0f} | {c:.2f} | {s / c:.0f} |")
    return "\n".join(lines)


INTRO = (
    "`bench/bench_rollout.py` (after `dvc repro`), one part per policy: the episode loop's overhead over raw "
    "`mj_step` on the same model replaying the same control targets, every planned episode in one process "
    "(CPU seconds: the development machine is shared), and the same jobs on two worker processes."
)


def write_section(policy: str, text: str) -> None:
    """Replace this policy's part of the Rollout section of RESULTS.md (other policies' parts stay)."""
    command = f"python bench/bench_rollout.py --policy {policy} --write"
    parts = {policy: f"### `{policy}`\n\n`{command}` ({time.strftime('%Y-%m-%d')}).\n\n{text}\n"}
    old = RESULTS.read_text()
    pattern = re.compile(rf"{re.escape(SECTION)}\n.*?(?=\n## |\Z)", re.S)
    found = pattern.search(old)
    if found:
        for match in re.finditer(r"(?s)### `([^`]+)`\n.*?(?=\n### |\Z)", found.group(0)):
            parts.setdefault(match.group(1), match.group(0).rstrip("\n") + "\n")
    section = f"{SECTION}\n\n{INTRO}\n\n" + "\n".join(parts[name] for name in sorted(parts))
    new = pattern.sub(lambda _: section.rstrip("\n") + "\n", old) if found else old.rstrip("\n") + "\n\n" + section
    RESULTS.write_text(new if new.endswith("\n") else new + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--policy", default="noop", choices=sorted(BUILTIN))
    parser.add_argument("--episodes", type=int, default=1, help="episodes per variant")
    parser.add_argument("--tasks", nargs="*", help="only these tasks (default: every settled task)")
    parser.add_argument("--horizon", type=float, help="horizon s of tasks that name none (default: rollout params')")
    parser.add_argument("--variants", type=int, help="only each task's first N variants (default: every one)")
    parser.add_argument("--write", action="store_true", help="update bench/RESULTS.md")
    args = parser.parse_args()
    overrides = {"episodes_per_variant": args.episodes, "policies": [args.policy]}
    params = load_section(
        "rollout", RolloutParams, **overrides, **({"horizon_s": args.horizon} if args.horizon else {})
    )
    jobs = [
        job
        for job in plan_jobs("bench", params, Layout(ROOT), policy_entries())
        if (not args.tasks or job.task in args.tasks) and (not args.variants or int(job.variant[1:]) < args.variants)
    ]
    for first in {job.scene: job for job in jobs}.values():
        first.open()  # fills the compiled-model cache: every pass below loads cached models
    over = overhead(max(jobs, key=lambda j: j.horizon_s))
    by_task, costs, serial = episodes(jobs)
    walls = {1: serial, 2: workers(jobs, 2)}
    text = report(args.policy, over, by_task, walls, schedule_bound(costs))
    print(text)
    if args.write:
        write_section(args.policy, text)


if __name__ == "__main__":
    main()
