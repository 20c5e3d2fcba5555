"""Remote policy overhead on localhost: a policy served by ``housebench policy serve`` against the same policy
in-process.

Needs the built scenes (``dvc repro annotate``). Starts ``python -m housebench policy serve noop --port 0`` and
measures, wall clock (two processes take part, so CPU time of one would hide half the cost):

- **Transport**: one ``act`` round trip (encode, send, the server's decode, ``act`` and encode, the reply's decode)
  on a fixed observation of the scene, for the state track's observation and for one carrying head RGB-D images
  (``--image`` width x height, as the vision track does), against ``act`` in-process.
- **Steps**: ``--steps`` control steps of the scene (physics, thermal model, observation) with the noop policy
  in-process and served; the per-step difference is the overhead a rollout pays.
- **Episodes**: ``--episodes`` whole episodes through :func:`housebench.rollout.episode.run_episode` (the rollout's
  own path: scene load, reset, loop, verdict), in-process and served: the rollout speed ratio.

Goal (issue 29): under 2 ms per control step, a remote noop-like rollout at least 0.8x the in-process speed.

    python bench/bench_remote.py [--task put_fruit_in_container] [--variant v000] [--steps 200] [--episodes 3]
        [--image 160 120] [--write]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import selectors
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from housebench.policy.base import NoopPolicy, PolicyContext, PolicyParams
from housebench.policy.remote import RemoteParams, RemotePolicy
from housebench.rollout.episode import EpisodeJob, run_episode

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "RESULTS.md"
SECTION = "## Remote policy"


def start_server() -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "housebench", "policy", "serve", "noop", "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])},
    )
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        if not sel.select(120):
            proc.kill()
            raise SystemExit("policy server did not start")
    return proc, proc.stdout.readline().rsplit("ws://", 1)[1].strip()


def job(task: str, variant: str, horizon_s: float, entry: dict) -> EpisodeJob:
    fields = {f.name for f in dataclasses.fields(EpisodeJob)}
    job = EpisodeJob(
        run="bench",
        task=task,
        variant=variant,
        seed=0,
        policy="noop",
        backend="mujoco",
        scene=ROOT / "scenes/settled" / task / variant / "scene.usda",
        task_file=ROOT / "scenes/tasks" / task / variant / "task.json",
        annotations=ROOT / "annotations/scenes" / f"{task}__{variant}.json",
        horizon_s=horizon_s,
        control_dt=0.1,
        pose_noise_m=0.002,
    )
    return dataclasses.replace(job, policy_entry=entry) if "policy_entry" in fields else job


def context(episode) -> PolicyContext:
    return PolicyContext(episode.task, episode.scene, episode.control_dt, episode.horizon_s, episode.log)


def transport(episode, address: str, image: tuple[int, int], repeat: int) -> dict[str, float]:
    """Median ms of one ``act``: in-process, served (state observation), served (with head RGB-D)."""
    obs = episode.reset(0)
    width, height = image
    rng = np.random.default_rng(0)
    images = {
        "head/rgb": rng.integers(0, 255, (height, width, 3), dtype=np.uint8),
        "head/depth": rng.random((height, width), dtype=np.float32),
    }
    with_images = dataclasses.replace(obs, images=images)
    out = {}
    for key, policy, shown in (
        ("in_process", NoopPolicy(PolicyParams()), obs),
        ("served_state", RemotePolicy(RemoteParams(address=address)), obs),
        ("served_rgbd", RemotePolicy(RemoteParams(address=address)), with_images),
    ):
        policy.reset(context(episode), shown)
        times = []
        for _ in range(repeat):
            tick = time.perf_counter()
            policy.act(shown)
            times.append(time.perf_counter() - tick)
        getattr(policy, "close", lambda: None)()
        out[key] = statistics.median(times) * 1e3
    return out


def steps(episode, policy, n: int) -> float:
    """Wall seconds per control step of ``n`` steps of ``episode`` driven by ``policy`` (its stop ignored: the
    steps are the same physics whatever it says)."""
    obs = episode.reset(0)
    policy.reset(context(episode), obs)
    clock = time.perf_counter()
    for _ in range(n):
        action = policy.act(obs)
        obs = episode.step(None if action is None or action.stop else action)
    elapsed = time.perf_counter() - clock
    getattr(policy, "close", lambda: None)()
    return elapsed / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="put_fruit_in_container")
    parser.add_argument("--variant", default="v000")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--episodes", type=int, default=3)
    parser.add_argument("--horizon", type=float, default=20.0, help="simulated seconds per episode")
    parser.add_argument("--image", type=int, nargs=2, default=(160, 120), metavar=("W", "H"))
    parser.add_argument("--write", action="store_true", help=f"append the figures to {RESULTS.name}")
    args = parser.parse_args()

    proc, address = start_server()
    try:
        remote_entry = {"class": "remote", "address": address, "timeout_s": 10}
        episode = job(args.task, args.variant, 1e6, {}).open()
        act = transport(episode, address, tuple(args.image), 300)
        local_step = min(steps(episode, NoopPolicy(PolicyParams()), args.steps) for _ in range(2))
        remote_step = min(steps(episode, RemotePolicy(RemoteParams(address=address)), args.steps) for _ in range(2))
        walls = {"in_process": [], "served": []}
        sims = {"in_process": [], "served": []}
        for _ in range(args.episodes):  # alternated, so a change of the machine's load hits both alike
            for key, entry in (("in_process", {}), ("served", remote_entry)):
                outcome = run_episode(job(args.task, args.variant, args.horizon, entry))
                assert outcome.crash is None, outcome.crash
                walls[key].append(outcome.wall_s)
                sims[key].append(outcome.sim_s)
    finally:
        proc.terminate()
        proc.wait(timeout=10)

    load = os.getloadavg()[0]
    overhead_ms = (remote_step - local_step) * 1e3
    speed = statistics.median(walls["in_process"]) / statistics.median(walls["served"])
    lines = [
        f"{args.task}/{args.variant}, localhost, {os.cpu_count()} cores, load average {load:.1f} during the run.",
        "",
        "| measure | in-process | served | overhead |",
        "|---|---|---|---|",
        f"| one `act` (state observation), median ms | {act['in_process']:.3f} | {act['served_state']:.3f} "
        f"| {act['served_state'] - act['in_process']:.3f} |",
        f"| one `act` (+ head RGB-D {args.image[0]}x{args.image[1]}), median ms | {act['in_process']:.3f} "
        f"| {act['served_rgbd']:.3f} | {act['served_rgbd'] - act['in_process']:.3f} |",
        f"| control step ({args.steps} steps, physics + observation + act), ms | {local_step * 1e3:.2f} "
        f"| {remote_step * 1e3:.2f} | {overhead_ms:.2f} |",
        f"| episode via run_episode ({args.episodes}x, {statistics.median(sims['served']):.1f} sim s), median wall s "
        f"| {statistics.median(walls['in_process']):.2f} | {statistics.median(walls['served']):.2f} "
        f"| speed {speed:.2f}x |",
        "",
        f"Goal: under 2 ms per step ({'met' if overhead_ms < 2 else 'missed'}: {overhead_ms:.2f} ms), "
        f"at least 0.8x in-process ({'met' if speed >= 0.8 else 'missed'}: {speed:.2f}x).",
    ]
    text = "\n".join(lines)
    print(text)
    if args.write:
        body = RESULTS.read_text()
        RESULTS.write_text(body.rstrip("\n") + f"\n\n{SECTION}\n\n`python bench/bench_remote.py`\n\n{text}\n")


if __name__ == "__main__":
    main()
