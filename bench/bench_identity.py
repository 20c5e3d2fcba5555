"""Replay identity: the gate of a refactor that must not change behaviour.

Runs a fixed episode set (the rollout's own jobs for every task variant of a built layout, one seed, per policy)
and reduces each episode to what behaviour is: its steps, its simulated time, its verdict, a digest of its final
state (every object's pose, every joint, every temperature, bit for bit) and its skill events (kind, skill or
verb, target, outcome, at which simulated time). ``--record NAME`` keeps that under
``runs/bench/identity/NAME.json``; ``--check NAME`` runs the set again and lists every episode that differs,
with its first differing event.

    PYTHONPATH=$PWD python bench/bench_identity.py --root .cache/testdata/<hash> --record before
    ... change the code ...
    PYTHONPATH=$PWD python bench/bench_identity.py --root .cache/testdata/<hash> --check before

``--ignore KIND ...`` leaves events of those kinds out of the comparison (both sides): a refactor that adds a
bookkeeping event (the scripted policy's ``subgraph_end``, once it runs through the one runtime) is checked on the
rest, and says so.

Exit status 1 when ``--check`` finds a difference.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from tqdm import tqdm

from housebench.params import load_section
from housebench.paths import Layout, bench_rows
from housebench.policy.registry import policy_entries
from housebench.rollout.episode import run_episode
from housebench.rollout.plan import RolloutParams, plan_jobs

KINDS = ("skill_start", "skill_end", "node_pre", "node_post", "node_failed", "fallback", "subgraph_end")
FIELDS = ("skill", "verb", "target", "node", "ok", "reason")


def jobs_of(root: Path, policies: list[str], tasks: list[str] | None) -> list:
    layout = Layout(root=root)
    params = load_section("rollout", RolloutParams, layout.at(Path("params.yaml")))
    params = params.model_copy(update={"policies": policies, "episodes_per_variant": 1})
    jobs = plan_jobs("identity", params, layout, policy_entries(layout.at(Path("params.yaml"))))
    return [j for j in jobs if tasks is None or j.task in tasks]


def state_digest(state) -> str:
    if state is None:
        return ""
    poses = {name: [*map(float, p.pos), *map(float, p.quat)] for name, p in sorted(state.objects.items())}
    joints = {name: float(q) for name, q in sorted(state.joints.items())}
    return hashlib.sha256(json.dumps([poses, joints, state.temperatures_c]).encode()).hexdigest()[:16]


def behaviour(job) -> tuple[str, dict]:
    out = run_episode(job)
    events = [
        [round(t, 4), kind, *(str(detail.get(f, "")) for f in FIELDS)]
        for t, kind, detail in out.events
        if kind in KINDS
    ]
    key = f"{job.policy}:{job.task}/{job.variant}"
    return key, {
        "success": bool(out.verdict and out.verdict.success),
        "crash": out.crash or "",
        "steps": out.steps,
        "sim_s": round(out.sim_s, 6),
        "final": state_digest(out.final),
        "events": events,
    }


def without(row: dict, ignore: set[str]) -> dict:
    return {**row, "events": [e for e in row["events"] if e[1] not in ignore]}


def first_difference(a: dict, b: dict) -> str:
    for key in ("success", "crash", "steps", "sim_s", "final"):
        if a[key] != b[key]:
            for i, (x, y) in enumerate(zip(a["events"], b["events"])):
                if x != y:
                    return f"{key}: {a[key]} -> {b[key]}; event {i}: {x} -> {y}"
            return f"{key}: {a[key]} -> {b[key]} (events equal for {min(len(a['events']), len(b['events']))})"
    if a["events"] != b["events"]:
        return "events differ"
    return ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path("."))
    parser.add_argument("--policies", nargs="+", default=["scripted", "planned"])
    parser.add_argument("--tasks", nargs="+")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--ignore", nargs="+", default=[], choices=KINDS, help="event kinds left out of --check")
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--record", metavar="NAME")
    what.add_argument("--check", metavar="NAME")
    args = parser.parse_args()
    jobs = jobs_of(args.root, args.policies, args.tasks)
    with ProcessPoolExecutor(args.workers) as pool:
        rows = dict(tqdm(pool.map(behaviour, jobs), total=len(jobs), desc="episodes", unit="ep"))
    folder = bench_rows("identity").with_suffix("")  # runs/bench/identity/
    folder.mkdir(parents=True, exist_ok=True)
    if args.record:
        (folder / f"{args.record}.json").write_text(json.dumps(rows, indent=0) + "\n")
        solved = sum(r["success"] for r in rows.values())
        print(f"recorded {len(rows)} episodes ({solved} solved) as {folder / args.record}.json")
        return
    kept = json.loads((folder / f"{args.check}.json").read_text())
    ignore = set(args.ignore)
    both = [k for k in sorted(kept) if k in rows]
    differ = {k: first_difference(without(kept[k], ignore), without(rows[k], ignore)) for k in both}
    differ = {k: why for k, why in differ.items() if why}
    for key, why in differ.items():
        print(f"{key}: {why}")
    ignored = f" (events of {sorted(ignore)} left out)" if ignore else ""
    print(f"{len(both) - len(differ)} of {len(both)} episodes identical; {len(differ)} differ{ignored}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
