"""Where an episode's CPU goes, per policy: physics, inverse kinematics, base and arm planning, the thermal model, the
evaluator, observation building and the episode loop, aiming the head, the policy's own logic, scene load, and a
worker's start.

Needs a built layout (``dvc repro annotate``, or the tests' small build: ``--root .cache/testdata/<hash>``) and
py-spy (``pip install py-spy``). Every job of the rollout's own plan (``plan_jobs``) for ``--tasks`` x their first
``--variants``, per policy, runs through ``run_episode`` in a child process that py-spy samples (``--rate`` a
second; a sampling profiler, so Python-heavy code is not inflated as a tracing profiler inflates it). Each sample
counts for the part of its innermost housebench frame (:data:`PARTS`, first match by file): a MuJoCo C call or a
numpy call counts for the housebench code that made it, so ``mj_step`` is physics when the simulation steps and
inverse kinematics when the IK runs forward kinematics. The child reports its CPU seconds; the worker's start is
measured apart: a fresh interpreter importing what a rollout worker imports (``--starts`` times, the median).

    PYTHONPATH=$PWD python bench/bench_cpu.py --root .cache/testdata/<hash> [--policies noop scripted planned]
        [--tasks t1 t2] [--variants 1] [--rate 200] [--out runs/bench/cpu.json]

Prints a table (percent of each policy's samples per part, and CPU seconds per episode) and writes the raw figures.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from housebench.params import load_section
from housebench.paths import Layout, bench_rows
from housebench.policy.registry import policy_entries
from housebench.rollout.episode import run_episode
from housebench.rollout.plan import RolloutParams, plan_jobs

PARTS = (  # (part, a piece of a housebench file's path); the first that matches names the part
    ("scene load", "/usd/"),
    ("scene load", "/sim/mujoco/compile.py"),
    ("scene load", "/sim/mujoco/cache.py"),
    ("physics", "/sim/"),
    ("inverse kinematics", "/robot/kinematics.py"),
    ("inverse kinematics", "/robot/model.py"),
    ("head aiming", "/robot/head.py"),
    ("head aiming", "/skills/look.py"),
    ("planning", "/planning/"),
    ("planning", "/house/stance.py"),
    ("thermal model", "/tasks/thermal.py"),
    ("evaluator", "/tasks/"),
    ("phases", "/rollout/phases.py"),
    ("observation and loop", "/rollout/"),
    ("observation and loop", "/state.py"),
    ("policy logic", "/skills/"),
    ("policy logic", "/skill_library/"),
    ("policy logic", "/policy/"),
    ("policy logic", "/house/"),
    ("policy logic", "/annotations/"),
    ("policy logic", "/components/"),
)
OTHER = "other housebench"
UNATTRIBUTED = "outside housebench (the interpreter)"
PACKAGE = "/housebench/"
EPISODE_FRAME = "run_episode (housebench/rollout/episode.py"  # a sample counts when inside an episode
WORKER_IMPORTS = "import housebench.rollout.episode, housebench.rollout.plan, housebench.policy.registry, mujoco"


def part_of(filename: str) -> str | None:
    """The part of a housebench file; None for a file outside housebench (and C functions: ``~``)."""
    filename = "/" + filename  # py-spy names a file by its path under the import path entry: housebench/...
    if PACKAGE not in filename:
        return None
    return next((part for part, piece in PARTS if piece in filename), OTHER)


def parts(raw: str) -> tuple[dict[str, int], int]:
    """Samples per part from py-spy's raw output (one ``frame;frame;... count`` line per stack, innermost last,
    each frame ``function (file:line)``), and the total: only the samples taken inside ``run_episode``."""
    counts: dict[str, int] = defaultdict(int)
    for line in raw.splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        frames = stack.split(";")
        if not any(frame.startswith(EPISODE_FRAME) for frame in frames):
            continue  # the child's start, its imports and planning: not an episode's
        files = [frame.rpartition(" (")[2].rpartition(":")[0] for frame in frames]
        part = next((part_of(f) for f in reversed(files) if part_of(f) is not None), UNATTRIBUTED)
        counts[part] += int(count)
    return dict(counts), sum(counts.values())


def worker_start(times: int) -> float:
    """Median CPU-and-wall seconds of a fresh interpreter importing what a rollout worker imports."""
    runs = []
    for _ in range(times):
        clock = time.perf_counter()
        subprocess.run([sys.executable, "-c", WORKER_IMPORTS], check=True)
        runs.append(time.perf_counter() - clock)
    return statistics.median(runs)


def jobs_of(root: Path, policy: str, tasks: list[str], variants: int) -> list:
    layout = Layout(root=root)
    params = load_section("rollout", RolloutParams, layout.at(Path("params.yaml")))
    params = params.model_copy(update={"policies": [policy], "episodes_per_variant": 1})
    jobs = plan_jobs("bench", params, layout, policy_entries(layout.at(Path("params.yaml"))))
    firsts = {t: sorted({j.variant for j in jobs if j.task == t})[:variants] for t in tasks}
    return [j for j in jobs if j.variant in firsts.get(j.task, [])]


def child(args: argparse.Namespace) -> None:
    """Run the policy's jobs here (py-spy samples this process); write their CPU seconds and outcomes."""
    jobs = jobs_of(args.root, args.child, args.tasks, args.variants)
    clock, sim_s, successes = time.process_time(), 0.0, 0
    for job in jobs:
        outcome = run_episode(job)
        sim_s += outcome.sim_s
        successes += bool(outcome.verdict and outcome.verdict.success)
    report = {"episodes": len(jobs), "successes": successes, "sim_s": sim_s, "cpu_s": time.process_time() - clock}
    Path(args.report).write_text(json.dumps(report))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path("."))
    parser.add_argument("--policies", nargs="+", default=["noop", "scripted", "planned"])
    parser.add_argument("--tasks", nargs="+", default=["put_fruit_in_container", "restock_fridge", "heat_soda_can"])
    parser.add_argument("--variants", type=int, default=1)
    parser.add_argument("--rate", type=int, default=200, help="py-spy's samples a second")
    parser.add_argument("--starts", type=int, default=3)
    parser.add_argument("--out", type=Path, default=bench_rows("cpu").with_suffix(".json"))
    parser.add_argument("--child", help=argparse.SUPPRESS)  # the policy whose jobs this process runs
    parser.add_argument("--report", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    result = {"worker_start_s": worker_start(args.starts), "rate": args.rate, "policies": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for policy in args.policies:
            raw, report = Path(tmp) / f"{policy}.txt", Path(tmp) / f"{policy}.json"
            command = [sys.executable, __file__, "--root", str(args.root), "--tasks", *args.tasks]
            command += ["--variants", str(args.variants), "--child", policy, "--report", str(report)]
            record = [spy, "record", "--format", "raw", "--rate", str(args.rate), "--output", str(raw), "--"]
            subprocess.run(record + command, check=True, capture_output=True)
            counts, total = parts(raw.read_text())
            result["policies"][policy] = {**json.loads(report.read_text()), "samples": total, "parts_samples": counts}
            print(f"{policy}: {total} samples", file=sys.stderr, flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    names = sorted({p for r in result["policies"].values() for p in r["parts_samples"]})
    print("| part | " + " | ".join(args.policies) + " |")
    print("|---|" + "---|" * len(args.policies))
    for name in names:
        cells = []
        for policy in args.policies:
            r = result["policies"][policy]
            cells.append(f"{100 * r['parts_samples'].get(name, 0) / max(1, r['samples']):.1f} %")
        print(f"| {name} | " + " | ".join(cells) + " |")
    per_episode = [f"{r['cpu_s'] / max(1, r['episodes']):.1f}" for r in result["policies"].values()]
    print("| CPU s per episode | " + " | ".join(per_episode) + " |")
    print(f"worker start (fresh interpreter, imports): {result['worker_start_s']:.2f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
