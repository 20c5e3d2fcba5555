"""Simulation benchmark: the full house + Fetch + a task's props against Fetch on a bare floor.

Both scenes run in one process pinned to one core, side by side: compile time (cold cache), load
time on a cache hit (median of 5), physics steps per second while the robot holds its pose, and the
real-time factor (simulated seconds per wall second). The house scene is ``--scene``, else the first
task scene under ``scenes/tasks`` (run ``dvc repro`` first), or the house alone when there is none.
Goals: the house at least 10x real time on one core, a cached load under 1 s.

    python bench/bench_sim.py [--scene task.usda] [--steps 5000] [--write]   # --write: bench/RESULTS.md
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import tempfile
import time
from pathlib import Path

from pxr import Gf, Sdf, Usd, UsdGeom, UsdPhysics

from housebench.sim.mujoco import MujocoBackend
from housebench.usd.paths import HOUSE_ROOT, ROBOT_PATH

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "RESULTS.md"
SECTION = "## Simulation"


def bare_floor(path: Path, start: tuple[float, float, float]) -> Path:
    """A floor slab and the robot at ``start``: the baseline scene."""
    stage = Usd.Stage.CreateNew(str(path))
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.z)
    UsdGeom.SetStageMetersPerUnit(stage, 1.0)
    stage.SetDefaultPrim(UsdGeom.Xform.Define(stage, "/World").GetPrim())
    floor = UsdGeom.Cube.Define(stage, f"{HOUSE_ROOT}/floor/slab")
    floor.AddTranslateOp().Set(Gf.Vec3d(start[0], start[1], -0.05))
    floor.AddScaleOp().Set(Gf.Vec3f(10, 10, 0.1))
    UsdPhysics.CollisionAPI.Apply(floor.GetPrim())
    robot = UsdGeom.Xform.Define(stage, ROBOT_PATH)
    robot.AddTranslateOp().Set(Gf.Vec3d(start[0], start[1], 0.0))
    robot.AddRotateZOp().Set(start[2])
    robot.GetPrim().CreateAttribute("housebench:robot", Sdf.ValueTypeNames.String).Set("fetch")
    stage.GetRootLayer().Save()
    return path


def measure(scene: Path, steps: int, cache: Path) -> dict:
    backend = MujocoBackend(cache_dir=cache)
    clock = time.perf_counter()
    sim = backend.load(scene)
    compile_s = time.perf_counter() - clock
    loads = []
    for _ in range(5):
        clock = time.perf_counter()
        hit = backend.load(scene)
        loads.append(time.perf_counter() - clock)
        assert hit.cache_hit
    sim.step(100)  # warm up
    clock = time.perf_counter()
    sim.step(steps)
    wall = time.perf_counter() - clock
    m = sim.model
    return {
        "bodies": m.nbody,
        "geoms": m.ngeom,
        "joints": m.njnt,
        "props": len(sim.get_state().objects),
        "compile_s": compile_s,
        "load_s": statistics.median(loads),
        "steps_s": steps / wall,
        "rtf": steps * sim.timestep / wall,
    }


def table(rows: dict[str, dict]) -> str:
    house, bare = rows["house"], rows["bare floor"]
    lines = [
        "| scene | bodies | geoms | joints | props | compile s | cached load s | steps/s | real-time x |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, r in rows.items():
        lines.append(
            f"| {name} | {r['bodies']} | {r['geoms']} | {r['joints']} | {r['props']} | "
            f"{r['compile_s']:.3f} | {r['load_s']:.3f} | {r['steps_s']:.0f} | {r['rtf']:.1f} |"
        )
    lines.append(
        f"| house / bare | | | | | {house['compile_s'] / bare['compile_s']:.2f} | "
        f"{house['load_s'] / bare['load_s']:.2f} | {house['steps_s'] / bare['steps_s']:.2f} | "
        f"{house['rtf'] / bare['rtf']:.2f} |"
    )
    return "\n".join(lines)


def write_section(scene: str, text: str) -> None:
    """Replace (or append) the Simulation section of RESULTS.md, leaving other sections alone."""
    body = (
        f"{SECTION}\n\n`python bench/bench_sim.py --write` (one core, MuJoCo CPU, 2 ms steps, "
        f"the robot holding its pose). House scene: `{scene}`. The machine's speed varies from run to "
        f"run (the bare floor alone between 50x and 80x): the ratio row compares like with like.\n\n{text}\n"
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
    parser.add_argument("--steps", type=int, default=5000)
    parser.add_argument("--write", action="store_true", help="update bench/RESULTS.md")
    parser.add_argument("--scene", type=Path, help="the house scene (default: the first task scene)")
    args = parser.parse_args()
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    tasks = sorted((ROOT / "scenes/tasks").glob("*/*/task.usda"))
    house = (args.scene or (tasks[0] if tasks else ROOT / "scenes/house/house.usda")).resolve()
    stage = Usd.Stage.Open(str(house))
    start = stage.GetPrimAtPath(ROBOT_PATH).GetAttribute("xformOp:translate").Get()
    with tempfile.TemporaryDirectory() as tmp:
        bare = bare_floor(Path(tmp) / "bare.usda", (start[0], start[1], 0.0))
        rows = {
            "house": measure(house, args.steps, Path(tmp) / "cache"),
            "bare floor": measure(bare, args.steps, Path(tmp) / "cache"),
        }
    text = table(rows)
    print(text)
    if args.write:
        write_section(str(house.relative_to(ROOT)), text)


if __name__ == "__main__":
    main()
