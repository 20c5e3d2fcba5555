"""Remote policy overhead on localhost: a policy served by ``housebench policy serve`` against the same policy
in-process.

Needs the built scenes (``dvc repro annotate``). The policy is :class:`HoldPolicy`, a noop that never stops (so both
sides run the same number of steps); it starts ``python -m housebench policy serve bench.bench_remote:HoldPolicy
--port 0`` and measures, wall clock (two processes take part, so CPU time of one would hide half the cost):

- **Transport**: one ``act`` round trip (encode, send, the server's decode, ``act`` and encode, the reply's decode)
  on a fixed observation of the scene, for the state track's observation and for one carrying head RGB-D images
  (``--image`` width x height, as the vision track does), against ``act`` in-process.
- **Steps**: ``--steps`` control steps of the scene (physics, thermal model, observation); at each, ``act`` of the
  policy in-process and served on the same observation, timed apart (interleaved step by step: the machine's load
  moves both alike). The served ``act`` minus the in-process one is the overhead per step; physics plus each gives
  the rollout's speed ratio.
- **Episodes**: ``--episodes`` whole episodes through :func:`housebench.rollout.episode.run_episode` (the rollout's
  own path: scene load, reset, loop, verdict), in-process and served, alternated: the end-to-end ratio, as noisy as
  the machine is loaded.

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

from housebench.policy.base import PolicyContext, PolicyParams
from housebench.remote.client import RemoteParams, RemotePolicy
from housebench.rollout.episode import EpisodeJob, context, run_episode

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "RESULTS.md"
SECTION = "## Remote policy"


class HoldPolicy:
    """Keeps every target where it is, to the horizon: the cheapest policy there is, so what is measured is the
    transport."""

    name = "hold"
    Params = PolicyParams
    tracks = ("state", "vision")

    def __init__(self, params: PolicyParams) -> None:
        del params

    def reset(self, ctx: PolicyContext, obs) -> None:
        del ctx, obs

    def act(self, obs) -> None:
        del obs


HOLD = "bench.bench_remote:HoldPolicy"


def start_server() -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "housebench", "policy", "serve", HOLD, "--port", "0"],
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
    return EpisodeJob(
        run="bench",
        task=task,
        variant=variant,
        seed=0,
        policy="hold",
        backend="mujoco",
        scene=ROOT / "scenes/settled" / task / variant / "scene.usda",
        task_file=ROOT / "scenes/tasks" / task / variant / "task.json",
        annotations=ROOT / "annotations/scenes" / f"{task}__{variant}.json",
        horizon_s=horizon_s,
        control_dt=0.1,
        pose_noise_m=0.002,
        policy_entry=entry,
    )


def cpu_s(pid: int) -> float:
    """CPU seconds (user + system) process ``pid`` has used, every thread (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def transport(episode, server: int, address: str, image: tuple[int, int], repeat: int) -> dict[str, tuple]:
    """Per ``act``, in-process, served (state observation), served (with head RGB-D): the median wall ms, and the
    CPU ms of this process and of the server (``server``'s pid), which the machine's load does not inflate: on idle
    cores a round trip costs about their sum, the two processes running one after the other."""
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
        ("in_process", HoldPolicy(PolicyParams()), obs),
        ("served_state", RemotePolicy(RemoteParams(address=address)), obs),
        ("served_rgbd", RemotePolicy(RemoteParams(address=address)), with_images),
    ):
        policy.reset(context(episode), shown)
        times = []
        cpu, server_cpu = time.process_time(), cpu_s(server)
        for _ in range(repeat):
            tick = time.perf_counter()
            policy.act(shown)
            times.append(time.perf_counter() - tick)
        cpu, server_cpu = time.process_time() - cpu, cpu_s(server) - server_cpu
        getattr(policy, "close", lambda: None)()
        out[key] = (statistics.median(times) * 1e3, cpu / repeat * 1e3, server_cpu / repeat * 1e3)
    return out


def steps(episode, address: str, n: int) -> dict[str, float]:
    """Median wall ms of the parts of ``n`` control steps of ``episode``: the physics step (with observation and
    thermal model), and ``act`` in-process and served on the same observation, interleaved step by step, so a
    change of the machine's load hits both alike."""
    local, served = HoldPolicy(PolicyParams()), RemotePolicy(RemoteParams(address=address))
    obs = episode.reset(0)
    for policy in (local, served):
        policy.reset(context(episode), obs)
    times: dict[str, list[float]] = {"physics": [], "in_process": [], "served": []}
    for _ in range(n):
        tick = time.perf_counter()
        local.act(obs)
        tock = time.perf_counter()
        action = served.act(obs)
        tuck = time.perf_counter()
        obs = episode.step(action)
        times["in_process"].append(tock - tick)
        times["served"].append(tuck - tock)
        times["physics"].append(time.perf_counter() - tuck)
    served.close()
    return {key: statistics.median(values) * 1e3 for key, values in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="put_fruit_in_container")
    parser.add_argument("--variant", default="v000")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--episodes", type=int, default=3)
    parser.add_argument("--horizon", type=float, default=10.0, help="simulated seconds per episode")
    parser.add_argument("--repeat", type=int, default=1000, help="acts per transport measurement")
    parser.add_argument("--image", type=int, nargs=2, default=(160, 120), metavar=("W", "H"))
    parser.add_argument("--write", action="store_true", help=f"append the figures to {RESULTS.name}")
    args = parser.parse_args()

    proc, address = start_server()
    try:
        remote_entry = {"class": "remote", "address": address, "timeout_s": 10}
        episode = job(args.task, args.variant, 1e6, {}).open()
        act = transport(episode, proc.pid, address, tuple(args.image), args.repeat)
        step = steps(episode, address, args.steps)
        walls = {"in_process": [], "served": []}
        sims = {"in_process": [], "served": []}
        for _ in range(args.episodes):  # alternated, so a change of the machine's load hits both alike
            for key, entry in (("in_process", {"class": HOLD}), ("served", remote_entry)):
                outcome = run_episode(job(args.task, args.variant, args.horizon, entry))
                assert outcome.crash is None, outcome.crash
                walls[key].append(outcome.wall_s)
                sims[key].append(outcome.sim_s)
    finally:
        proc.terminate()
        proc.wait(timeout=10)

    load = os.getloadavg()[0]
    overhead_ms = step["served"] - step["in_process"]
    cpu_ms = sum(act["served_state"][1:]) - act["in_process"][1]  # both sides' CPU per served act
    local_ms, served_ms = step["physics"] + step["in_process"], step["physics"] + step["served"]
    speed = local_ms / served_ms  # what the rollout's loop pays per step, measured interleaved
    episode_speed = statistics.median(walls["in_process"]) / statistics.median(walls["served"])
    lines = [
        f"{args.task}/{args.variant}, localhost, {os.cpu_count()} cores, load average {load:.1f} during the run.",
        "",
        f"| one `act`, {args.repeat}x | wall ms (median) | CPU ms, rollout process | CPU ms, server |",
        "|---|---|---|---|",
        *(
            f"| {label} | {act[key][0]:.3f} | {act[key][1]:.3f} | {act[key][2]:.3f} |"
            for key, label in (
                ("in_process", "in-process"),
                ("served_state", "served, state observation"),
                ("served_rgbd", f"served, + head RGB-D {args.image[0]}x{args.image[1]}"),
            )
        ),
        "",
        "| measure | in-process | served | overhead |",
        "|---|---|---|---|",
        f"| `act` during {args.steps} steps of the episode (interleaved), median ms | {step['in_process']:.3f} "
        f"| {step['served']:.3f} | {overhead_ms:.3f} |",
        f"| control step: physics + observation ({step['physics']:.2f} ms) + `act`, median ms | {local_ms:.2f} "
        f"| {served_ms:.2f} | speed {speed:.2f}x |",
        f"| episode via run_episode ({args.episodes}x, {statistics.median(sims['served']):.1f} sim s), median wall s "
        f"| {statistics.median(walls['in_process']):.2f} | {statistics.median(walls['served']):.2f} "
        f"| speed {episode_speed:.2f}x |",
        "",
        f"Goal: under 2 ms per step, at least 0.8x in-process. Wall clock here: {overhead_ms:.2f} ms, {speed:.2f}x "
        f"(load {load:.1f}); CPU of both processes per served act: {cpu_ms:.2f} ms, "
        f"{step['physics'] / (step['physics'] + cpu_ms):.2f}x of this step's physics.",
    ]
    text = "\n".join(lines)
    print(text)
    if args.write:
        body = RESULTS.read_text()
        RESULTS.write_text(body.rstrip("\n") + f"\n\n{SECTION}\n\n`python bench/bench_remote.py`\n\n{text}\n")


if __name__ == "__main__":
    main()
