"""The phase monitor's cost, and the phases a scripted episode reaches, per task.

Needs the built pipeline (``dvc repro annotate``). For each task's variant (``v000`` by default) one episode of
``--policy`` runs through :func:`housebench.rollout.episode.play` with two monitors on the same trajectory: the
rollout's (judging every :data:`~housebench.rollout.phases.EVERY` control steps) and one judging every step.
Measured in CPU seconds of this process (the machine is shared): planning the phases, each monitor's time in
the step hook per control step and per judgement, against the whole loop's per control step; and what the
episode reached (every phase, or the first it missed) beside its verdict.

    python bench/bench_phases.py [--tasks t1 t2] [--variant v000] [--policy scripted] [--write]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from housebench.params import load_section
from housebench.paths import Layout, bench_rows
from housebench.policy.registry import make_policy, policy_entries
from housebench.rollout.episode import play
from housebench.rollout.phases import EVERY, PhaseMonitor, plan_phases
from housebench.rollout.plan import RolloutParams, plan_jobs

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "RESULTS.md"
SECTION = "## Phases: the monitor's cost"
TASKS = ("stack_blocks", "put_fruit_in_container", "lay_bottle_down", "tidy_toys", "chill_drink", "clear_shelf")


class Timed:
    """A monitor's step hook with the CPU seconds spent in it."""

    def __init__(self, monitor: PhaseMonitor) -> None:
        self.monitor, self.hook, self.cpu_s = monitor, monitor.hook(), 0.0

    def __call__(self, full, action, shown) -> None:
        tick = time.process_time()
        self.hook(full, action, shown)
        self.cpu_s += time.process_time() - tick


def measure(job) -> dict:
    episode = job.open()
    policy = make_policy(job.policy, job.policy_entry)
    tick = time.process_time()
    phases = plan_phases(episode.task, episode.scene)
    plan_s = time.process_time() - tick
    sparse, dense = Timed(PhaseMonitor(phases, episode.scene)), Timed(PhaseMonitor(phases, episode.scene, every=1))

    def both(full, action, shown) -> None:
        sparse(full, action, shown)
        dense(full, action, shown)

    tick = time.process_time()
    play(episode, policy, job.seed, on_step=both)
    loop_s = time.process_time() - tick - sparse.cpu_s - dense.cpu_s  # the episode without either monitor
    records = sparse.monitor.finish(episode.state(), episode.time)
    steps = round(episode.time / episode.control_dt)
    missed = next((r for r in records if not r.reached), None)
    return {
        "task": job.task,
        "variant": job.variant,
        "success": episode.verdict().success,
        "sim_s": round(episode.time, 1),
        "steps": steps,
        "phases": len(phases),
        "reached": sum(r.reached for r in records),
        "implied": sum(r.implied for r in records),
        "first_missed": f"{missed.index} {missed.verb} {','.join(missed.targets)}" if missed else "",
        "plan_ms": round(1000 * plan_s, 1),
        "loop_ms_per_step": round(1000 * loop_s / max(steps, 1), 3),
        "every5_ms_per_step": round(1000 * sparse.cpu_s / max(steps, 1), 3),
        "every1_ms_per_step": round(1000 * dense.cpu_s / max(steps, 1), 3),
    }


def table(rows: list[dict]) -> str:
    head = (
        "| task | success | sim s | phases reached (implied) | first missed | plan ms | loop ms/step "
        f"| monitor ms/step, every {EVERY} | every 1 |\n|---|---|---|---|---|---|---|---|---|\n"
    )
    return head + "".join(
        f"| {r['task']}/{r['variant']} | {r['success']} | {r['sim_s']} | {r['reached']}/{r['phases']} ({r['implied']}) "
        f"| {r['first_missed']} | {r['plan_ms']} | {r['loop_ms_per_step']} | {r['every5_ms_per_step']} "
        f"| {r['every1_ms_per_step']} |\n"
        for r in rows
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", nargs="*", default=list(TASKS))
    parser.add_argument("--variant", default="v000")
    parser.add_argument("--policy", default="scripted")
    parser.add_argument("--jsonl", type=Path, default=bench_rows("phases"), help="where each row is appended")
    parser.add_argument("--write", action="store_true", help=f"print the table to paste under '{SECTION}'")
    args = parser.parse_args()
    params = load_section("rollout", RolloutParams, ROOT / "params.yaml")
    params = params.model_copy(update={"policies": [args.policy], "episodes_per_variant": 1})
    jobs = [
        j
        for j in plan_jobs("bench", params, Layout(ROOT), policy_entries(ROOT / "params.yaml"))
        if j.task in args.tasks and j.variant == args.variant
    ]
    rows = []
    for job in sorted(jobs, key=lambda j: args.tasks.index(j.task)):
        row = measure(job)
        rows.append(row)
        print(json.dumps(row), flush=True)
        args.jsonl.parent.mkdir(parents=True, exist_ok=True)
        with args.jsonl.open("a") as f:
            f.write(json.dumps(row) + "\n")
    if args.write:
        print(table(rows))


if __name__ == "__main__":
    main()
