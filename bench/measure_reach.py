"""Fetch's reach by height, measured with IK (mink on ``housebench.robot.model.kinematic_model``, the
robot alone): the source of ``housebench.robot.fetch.REACH``.

For each height of the grasp point (the ``grip`` site) and each horizontal distance in front of the
base (base fixed at the origin facing +x, torso, arm and wrist free within their limits), mink
solves for a top-down grasp (gripper pointing down, fingers closing across the reach direction)
and for a side grasp (gripper level, pointing forward), warm-started from the nearer distance, then
from the home pose, then from seeded random arm poses. A grasp counts when the site comes within
5 mm and 0.05 rad of the target from any start. The band of a height slab is the range of distances
where a top-down grasp works at both of its edges (a side grasp's where no top-down grasp does: the
top-down range is the narrower one, so it holds for both), no nearer than 0.4 m, less ``--margin``
at the far end (tracking error; issue 12's probe saw top-down grasps at table height work to 0.75 m
and fail at 0.85 m in physics).

    python bench/measure_reach.py [--write]   # --write: the table into bench/RESULTS.md
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import mink
import numpy as np

from housebench.robot import fetch
from housebench.robot.model import kinematic_model

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "RESULTS.md"
SECTION = "## Reach"
HEIGHTS = np.round(np.arange(0.0, 1.81, 0.1), 2)
DISTANCES = np.round(np.arange(0.3, 1.151, 0.05), 2)
RESTARTS = 6  # random starts tried after the warm start and the home pose
NEAREST = 0.4  # the grasp point keeps 0.11 m outside the base disc (radius 0.29): the gripper clears the base
GRASPS = {  # gripper axes (x: approach, y: finger travel) as columns, for a target straight ahead
    "top": np.array([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0]]),
    "side": np.eye(3),
}


def _solve(config: mink.Configuration, target: np.ndarray, rot: np.ndarray, limits, frozen) -> bool:
    task = mink.FrameTask(f"{fetch.PREFIX}grip", "site", position_cost=1.0, orientation_cost=1.0, lm_damping=1e-3)
    task.set_target(mink.SE3.from_rotation_and_translation(mink.SO3.from_matrix(rot), target))
    for _ in range(300):
        vel = mink.solve_ik(config, [task], 0.05, "daqp", damping=1e-3, limits=limits, constraints=[frozen])
        config.integrate_inplace(vel, 0.05)
        err = task.compute_error(config)
        if np.linalg.norm(err[:3]) < 0.005 and np.linalg.norm(err[3:]) < 0.05:
            return True
    return False


def _starts(model, home: np.ndarray, warm: np.ndarray, rng: np.random.Generator):
    """Where the solver starts: the last solution, the home pose, then :data:`RESTARTS` random arm
    poses within the joint limits (a target counts as out of reach only when every start fails)."""
    yield from (warm, home)
    arm = [model.joint(j).id for j in (fetch.TORSO_JOINT, *fetch.ARM_JOINTS)]
    for _ in range(RESTARTS):
        q = home.copy()
        q[model.jnt_qposadr[arm]] = rng.uniform(model.jnt_range[arm, 0], model.jnt_range[arm, 1])
        yield q


def measure(seed: int = 0) -> dict[str, np.ndarray]:
    """``{grasp: ok[height, distance]}`` (``seed``: the random restarts)."""
    model = kinematic_model()
    rng = np.random.default_rng(seed)
    base = [model.joint(j).id for j in fetch.BASE_JOINTS]
    home = model.qpos0.copy()
    for joint, value in fetch.HOME.items():
        home[model.joint(joint).qposadr[0]] = value
    config = mink.Configuration(model)
    limits = [mink.ConfigurationLimit(model)]
    frozen = mink.DofFreezingTask(model, dof_indices=[int(model.jnt_dofadr[j]) for j in base])
    found = {}
    for grasp, rot in GRASPS.items():
        ok = np.zeros((len(HEIGHTS), len(DISTANCES)), dtype=bool)
        for i, z in enumerate(HEIGHTS):
            warm = home
            for j, d in enumerate(DISTANCES):
                for start in _starts(model, home, warm, rng):
                    config.update(start)
                    if _solve(config, np.array([d, 0.0, z]), rot, limits, frozen):
                        ok[i, j], warm = True, config.q.copy()
                        break
        found[grasp] = ok
    return found


def bands(found: dict[str, np.ndarray], margin: float) -> list[tuple[tuple[float, float], float, float]]:
    """Per height slab: the distances where a top-down grasp works at both edges (a side grasp where
    none does), no nearer than ``NEAREST``, the far end less ``margin``."""
    out = []
    for i in range(len(HEIGHTS) - 1):
        both = next((ok[i] & ok[i + 1] for ok in (found["top"], found["side"]) if (ok[i] & ok[i + 1]).any()), None)
        if both is None:
            continue
        lo, hi = max(DISTANCES[both].min(), NEAREST), round(float(DISTANCES[both].max() - margin), 2)
        if hi > lo:
            out.append(((float(HEIGHTS[i]), float(HEIGHTS[i + 1])), float(lo), hi))
    return out


def table(found: dict[str, np.ndarray], result: list) -> str:
    head = "| z (m) | " + " | ".join(f"{d:.2f}" for d in DISTANCES) + " |"
    lines = [head, "|" + "---|" * (len(DISTANCES) + 1)]
    for i, z in enumerate(HEIGHTS):
        cells = ["T" * int(found["top"][i, j]) + "S" * int(found["side"][i, j]) or "." for j in range(len(DISTANCES))]
        lines.append(f"| {z:.1f} | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append(
        "Bands (height slab: min-max horizontal distance): "
        + "; ".join(f"{z[0]:.1f}-{z[1]:.1f} m: {lo:.2f}-{hi:.2f}" for z, lo, hi in result)
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--margin", type=float, default=0.05)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    found = measure()
    result = bands(found, args.margin)
    text = table(found, result)
    print(text)
    print("REACH =", tuple(result))
    if args.write:
        body = (
            f"{SECTION}\n\nFetch's grasp reach, IK with mink on the robot-only model (`bench/measure_reach.py`): "
            "T top-down, S side grasp works at that height (rows) and horizontal distance from the base centre "
            f"(columns, metres); far end of each band less {args.margin} m.\n\n{text}\n"
        )
        old = RESULTS.read_text()
        new = re.sub(rf"{SECTION}\n.*?(?=\n## |\Z)", body, old, flags=re.S) if SECTION in old else old + "\n" + body
        RESULTS.write_text(new)


if __name__ == "__main__":
    main()
