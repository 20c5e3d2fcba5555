"""Simulation benchmark: the full house + Fetch + a task's props against Fetch on a bare floor.

Every scene runs in one process pinned to one core, in the same run: compile time (cold cache),
load time on a cache hit (median of 5), and physics speed (steps per second, real-time factor) in
two phases: at rest (the robot holds its pose) and with the arm moving (arm joint targets swept by
a sine, the same in every scene). The phases run interleaved in rounds, scene after scene, and each
figure is the median over the rounds, so a machine that changes speed mid-run changes every scene
alike. The house scene also runs with island sleeping off (the same compiled model, the flag
cleared) to show what sleeping buys. The house scene is ``--scene``, else the first settled scene
under ``scenes/settled`` (run ``dvc repro`` first), else the house alone.

The bare floor is a 0.1 m slab whose top is at z = 0, with the robot where the house scene has it:
no contact at rest (the base glides 5 mm above the floor), so it is the cost of the robot alone.

Goals (issue 15): the house at least 0.5 of the bare floor's speed at rest, 0.45 with the arm
moving, and at least 25x real time on one core.

    python bench/bench_sim.py [--scene scene.usda] [--rounds 5] [--seconds 2] [--write]
"""

from __future__ import annotations

import argparse
import math
import os
import re
import statistics
import tempfile
import time
from pathlib import Path

import mujoco
from pxr import Gf, Sdf, Usd, UsdGeom, UsdPhysics

from housebench.robot import fetch
from housebench.sim.mujoco import MujocoBackend
from housebench.sim.mujoco.simulation import MujocoSimulation
from housebench.usd.paths import HOUSE_ROOT, ROBOT_PATH

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "RESULTS.md"
SECTION = "## Simulation"
CONTROL_DT = 0.1  # seconds between arm targets in the moving phase
SWEEP = {  # arm joint: (amplitude rad, period s) around the home pose
    fetch.ARM_JOINTS[0]: (0.4, 3.0),
    fetch.ARM_JOINTS[3]: (0.3, 2.0),
    fetch.ARM_JOINTS[5]: (0.3, 2.5),
}


def bare_floor(path: Path, start: tuple[float, float, float]) -> Path:
    """A 20 x 20 x 0.1 m floor slab with its top at z = 0 and the robot at ``start`` (x, y, yaw deg)."""
    stage = Usd.Stage.CreateNew(str(path))
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.z)
    UsdGeom.SetStageMetersPerUnit(stage, 1.0)
    stage.SetDefaultPrim(UsdGeom.Xform.Define(stage, "/World").GetPrim())
    floor = UsdGeom.Cube.Define(stage, f"{HOUSE_ROOT}/floor/slab")
    floor.CreateSizeAttr(1.0)
    floor.AddTranslateOp().Set(Gf.Vec3d(start[0], start[1], -0.05))
    floor.AddScaleOp().Set(Gf.Vec3f(20, 20, 0.1))
    UsdPhysics.CollisionAPI.Apply(floor.GetPrim())
    robot = UsdGeom.Xform.Define(stage, ROBOT_PATH)
    robot.AddTranslateOp().Set(Gf.Vec3d(start[0], start[1], 0.0))
    robot.AddRotateZOp().Set(start[2])
    robot.GetPrim().CreateAttribute("housebench:robot", Sdf.ValueTypeNames.String).Set("fetch")
    stage.GetRootLayer().Save()
    return path


def robot_start(scene: Path) -> tuple[float, float, float]:
    """The robot's x, y and yaw (degrees) as the scene composes them."""
    stage = Usd.Stage.Open(str(scene))
    xf = Gf.Transform(UsdGeom.Xformable(stage.GetPrimAtPath(ROBOT_PATH)).ComputeLocalToWorldTransform(0))
    x, y, _ = xf.GetTranslation()
    return x, y, math.degrees(math.atan2(*reversed(xf.GetRotation().TransformDir(Gf.Vec3d(1, 0, 0))[:2])))


def load(scene: Path, cache: Path) -> tuple[MujocoSimulation, float, float]:
    """The loaded scene, its compile time (cold cache) and its cached load time (median of 5)."""
    backend = MujocoBackend(cache_dir=cache)
    clock = time.process_time()
    sim = backend.load(scene)
    compile_s = time.process_time() - clock
    loads = []
    for _ in range(5):
        clock = time.process_time()
        assert backend.load(scene).cache_hit
        loads.append(time.process_time() - clock)
    return sim, compile_s, statistics.median(loads)


def run_phase(sim: MujocoSimulation, seconds: float, moving: bool) -> float:
    """Wall seconds for ``seconds`` of simulated time from the reset state after one second of rest
    (the props fall asleep); moving: the arm sweeps, targets set every ``CONTROL_DT``."""
    sim.reset()
    sim.step(round(1.0 / sim.timestep))
    substeps = round(CONTROL_DT / sim.timestep)
    wall = 0.0
    for k in range(round(seconds / CONTROL_DT)):
        if moving:
            t = (k + 1) * CONTROL_DT
            sim.set_control(
                {j: fetch.HOME[j] + a * math.sin(2 * math.pi * t / period) for j, (a, period) in SWEEP.items()}
            )
        clock = time.process_time()
        sim.step(substeps)
        wall += time.process_time() - clock
    return wall


def measure(scenes: dict[str, tuple[Path, bool]], rounds: int, seconds: float, cache: Path) -> dict[str, dict]:
    """Per scene (path, sleeping on): sizes, compile and load times, and the median real-time factor
    of each phase over ``rounds`` interleaved rounds."""
    sims, rows, compiled = {}, {}, set()
    for name, (path, sleep) in scenes.items():
        sim, compile_s, load_s = load(path, cache)
        compile_s = None if path in compiled else compile_s  # a second variant of a scene: a cache hit
        compiled.add(path)
        if not sleep:
            sim.model.opt.enableflags &= ~int(mujoco.mjtEnableBit.mjENBL_SLEEP)
        m = sim.model
        sims[name] = sim
        rows[name] = {
            "bodies": m.nbody,
            "geoms": m.ngeom,
            "props": len(sim.get_state().objects),
            "compile_s": compile_s,
            "load_s": load_s,
        }
    walls = {(name, moving): [] for name in scenes for moving in (False, True)}
    for _ in range(rounds):
        for name, sim in sims.items():
            for moving in (False, True):
                walls[name, moving].append(run_phase(sim, seconds, moving))
    for name in scenes:
        for moving, key in ((False, "rest"), (True, "moving")):
            rows[name][key] = seconds / statistics.median(walls[name, moving])
    return rows


def table(rows: dict[str, dict]) -> str:
    lines = [
        "| scene | bodies | geoms | props | compile s | cached load s | real-time x at rest | real-time x arm moving |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, r in rows.items():
        compile_s = "-" if r["compile_s"] is None else f"{r['compile_s']:.3f}"
        lines.append(
            f"| {name} | {r['bodies']} | {r['geoms']} | {r['props']} | {compile_s} | {r['load_s']:.3f} | "
            f"{r['rest']:.1f} | {r['moving']:.1f} |"
        )
    bare = rows["bare floor"]
    for name, r in rows.items():
        if name != "bare floor":
            lines.append(
                f"| {name} / bare floor | | | | | | **{r['rest'] / bare['rest']:.2f}** | "
                f"**{r['moving'] / bare['moving']:.2f}** |"
            )
    return "\n".join(lines)


def write_section(scene: str, args: argparse.Namespace, text: str) -> None:
    """Replace (or append) the Simulation section of RESULTS.md, leaving other sections alone."""
    body = (
        f"{SECTION}\n\n`python bench/bench_sim.py --write` ({time.strftime('%Y-%m-%d')}; one core, MuJoCo "
        f"{mujoco.__version__} CPU, 2 ms steps; {args.rounds} interleaved rounds of {args.seconds:g} s simulated "
        f"per phase after 1 s at rest, medians; timed in this process's CPU seconds, which other processes on a "
        f"shared machine do not inflate). House scene: `{scene}`. At rest the robot holds its pose; "
        f"arm moving: three arm joints swept by sines, targets every {CONTROL_DT:g} s. The bare floor is a slab "
        f"with its top at z = 0 under the robot (no contact). The machine's speed varies from run to run: "
        f"the ratio rows compare like with like. Before issue 15 the honest ratio (this baseline) was 0.165 at "
        f"rest; the sleeping-off row is today's model with only the sleeping flag cleared.\n\n{text}\n"
    )
    old = RESULTS.read_text() if RESULTS.exists() else "# Benchmark results\n"
    pattern = re.compile(rf"{re.escape(SECTION)}\n.*?(?=\n## |\Z)", re.S)
    new = (
        pattern.sub(lambda _: body.rstrip("\n") + "\n", old)
        if pattern.search(old)
        else old.rstrip("\n") + "\n\n" + body
    )
    RESULTS.write_text(new if new.endswith("\n") else new + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0, help="simulated seconds per phase and round")
    parser.add_argument("--write", action="store_true", help="update bench/RESULTS.md")
    parser.add_argument("--scene", type=Path, help="the house scene (default: the first settled scene)")
    args = parser.parse_args()
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    settled = sorted((ROOT / "scenes/settled").glob("*/*/scene.usda"))
    house = (args.scene or (settled[0] if settled else ROOT / "scenes/house/house.usda")).resolve()
    with tempfile.TemporaryDirectory() as tmp:
        bare = bare_floor(Path(tmp) / "bare.usda", robot_start(house))
        scenes = {"house": (house, True), "house, sleeping off": (house, False), "bare floor": (bare, True)}
        rows = measure(scenes, args.rounds, args.seconds, Path(tmp) / "cache")
    text = table(rows)
    print(text)
    if args.write:
        write_section(str(house.relative_to(ROOT)) if house.is_relative_to(ROOT) else house.name, args, text)


if __name__ == "__main__":
    main()
