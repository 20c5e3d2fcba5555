"""Episodes per hour on a Ray cluster of 1 and 2 worker nodes, against local worker processes on the same machine.

The cluster is the test's (``tests/raycluster.py``): a head node with 0 CPUs and worker nodes of ``--cpus`` CPUs each,
every node a ``ray start`` process with its own temp folder, the worker nodes started from an empty folder by a
Python without housebench (and, as root, in a mount namespace where the checkout is an empty folder), so the code
and every file an episode reads travel through Ray (``rollout.ray.ship``). The episodes are the small test build's
(``tests/builtdata.py``: built on first use), ``--policies`` on ``--pairs``; the driver is a process of its own, as
``dvc repro`` would be.

The same jobs run **cold** once on each cluster (fresh: the package and the files shipped to each node, each scene's
model compiled on each node), then ``--rounds`` **warm** rounds (the nodes keep the shipped files and compiled models
in their temp folders), every setting once per round in turn, beside 1 and 2 local worker processes
(``rollout.executor: local``, the project's warm model cache): the development machine is shared, and taking the
settings in turn lets a change in its load meet each alike. Both clusters are up for the whole run (idle when not
measured). One JSON row per measurement is appended to ``--out`` (``runs/bench/cluster.jsonl``);
``--write`` puts the table in ``bench/RESULTS.md`` ("Ray cluster").

    python bench/bench_cluster.py [--pairs put_fruit_in_container/v000 ...] [--policies noop scripted] [--seeds 4]
        [--nodes 1 2] [--cpus 1] [--rounds 2] [--out runs/bench/cluster.jsonl] [--write]
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import re
import socket
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # tests.builtdata (the small build) and tests.raycluster (the local cluster)

from housebench.policy.registry import policy_entries  # noqa: E402
from housebench.rollout.batch import run_batch  # noqa: E402
from housebench.rollout.cluster import RayParams  # noqa: E402
from tests.conftest import built_job  # noqa: E402
from tests.raycluster import LocalCluster  # noqa: E402

RESULTS = ROOT / "bench" / "RESULTS.md"
SECTION = "## Ray cluster"
PAIRS = (
    "put_fruit_in_container/v000",
    "put_fruit_in_container/v001",
    "put_fruit_in_container/v002",
    "collect_fruits/v000",
    "throw_can_away/v000",
    "stack_blocks/v000",
)
HORIZON_S = 120.0  # simulated seconds per episode at most


def make_jobs(pairs: list[str], policies: list[str], seeds: int) -> list:
    entries = policy_entries()
    jobs = []
    for pair in pairs:
        task, variant = pair.split("/")
        for policy in policies:
            base = built_job(task, variant, policy, horizon_s=HORIZON_S)
            for seed in range(seeds):
                jobs.append(dataclasses.replace(base, seed=seed, policy_entry=entries.get(policy) or {}))
    return jobs


def row(setting: str, nodes: int, rnd: str, wall: float, outcomes: list, load: float, **extra) -> dict:
    crashed = [o.crash for o in outcomes if o.crash]
    return {
        "setting": setting,
        "nodes": nodes,
        "round": rnd,
        "episodes": len(outcomes),
        "crashed": len(crashed),
        "succeeded": sum(bool(o.verdict and o.verdict.success) for o in outcomes),
        "wall_s": round(wall, 2),
        "episodes_per_hour": round(3600 * len(outcomes) / wall, 1),
        "episode_cpu_s": round(sum(o.wall_s for o in outcomes), 2),
        "load_before": load,  # the machine is shared: its 1-minute load average before and after the round
        "load_1m": os.getloadavg()[0],
        "host": socket.gethostname(),
        "cores": os.cpu_count(),
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
        **extra,
    }


def local(jobs: list, workers: int, rnd: str) -> dict:
    load, clock = os.getloadavg()[0], time.perf_counter()
    outcomes = run_batch(jobs, "local", workers, progress=False)
    return row("local processes", workers, rnd, time.perf_counter() - clock, outcomes, load)


def on_cluster(lc: LocalCluster, jobs: list, nodes: int, rnd: str) -> dict:
    load = os.getloadavg()[0]
    seen = lc.drive(jobs, RayParams(address=lc.address))
    outcomes = seen["outcomes"]
    extra = {"cpus_per_node": lc.cpus, "nodes_used": len({o.node for o in outcomes}), "hidden": lc.hidden}
    return row("ray cluster", nodes, rnd, seen["wall_s"], outcomes, load, **extra)


def measure(jobs: list, nodes: list[int], cpus: int, rounds: int) -> list[dict]:
    """Every cluster started first (they idle meanwhile), each run cold once; then ``rounds`` warm rounds, each
    setting once per round in turn (local and cluster, 1 then 2), so a change in the shared machine's load meets
    every setting alike."""
    rows = []

    def keep(r: dict) -> None:
        rows.append(r)
        print(json.dumps(r), flush=True)

    with contextlib.ExitStack() as stack:
        clusters = {n: stack.enter_context(LocalCluster(workers=n, cpus=cpus)) for n in nodes}
        for n, lc in clusters.items():
            keep(on_cluster(lc, jobs, n, "cold"))
        for r in range(1, rounds + 1):
            for n, lc in clusters.items():
                keep(local(jobs, n * cpus, f"warm {r}"))
                keep(on_cluster(lc, jobs, n, f"warm {r}"))
    return rows


def table(rows: list[dict]) -> str:
    """Each setting's episodes per hour: cold, and the median of its warm rounds (their range), against 1 node."""
    groups: dict[tuple[str, int, str], list[dict]] = {}
    for r in rows:
        groups.setdefault((r["setting"], r["nodes"], "cold" if r["round"] == "cold" else "warm"), []).append(r)
    lines = [
        "| setting | nodes / workers | rounds | episodes each | wall s (median) | episodes per hour (median; range) "
        "| vs 1 | load, 1 min, before each round |",
        "|---|---|---|---|---|---|---|---|",
    ]
    median = {key: statistics.median(r["episodes_per_hour"] for r in rs) for key, rs in groups.items()}
    for (setting, nodes, kind), rs in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][2], kv[0][1])):
        rates = [r["episodes_per_hour"] for r in rs]
        base = median.get((setting, 1, kind))
        ratio = f"{median[(setting, nodes, kind)] / base:.2f}x" if base else "-"
        loads = ", ".join(f"{r['load_before']:.1f}" for r in rs)
        lines.append(
            f"| {setting} | {nodes} | {kind} x{len(rs)} | {rs[0]['episodes']} | "
            f"{statistics.median(r['wall_s'] for r in rs):.1f} | **{median[(setting, nodes, kind)]:.0f}** "
            f"({min(rates):.0f}-{max(rates):.0f}) | {ratio} | {loads} |"
        )
    return "\n".join(lines)


def write_section(text: str) -> None:
    old = RESULTS.read_text()
    pattern = re.compile(rf"{re.escape(SECTION)}\n.*?(?=\n## |\Z)", re.S)
    section = f"{SECTION}\n\n{text.rstrip()}\n"
    new = pattern.sub(lambda _: section, old) if pattern.search(old) else old.rstrip("\n") + "\n\n" + section
    RESULTS.write_text(new)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", nargs="*", default=list(PAIRS), help="task/variant pairs of tests/builtdata.py")
    parser.add_argument("--policies", nargs="*", default=["noop", "scripted"])
    parser.add_argument("--seeds", type=int, default=4, help="episodes per pair and policy")
    parser.add_argument("--nodes", nargs="*", type=int, default=[1, 2], help="worker node counts to measure")
    parser.add_argument("--cpus", type=int, default=1, help="CPUs of each worker node")
    parser.add_argument("--rounds", type=int, default=2, help="warm rounds of every setting, in turn")
    parser.add_argument("--out", type=Path, default=ROOT / "runs" / "bench" / "cluster.jsonl")
    parser.add_argument("--write", action="store_true", help="update bench/RESULTS.md")
    args = parser.parse_args()
    jobs = make_jobs(args.pairs, args.policies, args.seeds)
    rows = measure(jobs, args.nodes, args.cpus, args.rounds)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("a") as out:
        for r in rows:
            out.write(json.dumps(r) + "\n")
    text = table(rows)
    print(text)
    if args.write:
        hidden = any(r.get("hidden") for r in rows)
        intro = (
            f"`python bench/bench_cluster.py --write` ({time.strftime('%Y-%m-%d')}, raw rows in `{args.out.name}` "
            f"under `runs/bench/`): {len(jobs)} episodes ({', '.join(args.policies)} on {len(args.pairs)} task "
            f"variants of the small test build x {args.seeds} seeds, at most {HORIZON_S:.0f} s simulated each) on "
            f"one {os.cpu_count()}-core machine shared with other work: a head node with 0 CPUs and 1 or 2 worker "
            f"nodes of {args.cpus} CPU each, every node a `ray start` process with its own temp folder, the worker "
            f"nodes started from an empty folder by a Python without housebench"
            f"{' in a mount namespace that hides the checkout' if hidden else ''}, so code and files travel through "
            "Ray. Cold: the first batch on a fresh cluster (package and files shipped, models compiled on each node); "
            f"warm: the same jobs again, {args.rounds} rounds with every setting in turn. Local: worker processes on "
            "the project's warm model cache, in the same rounds."
        )
        write_section(f"{intro}\n\n{text}")


if __name__ == "__main__":
    main()
