"""open then close each named door on built task scenes, by contact, with the skills alone (no policy):
the measured hinge value after each skill, success counts with 95 % Wilson intervals, sim and CPU time.

    PYTHONPATH=$PWD python bench/bench_doors.py --tasks heat_breakfast heat_soda_can --variants 2 \
        --parts microwave/door fridge/door

Every variant shares the house, so the doors are the same; what changes is the props (obstacles for the
stance and the path). The robot starts at the task's start pose for each part.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from bench_scripted import jobs, wilson

from housebench.house.query import HouseQuery
from housebench.skills.articulate import Close, Open
from housebench.skills.base import SkillContext
from housebench.skills.drive import Stepper, tried


def run(episode, ctx, obs, skill):
    runner = Stepper(tried(skill, ctx, obs))
    while (action := runner.step(obs)) is not None:
        obs = episode.step(action)
    return runner.result[0], obs


def one(job, part: str) -> dict:
    episode = job.open()
    obs = episode.reset(job.seed)
    ctx = SkillContext(task=episode.task, scene=episode.scene, control_dt=job.control_dt, initial=obs.state)
    spec = HouseQuery(episode.scene.house).parts[part]
    row = {"scene": f"{job.task}/{job.variant}", "part": part}
    cpu = time.process_time()
    for skill in (Open(part), Close(part)):
        failure, obs = run(episode, ctx, obs, skill)
        q = obs.parts[part]
        row[skill.name] = {
            "ok": failure is None,
            "q": round(q, 4),
            "failure": str(failure) if failure else "",
            "sim_s": round(obs.time, 1),
        }
        if skill.name == "open" and abs(q - spec.closed) < 0.8 * abs(spec.open - spec.closed):
            break  # never opened: closing it says nothing
    row["cpu_s"] = round(time.process_time() - cpu, 1)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", nargs="+", required=True)
    parser.add_argument("--variants", type=int, default=2)
    parser.add_argument("--parts", nargs="+", default=["microwave/door", "fridge/door"])
    parser.add_argument("--root", type=Path, default=Path("."))
    args = parser.parse_args()
    rows = []
    for job in jobs(args.root, args.tasks, args.variants, "noop", 400.0):
        for part in args.parts:
            row = one(job, part)
            rows.append(row)
            print(row, flush=True)
    print("| part | skill | n | ok | rate [95 % CI] | hinge after (rad) |")
    print("|---|---|---|---|---|---|")
    for part in args.parts:
        for skill in ("open", "close"):
            done = [r[skill] for r in rows if r["part"] == part and skill in r]
            n, k = len(done), sum(d["ok"] for d in done)
            lo, hi = wilson(k, n)
            qs = sorted(d["q"] for d in done)
            span = f"{qs[0]:.3f} .. {qs[-1]:.3f}" if qs else "-"
            print(f"| {part} | {skill} | {n} | {k} | {k / max(n, 1):.0%} [{lo:.0%}, {hi:.0%}] | {span} |")


if __name__ == "__main__":
    main()
