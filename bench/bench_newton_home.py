"""Where the robot starts when a scene is loaded by Newton's USD importer alone (issue 31 item 4).

Nothing but Newton's importer decides the start: ``NewtonBackend.build`` (only ``newton.ModelBuilder().add_usd``
with Newton's, PhysX's and MuJoCo's schema resolvers, then ``finalize``), ``SolverMuJoCo`` on MuJoCo's C
library, the model's own initial state and control (the joints' authored drive targets); none of the backend's
``NewtonSimulation``, which sets the home pose by hand. Per scene:
the arm joints at the start against :data:`housebench.robot.fetch.HOME` (read here only to compare), the wrist
(``wrist_roll_link``, which carries the gripper) ahead of the base and above the floor at the start, its path
length and largest distance from where it started over the first second and over the whole run, and the
props' largest drift.

    python bench/bench_newton_home.py SCENE.usda [SCENE.usda ...] [--seconds 3]

Needs the newton extra (``pip install -e '.[newton]'``, its own venv).
"""

from __future__ import annotations

import argparse
import math
import os
import warnings
from pathlib import Path

import newton
import numpy as np
import warp as wp

from housebench.robot.fetch import ARM_JOINTS, HOME, PREFIX
from housebench.sim.newton import NewtonBackend

WRIST = "wrist_roll_link"


def measure(scene: Path, seconds: float) -> dict:
    wp.config.quiet = True
    model, dt = NewtonBackend().build(scene)
    labels = list(model.body_label)
    wrist = next(i for i, label in enumerate(labels) if label.endswith("/" + WRIST))
    base = next(i for i, label in enumerate(labels) if label.endswith("/base_link"))
    props = [i for i, label in enumerate(labels) if label.startswith("/World/Props/")]
    q_start = model.joint_q_start.numpy()
    joints = {label.rsplit("/", 1)[-1]: int(q_start[j]) for j, label in enumerate(model.joint_label)}
    q0 = model.joint_q.numpy()
    arm = {name: float(q0[joints[name.removeprefix(PREFIX)]]) for name in ARM_JOINTS}
    solver = newton.solvers.SolverMuJoCo(model, use_mujoco_cpu=True, use_mujoco_contacts=True, enable_multiccd=True)
    state, next_state, control = model.state(), model.state(), model.control()
    body = state.body_q.numpy()
    start, base_pose, props0 = body[wrist, :3].copy(), body[base].copy(), body[props, :3].copy()
    yaw = 2 * math.atan2(base_pose[5], base_pose[6])  # Newton: x, y, z, qx, qy, qz, qw (a turn about z)
    rel = start - base_pose[:3]
    path, last, one_s = 0.0, start, None
    far = 0.0
    for step in range(1, round(seconds / dt) + 1):
        state.clear_forces()
        solver.step(state, next_state, control, None, dt)
        state, next_state = next_state, state
        now = state.body_q.numpy()[wrist, :3]
        path += float(np.linalg.norm(now - last))
        far = max(far, float(np.linalg.norm(now - start)))
        last = now.copy()
        if step == round(1.0 / dt):
            one_s = (path, far)
    drift = np.linalg.norm(state.body_q.numpy()[props, :3] - props0, axis=1) if props else np.zeros(1)
    return {
        "arm_dev": max(abs(arm[n] - HOME[n]) for n in ARM_JOINTS),
        "ahead": float(math.cos(yaw) * rel[0] + math.sin(yaw) * rel[1]),
        "height": float(start[2]),
        "path_1s": one_s[0],
        "far_1s": one_s[1],
        "path": path,
        "far": far,
        "drift_mm": 1000 * float(drift.max()),
        "props": len(props),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenes", nargs="+", type=Path)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    warnings.simplefilter("ignore")
    print(
        "| scene | arm joints off home at start, rad | wrist ahead of base, m | wrist height, m | wrist path 1 s, mm"
        f" | wrist moved 1 s, mm | wrist path {args.seconds:g} s, mm | wrist moved {args.seconds:g} s, mm | props"
        " | prop drift mm |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for scene in args.scenes:
        r = measure(scene, args.seconds)
        name = "/".join(scene.parts[-3:-1]) if scene.name == "scene.usda" else scene.name
        print(
            f"| {name} | {r['arm_dev']:.4f} | {r['ahead']:.3f} | {r['height']:.3f} | {1000 * r['path_1s']:.2f}"
            f" | {1000 * r['far_1s']:.2f} | {1000 * r['path']:.2f} | {1000 * r['far']:.2f} | {r['props']}"
            f" | {r['drift_mm']:.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
