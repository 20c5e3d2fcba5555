"""Steps per second of the async vector env over a task's variants (Gymnasium's AsyncVectorEnv, one
process per worker, shared memory) against one env stepped in this process, in the same run, per
observation track. Every env holds the robot still (its targets where it stands), so the physics is the
scene's resting contacts; the horizon is long enough that no episode ends while it is timed.

    python bench/bench_vector.py [--task put_fruit_in_container] [--workers 1,2,4] [--steps 100]

Env steps per second count every worker's steps (a vector step of N workers is N env steps); the start
(spawning the workers, loading the scenes) is timed apart. CPU ms per env step (this process's and the
workers', user and system, from /proc) is what a step costs whatever else the machine runs: with a free core
per worker, N workers give about N times the single env's rate while it stays flat. The largest worker count
is also timed with Gymnasium's shared memory instead of pipes (its instruction entry is stale in Gymnasium
1.4: speed only).
"""

from __future__ import annotations

import os
import time

import click
import numpy as np

os.environ.setdefault("MUJOCO_GL", "egl")

from housebench.robot.fetch import ARM_JOINTS, TORSO_JOINT  # noqa: E402
from housebench.rollout.gym_env import make_env  # noqa: E402
from housebench.rollout.vector import make_vec_env  # noqa: E402


def hold(robot_joints: tuple[str, ...], obs: dict) -> np.ndarray:
    """The action that keeps a robot where it stands (one env's observation)."""
    arm = [obs["joints"][robot_joints.index(j)] for j in (*ARM_JOINTS, TORSO_JOINT)]
    return np.concatenate([arm, obs["base"], [0.1]]).astype(np.float32)


def cpu_s(pids: list[int]) -> float:
    """CPU seconds (user and system) used so far by this process and the processes ``pids``."""
    tick = os.sysconf("SC_CLK_TCK")
    total = time.process_time()
    for pid in pids:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime (fields 14 and 15 of stat)
    return total


def single(task: str, variant: str, track: str, steps: int, root: str) -> tuple[float, float, float]:
    """(start s, env steps per second, CPU ms per env step) of one env in this process."""
    clock = time.perf_counter()
    env = make_env(task, variant, root=root, track=track, render_mode=None, horizon_s=3600)
    obs, _ = env.reset(seed=0)
    action = hold(env.robot_joints, obs)
    start = time.perf_counter() - clock
    clock, cpu = time.perf_counter(), cpu_s([])
    for _ in range(steps):
        env.step(action)
    rate, cpu = steps / (time.perf_counter() - clock), (cpu_s([]) - cpu) / steps
    env.close()
    return start, rate, 1000 * cpu


def vector(
    task: str, variants: list[str], track: str, steps: int, root: str, workers: int, shared_memory: bool
) -> tuple[float, float]:
    """(start s, env steps per second, CPU ms per env step, workers' and this process's) of ``workers``
    processes over the task's variants."""
    clock = time.perf_counter()
    vec = make_vec_env(task, variants, workers, track=track, root=root, horizon_s=3600, shared_memory=shared_memory)
    obs, _ = vec.reset(seed=0)
    joints = vec.get_attr("robot_joints")[0]
    action = np.stack([hold(joints, {k: v[i] for k, v in obs.items()}) for i in range(workers)])
    start = time.perf_counter() - clock
    pids = [p.pid for p in vec.unwrapped.processes]
    clock, cpu = time.perf_counter(), cpu_s(pids)
    for _ in range(steps):
        vec.step(action)
    rate, cpu = workers * steps / (time.perf_counter() - clock), (cpu_s(pids) - cpu) / (workers * steps)
    vec.close()
    return start, rate, 1000 * cpu


@click.command()
@click.option("--task", default="put_fruit_in_container", show_default=True)
@click.option("--variants", default="v000", show_default=True, help="Variants the workers draw from.")
@click.option("--workers", default="1,2,4", show_default=True, help="Worker counts of the vector env.")
@click.option("--tracks", default="state,vision", show_default=True)
@click.option("--steps", default=100, show_default=True, help="Control steps timed per env.")
@click.option("--root", default=".", show_default=True, help="The DVC workspace with the built scenes.")
def main(task: str, variants: str, workers: str, tracks: str, steps: int, root: str) -> None:
    counts, names = [int(n) for n in workers.split(",")], variants.split(",")
    load = os.getloadavg()[0]
    print(f"{task} {variants}, {steps} control steps (0.1 s) per env, {os.cpu_count()} cores, load {load:.1f}")
    print("| track | env | start s | env steps/s | x single | CPU ms per env step |\n|---|---|---|---|---|---|")
    for track in tracks.split(","):
        start, base, cpu = single(task, names[0], track, steps, root)
        print(f"| {track} | single, in process | {start:.2f} | {base:.1f} | 1.00 | {cpu:.1f} |", flush=True)
        for n in counts:
            for shared in (False, True) if n == counts[-1] else (False,):
                start, rate, cpu = vector(task, names, track, steps, root, n, shared)
                how = f"async, {n} workers" + (", shared memory" if shared else "")
                print(f"| {track} | {how} | {start:.2f} | {rate:.1f} | {rate / base:.2f} | {cpu:.1f} |", flush=True)


if __name__ == "__main__":
    main()
