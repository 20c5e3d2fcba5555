"""Demonstrations a camera can learn from: how often the head image shows what the robot works on, with
the head fixed (``look: false``) and aimed by the skills (``look: true``), and the success rate of both.

Every episode is recorded (:func:`housebench.demos.record.record_episode`, no video) and read back: each
frame's ``look`` (what the running skill works on: :mod:`housebench.skills.look`) and ``in_view`` (its
ground-truth point lands in the head image). Per task and policy it prints successes and the share of frames
with a target whose target is in view, fixed against look; then the same share per skill (phase).

    PYTHONPATH=$PWD python bench/bench_look.py --root .cache/testdata/<hash> \
        [--pairs put_fruit_in_container/v001 ...] [--policies scripted planned] [--workers 1] \
        [--out runs/bench/look.jsonl] [--store runs/bench/look] [--summary]

One JSON line per episode goes to ``--out`` (appended; a rerun skips what it holds); the recordings go under
``--store`` (git-ignored ``runs/``). Without ``--pairs``: every settled variant under ``--root``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from housebench.demos.record import record_episode
from housebench.demos.recording import load_recording, read_meta
from housebench.paths import BENCH_RUNS, Layout, bench_rows
from housebench.rollout.episode import EpisodeJob

HORIZON_S = 420.0  # the pipeline's rollout.horizon_s, for specs that name none
MODES = {"fixed": False, "look": True}  # the policies' ``look`` param


def job(layout: Layout, task: str, variant: str, policy: str, mode: str) -> EpisodeJob:
    task_file = layout.task_dir(task, variant) / "task.json"
    horizon = json.loads(task_file.read_text()).get("horizon_s") or HORIZON_S
    return EpisodeJob(
        run="bench",
        task=task,
        variant=variant,
        seed=0,
        policy=policy,
        backend="mujoco",
        scene=layout.settled_scene(task, variant),
        task_file=task_file,
        annotations=layout.scene_annotations(task, variant),
        horizon_s=horizon,
        control_dt=0.1,
        pose_noise_m=0.002,
        policy_entry={"look": MODES[mode]},
    )


def one(args: tuple[EpisodeJob, str, Path]) -> dict:
    """Record one episode and count its frames: with a target, in view, and both per skill."""
    ep, mode, out = args
    start = time.perf_counter()
    if not (out / "meta.json").is_file():  # a run cut short after recording it
        record_episode(ep, out)
    summary = read_meta(out)
    rec = load_recording(out, columns=["terminal", "skill", "look", "in_view"])
    live = ~rec.array("terminal").astype(bool)
    looks, seen, skills = rec.array("look")[live], rec.array("in_view")[live].astype(bool), rec.array("skill")[live]
    target = looks != ""
    phases: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for skill, has, ok in zip(skills, target, seen):
        if has:
            phases[str(skill)][0] += 1
            phases[str(skill)][1] += int(ok)
    return {
        "task": ep.task,
        "variant": ep.variant,
        "policy": ep.policy,
        "mode": mode,
        "success": bool(summary["success"]),
        "sim_s": round(summary["sim_s"], 1),
        "wall_s": round(time.perf_counter() - start, 1),
        "frames": int(live.sum()),
        "target_frames": int(target.sum()),
        "in_view": int((seen & target).sum()),
        "phases": dict(phases),
    }


def share(k: int, n: int) -> str:
    return f"{k / n:.0%}" if n else "-"


def summary(rows: list[dict]) -> str:
    """Per task and policy: successes and in-view share, fixed against look; then per skill."""
    cells: dict[tuple[str, str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # n, ok, target, seen
    phase: dict[tuple[str, str, str], list[int]] = defaultdict(lambda: [0, 0])
    for r in rows:
        c = cells[(r["task"], r["policy"], r["mode"])]
        c[0], c[1], c[2], c[3] = c[0] + 1, c[1] + r["success"], c[2] + r["target_frames"], c[3] + r["in_view"]
        for skill, (n, k) in r["phases"].items():
            p = phase[(skill, r["policy"], r["mode"])]
            p[0], p[1] = p[0] + n, p[1] + k
    policies = sorted({r["policy"] for r in rows})
    head = "| task | " + " | ".join(f"{p} success fixed / look | {p} in view fixed / look" for p in policies) + " |"
    lines = [head, "|---" * (1 + 2 * len(policies)) + "|"]
    totals = {(p, m): [0, 0, 0, 0] for p in policies for m in MODES}
    for task in sorted({r["task"] for r in rows}):
        out = [task]
        for p in policies:
            fixed, look = cells.get((task, p, "fixed"), [0] * 4), cells.get((task, p, "look"), [0] * 4)
            out += [f"{fixed[1]}/{fixed[0]} / {look[1]}/{look[0]}"]
            out += [f"{share(fixed[3], fixed[2])} / {share(look[3], look[2])}"]
            for m, c in (("fixed", fixed), ("look", look)):
                totals[(p, m)] = [a + b for a, b in zip(totals[(p, m)], c)]
        lines.append("| " + " | ".join(out) + " |")
    out = ["**all**"]
    for p in policies:
        f, k = totals[(p, "fixed")], totals[(p, "look")]
        out += [f"{f[1]}/{f[0]} / {k[1]}/{k[0]}", f"{share(f[3], f[2])} / {share(k[3], k[2])}"]
    lines += ["| " + " | ".join(out) + " |", ""]
    lines += ["| skill (phase) | policy | target frames | in view fixed | in view look |", "|---|---|---|---|---|"]
    for skill, p in sorted({(s, p) for s, p, _ in phase}):
        f, k = phase.get((skill, p, "fixed"), [0, 0]), phase.get((skill, p, "look"), [0, 0])
        lines.append(f"| {skill or '(none)'} | {p} | {k[0]} | {share(f[1], f[0])} | {share(k[1], k[0])} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path("."))
    parser.add_argument("--pairs", nargs="+", default=[], help="task/variant ... (default: every settled variant)")
    parser.add_argument("--policies", nargs="+", default=["scripted", "planned"])
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, default=bench_rows("look"))
    parser.add_argument("--store", type=Path, default=BENCH_RUNS / "look")
    parser.add_argument("--summary", action="store_true", help="summarize --out, run nothing")
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.out.read_text().splitlines()] if args.out.exists() else []
    if args.summary:
        print(summary(rows))
        return
    layout = Layout(root=args.root)
    pairs = [tuple(p.split("/")) for p in args.pairs] or sorted(layout.variants())
    done = {(r["task"], r["variant"], r["policy"], r["mode"]) for r in rows}
    todo = [
        (job(layout, t, v, p, m), m, args.store / m / p / t / v)
        for t, v in pairs
        for p in args.policies
        for m in MODES
        if (t, v, p, m) not in done
    ]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with ProcessPoolExecutor(args.workers) as pool, args.out.open("a") as sink:
        for row in pool.map(one, todo):
            rows.append(row)
            sink.write(json.dumps(row) + "\n")
            sink.flush()
            seen = share(row["in_view"], row["target_frames"])
            print(*(row[k] for k in ("task", "variant", "policy", "mode", "success")), seen, row["wall_s"], flush=True)
    print(summary(rows))


if __name__ == "__main__":
    main()
