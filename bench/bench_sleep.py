"""Island sleeping changes no result: every task scene settled, checked and rolled out with sleeping on and off.

For every ``scenes/tasks/<task>/<variant>/task.usda`` (run ``dvc repro annotate`` first) the scene is
settled twice in one process, from the same compiled model, once as the backend compiles it
(sleeping on) and once with ``mjENBL_SLEEP`` cleared: the settle verdict, the skipped props, the
stability check's verdict and every prop's rest position are compared, and the CPU time of each
(after a first untimed run has put both compiled scenes in the cache). Then every episode of the
``rollout`` params' plan for ``--policy`` (``noop``; ``scripted`` acts: the grasps, pushes and doors wake
what they touch) runs both ways through the episode loop: verdicts, progress and final prop positions are
compared. Goals (issue 15): identical verdicts, props within 1 mm.

    python bench/bench_sleep.py [--write]   # --write: the "Sleeping" section of bench/RESULTS.md
    python bench/bench_sleep.py --policy scripted --variants 2 --no-settle --workers 16
"""

from __future__ import annotations

import argparse
import re
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import mujoco
import numpy as np
import yaml

from housebench.params import load_section
from housebench.paths import Layout
from housebench.policy.registry import make_policy, policy_entries
from housebench.rollout.episode import context
from housebench.rollout.plan import RolloutParams, plan_jobs
from housebench.sim.mujoco import MujocoBackend
from housebench.sim.mujoco.simulation import MujocoSimulation
from housebench.sim.settle import settle_scene

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "RESULTS.md"
SECTION = "## Sleeping"
TOLERANCE_M = 0.001


SLEEP = int(mujoco.mjtEnableBit.mjENBL_SLEEP)


class SleepOff(MujocoBackend):
    """The MuJoCo backend with island sleeping cleared on every model it loads."""

    def load(self, stage_path: Path) -> MujocoSimulation:
        sim = super().load(stage_path)
        sim.model.opt.enableflags &= ~SLEEP
        sim.reset()
        return sim


def settle_both(task_usda: Path, params: dict, cache: Path) -> dict:
    """The scene settled with sleeping on and off: verdicts, largest rest-pose difference, CPU s."""
    reports, cpu = {}, {}
    with tempfile.TemporaryDirectory() as out:  # compile both scenes into the cache: time physics only
        settle_scene(MujocoBackend(cache_dir=cache), task_usda, Path(out), params)
    for name, backend in (("on", MujocoBackend(cache_dir=cache)), ("off", SleepOff(cache_dir=cache))):
        with tempfile.TemporaryDirectory() as out:
            clock = time.process_time()
            reports[name] = settle_scene(backend, task_usda, Path(out), params)
            cpu[name] = time.process_time() - clock
    on, off = reports["on"], reports["off"]
    diff = max(
        (float(np.linalg.norm(np.subtract(on["props"][n]["pos"], off["props"][n]["pos"]))) for n in on["props"]),
        default=0.0,
    )
    return {
        "passed": (on["passed"], off["passed"]),
        "stability": (on["stability"]["passed"], off["stability"]["passed"]),
        "skipped": (on["skipped"], off["skipped"]),
        "max_diff_m": diff,
        "cpu_s": (cpu["on"], cpu["off"]),
    }


def episode_both(job) -> dict:
    """One episode of the job's policy with sleeping on and off: verdicts, progress, largest prop difference."""
    finals = {}
    for sleeping in (True, False):
        episode = job.open()
        if not sleeping:
            episode.sim.model.opt.enableflags &= ~SLEEP
        policy = make_policy(job.policy, job.policy_entry)
        obs = episode.reset(job.seed)
        policy.reset(context(episode), obs)
        while not episode.done:
            obs = episode.step(policy.act(obs))
        finals[sleeping] = (episode.verdict(), episode.sim.get_state())
    (on, state_on), (off, state_off) = finals[True], finals[False]
    diff = max(
        (float(np.linalg.norm(np.subtract(o.pos, state_off.objects[n].pos))) for n, o in state_on.objects.items()),
        default=0.0,
    )
    same = (on.success, on.progress) == (off.success, off.progress)
    return {"same": same, "success": (on.success, off.success), "max_diff_m": diff}


def table(rows: dict[str, dict]) -> str:
    lines = [
        "| scene | passed on / off | stability on / off | skipped on / off | rest poses apart mm | CPU s on / off |",
        "|---|---|---|---|---|---|",
    ]
    for scene, r in rows.items():
        lines.append(
            f"| {scene} | {r['passed'][0]} / {r['passed'][1]} | {r['stability'][0]} / {r['stability'][1]} | "
            f"{r['skipped'][0] or '-'} / {r['skipped'][1] or '-'} | {1000 * r['max_diff_m']:.3f} | "
            f"{r['cpu_s'][0]:.2f} / {r['cpu_s'][1]:.2f} |"
        )
    same = all(
        r["passed"][0] == r["passed"][1]
        and r["stability"][0] == r["stability"][1]
        and r["skipped"][0] == r["skipped"][1]
        for r in rows.values()
    )
    worst = max(r["max_diff_m"] for r in rows.values())
    on, off = sum(r["cpu_s"][0] for r in rows.values()), sum(r["cpu_s"][1] for r in rows.values())
    lines += [
        "",
        f"Verdicts identical: **{same}**; props apart by at most **{1000 * worst:.3f} mm** "
        f"(goal: within {1000 * TOLERANCE_M:g} mm); settle + check CPU time {on:.1f} s with sleeping, "
        f"{off:.1f} s without ({off / on:.2f}x).",
    ]
    return "\n".join(lines)


def episode_table(policy: str, rows: dict[str, dict]) -> str:
    same = sum(r["same"] for r in rows.values())
    worst = max(r["max_diff_m"] for r in rows.values())
    on, off = (sum(r["success"][i] for r in rows.values()) for i in (0, 1))
    variants = {name.split("#")[0] for name in rows}
    differ = ", ".join(name for name, r in rows.items() if not r["same"]) or "none"
    return (
        f"`{policy}` episodes (each task's horizon), sleeping on against off: {len(rows)} episodes over "
        f"{len(variants)} variants, verdicts and progress identical in **{same}/{len(rows)}** (differ: {differ}); "
        f"successes {on} on, {off} off; final props apart by at most **{1000 * worst:.3f} mm**."
    )


def write_section(text: str) -> None:
    body = (
        f"{SECTION}\n\n`python bench/bench_sleep.py --write` ({time.strftime('%Y-%m-%d')}, MuJoCo "
        f"{mujoco.__version__}): every task scene settled and checked twice from the same compiled model, "
        f"island sleeping on (as shipped) and off.\n\n{text}\n"
    )
    old = RESULTS.read_text()
    pattern = re.compile(rf"{re.escape(SECTION)}\n.*?(?=\n## |\Z)", re.S)
    new = pattern.sub(lambda _: body.rstrip("\n") + "\n", old) if pattern.search(old) else old.rstrip() + "\n\n" + body
    RESULTS.write_text(new if new.endswith("\n") else new + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="update bench/RESULTS.md")
    parser.add_argument("--episodes", type=int, help="episodes per variant (default: the rollout params')")
    parser.add_argument("--policy", default="noop", help="the policy of the episodes")
    parser.add_argument("--variants", type=int, help="only each task's first N variants (default: every one)")
    parser.add_argument("--workers", type=int, default=1, help="episodes at once (processes)")
    parser.add_argument("--no-settle", action="store_true", help="episodes only")
    args = parser.parse_args()
    params = yaml.safe_load((ROOT / "params.yaml").read_text())["settle"]
    layout = Layout(ROOT)
    first = [(t, v) for t, v in layout.variants() if not args.variants or int(v[1:]) < args.variants]
    rows = {}
    with tempfile.TemporaryDirectory() as cache:
        for task, variant in [] if args.no_settle else first:
            rows[f"{task}/{variant}"] = settle_both(layout.task_dir(task, variant) / "task.usda", params, Path(cache))
            print(f"{task}/{variant}: {rows[f'{task}/{variant}']}", flush=True)
    overrides = {"episodes_per_variant": args.episodes} if args.episodes else {}
    rollout = load_section("rollout", RolloutParams, path=ROOT / "params.yaml", policies=[args.policy], **overrides)
    plan = plan_jobs("bench", rollout, layout, policy_entries(ROOT / "params.yaml"))
    jobs = [job for job in plan if (job.task, job.variant) in first]
    episodes = {}
    with ProcessPoolExecutor(args.workers) as pool:
        for job, row in zip(jobs, pool.map(episode_both, jobs)):
            episodes[f"{job.task}/{job.variant}#{job.seed}"] = row
            print(job.task, job.variant, job.seed, row, flush=True)
    text = (table(rows) + "\n\n" if rows else "") + episode_table(args.policy, episodes)
    print(text)
    if args.write:
        write_section(text)


if __name__ == "__main__":
    main()
