"""Where an episode's CPU goes, per policy: physics, inverse kinematics, base and arm planning, the thermal model, the
evaluator, observation building and the episode loop, aiming the head, the policy's own logic, scene load, and a
worker's start.

Needs a built layout (``dvc repro annotate``, or the tests' small build: ``--root .cache/testdata/<hash>``). Every
job of the rollout's own plan (``plan_jobs``) for ``--tasks`` x their first ``--variants`` x ``--policies`` runs
through ``run_episode`` under cProfile (timing CPU, not wall: a shared machine), in this process. Each profiled
function's own time goes to the part its file belongs to (:data:`PARTS`, first match); time in a function outside
housebench (MuJoCo's C calls, numpy, pydantic, OMPL's bindings) goes to the parts of its callers, shared by how much
of it each caller called, so ``mj_step`` counts as physics when the simulation steps and as inverse kinematics when
the IK's forward kinematics runs it. The profiler's own cost falls on Python more than on C, so the shares of the
Python-heavy parts come out somewhat high. The worker's start is measured apart: a fresh interpreter importing what
a rollout worker imports (``--starts`` times, the median).

    PYTHONPATH=$PWD python bench/bench_cpu.py --root .cache/testdata/<hash> [--policies noop scripted planned]
        [--tasks t1 t2] [--variants 1] [--out runs/bench/cpu.json]

Prints a table (percent of each policy's CPU per part, and CPU seconds per episode) and writes the raw figures.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from functools import cache
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
UNATTRIBUTED = "outside housebench, no caller"
PACKAGE = "/housebench/"
WORKER_IMPORTS = "import housebench.rollout.episode, housebench.rollout.plan, housebench.policy.registry, mujoco"


def part_of(filename: str) -> str | None:
    """The part of a housebench file; None for a file outside housebench (and C functions: ``~``)."""
    if PACKAGE not in filename:
        return None
    return next((part for part, piece in PARTS if piece in filename), OTHER)


def parts(stats: pstats.Stats) -> tuple[dict[str, float], dict[str, float]]:
    """Own CPU seconds of every profiled function, summed per part (see the module's doc), and per housebench file
    of the part ``OTHER``."""
    table = stats.stats  # (file, line, name) -> (primitive calls, calls, own s, cumulative s, callers)

    @cache
    def shares(key: tuple, depth: int = 0) -> dict[str, float]:
        """The fraction of ``key``'s time that belongs to each part."""
        own = part_of(key[0])
        if own is not None:
            return {own: 1.0}
        callers = table[key][4] if key in table else {}
        weights = {caller: entry[3] for caller, entry in callers.items() if caller != key}
        total = sum(weights.values())
        if depth > 40 or not total:
            return {UNATTRIBUTED: 1.0}
        out: dict[str, float] = defaultdict(float)
        for caller, weight in weights.items():
            for part, share in shares(caller, depth + 1).items():
                out[part] += share * weight / total
        return dict(out)

    seconds: dict[str, float] = defaultdict(float)
    other: dict[str, float] = defaultdict(float)
    for key, (_, _, own_s, _, _) in table.items():
        for part, share in shares(key).items():
            seconds[part] += own_s * share
        if part_of(key[0]) == OTHER:
            other[key[0].split(PACKAGE)[-1]] += own_s
    return dict(seconds), dict(sorted(other.items(), key=lambda kv: -kv[1]))


def worker_start(times: int) -> float:
    """Median CPU-and-wall seconds of a fresh interpreter importing what a rollout worker imports."""
    runs = []
    for _ in range(times):
        clock = time.perf_counter()
        subprocess.run([sys.executable, "-c", WORKER_IMPORTS], check=True)
        runs.append(time.perf_counter() - clock)
    return statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path("."))
    parser.add_argument("--policies", nargs="+", default=["noop", "scripted", "planned"])
    parser.add_argument("--tasks", nargs="+", default=["put_fruit_in_container", "restock_fridge", "heat_soda_can"])
    parser.add_argument("--variants", type=int, default=1)
    parser.add_argument("--starts", type=int, default=3)
    parser.add_argument("--out", type=Path, default=bench_rows("cpu").with_suffix(".json"))
    args = parser.parse_args()
    layout = Layout(root=args.root)
    params = load_section("rollout", RolloutParams, layout.at(Path("params.yaml")))
    params = params.model_copy(update={"policies": args.policies, "episodes_per_variant": 1})
    jobs = plan_jobs("bench", params, layout, policy_entries(layout.at(Path("params.yaml"))))
    firsts = {t: sorted({j.variant for j in jobs if j.task == t})[: args.variants] for t in args.tasks}
    jobs = [j for j in jobs if j.variant in firsts.get(j.task, [])]
    result = {"worker_start_s": worker_start(args.starts), "policies": {}}
    for policy in args.policies:
        mine = [j for j in jobs if j.policy == policy]
        profile, sim_s, successes = cProfile.Profile(time.process_time), 0.0, 0  # CPU, not wall: a shared machine
        clock = time.process_time()
        for job in mine:
            profile.enable()
            outcome = run_episode(job)
            profile.disable()
            sim_s += outcome.sim_s
            successes += bool(outcome.verdict and outcome.verdict.success)
        cpu_s = time.process_time() - clock
        seconds, other = parts(pstats.Stats(profile))
        result["policies"][policy] = {
            "episodes": len(mine),
            "successes": successes,
            "sim_s": sim_s,
            "cpu_s_profiled": cpu_s,
            "profiled_s": sum(seconds.values()),
            "parts_s": seconds,
            "other_by_file_s": other,
        }
        print(f"{policy}: {len(mine)} episodes, {cpu_s:.1f} CPU s under the profiler", file=sys.stderr, flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    names = sorted({p for r in result["policies"].values() for p in r["parts_s"]})
    print("| part | " + " | ".join(args.policies) + " |")
    print("|---|" + "---|" * len(args.policies))
    for name in names:
        cells = []
        for policy in args.policies:
            r = result["policies"][policy]
            cells.append(f"{100 * r['parts_s'].get(name, 0.0) / r['profiled_s']:.1f} %")
        print(f"| {name} | " + " | ".join(cells) + " |")
    per_episode = [f"{r['profiled_s'] / max(1, r['episodes']):.1f}" for r in result["policies"].values()]
    print("| profiled CPU s per episode | " + " | ".join(per_episode) + " |")
    print(f"worker start (fresh interpreter, imports): {result['worker_start_s']:.2f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
