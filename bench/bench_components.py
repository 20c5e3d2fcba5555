"""Component tasks solved by the scripted solver: the skill library's runtime running the component's one node
(``housebench.components.solver:SkillPolicy``) from every start of every shipped scenario file, through the
rollout's own ``run_episode`` (a :class:`~housebench.components.jobs.ComponentJob`), judged by the task
evaluator on the verb's postconditions. Success per component with 95 % Wilson intervals, whether the start met
the verb's preconditions, sim and wall time, and the failing reason.

    PYTHONPATH=$PWD python bench/bench_components.py --out runs/bench/components.jsonl [pick_item ...]

One JSON line per episode goes to ``--out`` (appended; starts already there are skipped, so a run resumes).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from bench_scripted import wilson

from housebench.components.jobs import ComponentJob
from housebench.components.scenario import components
from housebench.components.task import PREFIX, scene_files
from housebench.paths import Layout, bench_rows
from housebench.rollout.episode import run_episode

SOLVER = {"class": "housebench.components.solver:SkillPolicy"}


def jobs(names: list[str], layout: Layout, seed: int = 0) -> list[ComponentJob]:
    out = []
    for name, comp in components().items():
        if names and name not in names:
            continue
        for start in comp.spec.starts:
            scene, task_file, annotations = scene_files(layout, comp, start.id)
            out.append(
                ComponentJob(
                    run="bench",
                    task=f"{PREFIX}{name}",
                    variant=start.id,
                    seed=seed,
                    policy="skill",
                    backend="mujoco",
                    scene=scene,
                    task_file=task_file,
                    annotations=annotations,
                    horizon_s=comp.spec.horizon_s,
                    control_dt=0.1,
                    pose_noise_m=0.0,
                    policy_entry=SOLVER,
                    component_file=comp.path,
                )  # fmt: skip
            )
    return out


def component_scene(job: ComponentJob) -> str:
    return f"{job.scene.parent.parent.name}/{job.scene.parent.name}"  # scenes/settled/<task>/<variant>/scene.usda


def one(job: ComponentJob) -> dict:
    out = run_episode(job)
    start = next((d for _, k, d in out.events if k == "component_start"), {})
    failed = [d for _, k, d in out.events if k == "node_failed"]
    post = [d for _, k, d in out.events if k == "node_post"]
    path = next((d["path"] for _, k, d in out.events if k == "node_path"), "")
    reason = ""
    if failed:
        last = failed[-1]
        reason = f"{last['stage']}: {','.join(last['failed'])}"
        if post and post[-1].get("error"):
            reason += f" ({post[-1]['error']})"
    return {
        "component": job.task.removeprefix(PREFIX),
        "start": job.variant,
        "scene": component_scene(job),
        "success": bool(out.verdict and out.verdict.success),
        "pre_ok": bool(start.get("pre_ok")),
        "path": path,
        "reason": reason or ("" if out.verdict and out.verdict.success else "horizon"),
        "crash": out.crash,
        "wall_s": round(out.wall_s, 2),
        "sim_s": round(out.sim_s, 2),
    }


def table(rows: list[dict]) -> str:
    lines = [
        "| component | success | 95 % Wilson | start met pre | sim s (mean) | wall s (mean) |",
        "|---|---|---|---|---|---|",
    ]
    for name in sorted({r["component"] for r in rows}):
        mine = [r for r in rows if r["component"] == name]
        k, n = sum(r["success"] for r in mine), len(mine)
        lo, hi = wilson(k, n)
        pre = sum(r["pre_ok"] for r in mine)
        sim = sum(r["sim_s"] for r in mine) / n
        wall = sum(r["wall_s"] for r in mine) / n
        lines.append(f"| {name} | {k}/{n} | {lo:.0%}-{hi:.0%} | {pre}/{n} | {sim:.1f} | {wall:.1f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="components (default: every shipped one)")
    parser.add_argument("--out", type=Path, default=bench_rows("components"))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    done = set()
    if args.out.exists():
        done = {(r["component"], r["start"]) for r in map(json.loads, args.out.read_text().splitlines())}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    for job in jobs(args.names, Layout(root=Path(".")), args.seed):
        if (job.task.removeprefix(PREFIX), job.variant) in done:
            continue
        row = one(job)
        with args.out.open("a") as f:
            f.write(json.dumps(row) + "\n")
        print(json.dumps(row), flush=True)
    rows = [json.loads(line) for line in args.out.read_text().splitlines()]
    print(table(rows))


if __name__ == "__main__":
    main()
