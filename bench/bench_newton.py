"""Newton against MuJoCo on the same scenes, in one process pinned to one core, in the same run.

For each scene (the house alone, then settled task scenes): the MuJoCo backend and the Newton backend in
the contact settings that matter: MuJoCo's collision inside Newton's MuJoCo solver (MuJoCo's C library), and
Newton's own collision pipeline, which needs MuJoCo Warp's kernels (on this CPU: minutes of compiling, then
a few steps per second, so it runs ``--warp-seconds`` only, without the stability check), with a 0 gap and
with Newton's default 0.1 m gap. Per configuration: load time (USD to a ready simulation), physics speed at
rest (steps per second and real-time factor after 0.5 s), contacts in the last step, and the 3 s stability
check (largest prop drift, robot joint deviation, part opening). Needs the newton extra
(``pip install -e '.[newton]'``); scenes from ``dvc repro annotate``.

A second table: the props' drift in Newton with their hulls as authored (255 vertices at most, the limit
written on each hull) against the same scenes with every prop hull capped at 64 (``--hull-scenes``).

A third: every part opened and let go in the house alone, in both engines: the part joints reach Newton's
solver outside any articulation (pxr's UsdPhysics parser lists no body for the one-body articulations the
house authors), and SolverMuJoCo builds each as a body on its joint from the world; if that lost the
authored limits, drive or armature, the trajectories would part.

    python bench/bench_newton.py [--scenes 2] [--seconds 2] [--warp-seconds 0.1] [--tables speed hulls parts]
        [--write]
"""

from __future__ import annotations

import argparse
import os
import re
import tempfile
import time
import warnings
from pathlib import Path

import newton
import yaml
from pxr import Sdf, Usd, UsdPhysics

from housebench.sim.mujoco import MujocoBackend
from housebench.sim.newton import NewtonBackend
from housebench.sim.newton.simulation import NewtonSimulation
from housebench.sim.settle import stability

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "RESULTS.md"
SECTION = "## Newton against MuJoCo"
CONFIGS = {  # name: (backend, runs on MuJoCo Warp's kernels)
    "mujoco": (MujocoBackend(), False),
    "newton, MuJoCo contacts": (NewtonBackend(contacts="mujoco"), False),
    "newton, Newton contacts, gap 0": (NewtonBackend(contacts="newton", gap=0.0), True),
    "newton, Newton contacts, gap 0.1 (default)": (NewtonBackend(contacts="newton", gap=0.1), True),
}


def _contacts(sim) -> int:
    if hasattr(sim, "contact_count"):
        return sim.contact_count()
    return int(sim.data.ncon)


def measure(backend, scene: Path, seconds: float, check: dict | None) -> dict:
    start = time.perf_counter()
    sim = backend.load(scene)
    load = time.perf_counter() - start
    sim.step(round((0.5 if check else 0.02) / sim.timestep))
    steps = round(seconds / sim.timestep)
    start = time.perf_counter()
    sim.step(steps)
    wall = time.perf_counter() - start
    found = {"load": load, "sps": steps / wall, "rtf": seconds / wall, "contacts": _contacts(sim)}
    if not check:
        return {**found, "drift_mm": None, "robot": None, "part": None, "passed": None}
    report = stability(backend.load(scene), check)
    return {
        **found,
        "drift_mm": 1000 * max(report["drift"].values(), default=0.0),
        "robot": report["robot_max_dev"],
        "part": report["part_max_open"],
        "passed": report["passed"],
    }


def capped(scene: Path, out: Path, limit: int = 64) -> Path:
    """A layer over ``scene`` that sets every prop hull's vertex limit to ``limit`` (the engines' default)."""
    stage = Usd.Stage.Open(str(scene))
    layer = Sdf.Layer.CreateNew(str(out))
    layer.subLayerPaths.append(str(scene.resolve()))
    over = Usd.Stage.Open(layer)
    for prim in stage.Traverse():
        if prim.HasAPI(UsdPhysics.MeshCollisionAPI) and str(prim.GetPath()).startswith("/World/Props/"):
            over.OverridePrim(prim.GetPath()).CreateAttribute("newton:maxHullVertices", Sdf.ValueTypeNames.Int).Set(
                limit
            )
    layer.Save()
    return out


def hull_limit(scenes: list[Path], check: dict) -> str:
    """Prop drift over the 3 s check in Newton: hulls as authored (255) against capped at 64."""
    lines = [
        "Hull vertex limit in Newton (the same settled scenes, the 3 s check; every hull as authored, at most 255"
        " vertices, against every prop hull capped at Newton's default 64 by a layer over the scene): the largest"
        " prop drift, mm.",
        "",
        "| scene | drift, hulls as authored | drift, hulls capped at 64 | worst prop capped |",
        "|---|---|---|---|",
    ]
    backend = NewtonBackend()
    with tempfile.TemporaryDirectory() as tmp:
        for scene in scenes:
            full = stability(backend.load(scene), check)["drift"]
            cap = stability(backend.load(capped(scene, Path(tmp) / f"{scene.parent.parent.name}.usda")), check)["drift"]
            worst = max(cap, key=cap.get)
            lines.append(
                f"| {scene.parent.parent.name} | {1000 * max(full.values()):.2f} | {1000 * cap[worst]:.2f} | {worst} |"
            )
    return "\n".join(lines) + "\n"


# part: (opening, velocity) at release, rad and rad/s or m and m/s
PARTS = {
    "fridge/door": (0.3, -2.0),
    "microwave/door": (0.3, 2.0),
    "counter_south/drawer_1": (0.1, -0.5),
    "microwave/start_button": (0.006, 0.0),
}
RELEASE_TIMES = (0.05, 0.2, 1.0)  # s after the part is let go


def _kick(sim, part: str, velocity: float) -> None:
    """Set one part joint's velocity (each backend's own arrays: the shared state carries no joint velocities)."""
    if isinstance(sim, NewtonSimulation):
        qd = sim.state.joint_qd.numpy()
        qd[sim._joints[part][1]] = velocity
        sim.state.joint_qd.assign(qd)
    else:
        sim.data.qvel[sim._dofs[part]] = velocity


def part_release(house: Path) -> str:
    """Each part of ``PARTS`` opened and let go at a velocity: its opening at ``RELEASE_TIMES`` in the MuJoCo
    backend and in Newton (damping, armature, the closed limit and a button's spring shape the path)."""
    sims = {"mujoco": MujocoBackend().load(house), "newton": NewtonBackend().load(house)}
    lines = [
        "Parts let go in the house alone (opened, then released at a velocity; the joint's drive, damping,"
        " armature and closed limit shape the path): opening at "
        + ", ".join(f"{t:g} s" for t in RELEASE_TIMES)
        + ", rad or m.",
        "",
        "| part | opened, velocity | mujoco | newton | largest difference |",
        "|---|---|---|---|---|",
    ]
    for part, (opening, velocity) in PARTS.items():
        paths = {}
        for name, sim in sims.items():
            sim.reset()
            state = sim.get_state()
            sim.set_state(state.model_copy(update={"joints": {**state.joints, part: opening}}))
            if name == "newton":  # its set_state makes a value its drive's target too
                sim.set_control({part: 0.0})
            _kick(sim, part, velocity)
            start, path = sim.time, []
            for t in RELEASE_TIMES:
                sim.step(round((start + t - sim.time) / sim.timestep))
                path.append(sim.get_state().joints[part])
            paths[name] = path
        diff = max(abs(a - b) for a, b in zip(paths["mujoco"], paths["newton"]))
        cells = [", ".join(f"{v:.4f}" for v in paths[n]) for n in sims]
        lines.append(f"| {part} | {opening:g}, {velocity:g} | {cells[0]} | {cells[1]} | {diff:.4f} |")
    return "\n".join(lines) + "\n"


def _fmt(value, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def table(rows: list[tuple[str, str, dict]], seconds: float, warp: float) -> str:
    lines = [
        f"`python bench/bench_newton.py --write` ({time.strftime('%Y-%m-%d')}; one core; Newton {newton.__version__}"
        f" with SolverMuJoCo, 2 ms steps, {seconds:g} s simulated at rest after 0.5 s, Newton's contact pipeline"
        f" on MuJoCo Warp's CPU kernels {warp:g} s; the stability check is the settle stage's 3 s check). The"
        " ratio is against MuJoCo on the same scene in the same run; load is the USD to a ready simulation"
        " (MuJoCo: its compiled-model cache may hit; Newton: Warp's kernel cache warm). contacts: in the last step"
        " (the MuJoCo backend sleeps islands at rest, which then report none; Newton's pipeline counts every"
        " contact inside its gap, MuJoCo only active ones).",
        "",
        "| scene | backend, contacts | load s | steps/s | real-time x | / mujoco | contacts | drift mm"
        " | robot dev | part open | stable |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    base = {scene: r["sps"] for scene, name, r in rows if name == "mujoco"}
    for scene, name, r in rows:
        lines.append(
            f"| {scene} | {name} | {r['load']:.1f} | {r['sps']:.0f} | {r['rtf']:.2f} | {r['sps'] / base[scene]:.3f}"
            f" | {r['contacts']} | {_fmt(r['drift_mm'], '.2f')} | {_fmt(r['robot'], '.4f')}"
            f" | {_fmt(r['part'], '.4f')} | {_fmt(r['passed'], '')} |"
        )
    return "\n".join(lines) + "\n"


def write(text: str) -> None:
    old = RESULTS.read_text()
    block = f"{SECTION}\n\n{text}\n"
    pattern = re.compile(rf"{re.escape(SECTION)}\n.*?(?=\n## |\Z)", re.S)
    RESULTS.write_text(pattern.sub(block.rstrip("\n") + "\n", old) if SECTION in old else old.rstrip() + "\n\n" + block)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=2, help="settled scenes after the house alone")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--warp-seconds", type=float, default=0.1, help="simulated on MuJoCo Warp's CPU kernels")
    parser.add_argument("--hull-scenes", nargs="*", default=["collect_fruits", "put_fruit_in_container", "tidy_toys"])
    parser.add_argument("--tables", nargs="+", default=["speed", "hulls", "parts"], choices=["speed", "hulls", "parts"])
    parser.add_argument("--write", action="store_true", help=f"replace the '{SECTION}' section of RESULTS.md")
    args = parser.parse_args()
    if args.write and len(set(args.tables)) < 3:
        parser.error("--write replaces the whole section: run every table")
    os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    warnings.simplefilter("ignore")
    check = yaml.safe_load((ROOT / "params.yaml").read_text())["settle"]
    house = ROOT / "scenes/house/house.usda"
    scenes = [house, *sorted((ROOT / "scenes/settled").glob("*/v000/scene.usda"))]
    texts = []
    if "speed" in args.tables:
        rows = []
        for scene in scenes[: 1 + args.scenes]:
            label = "house alone" if scene.name == "house.usda" else scene.parent.parent.name
            for name, (backend, warp) in CONFIGS.items():
                seconds, checked = (args.warp_seconds, None) if warp else (args.seconds, check)
                rows.append((label, name, measure(backend, scene, seconds, checked)))
                print(label, name, {k: round(v, 4) if isinstance(v, float) else v for k, v in rows[-1][2].items()})
        texts.append(table(rows, args.seconds, args.warp_seconds))
    if "hulls" in args.tables:
        hull_scenes = [ROOT / "scenes/settled" / name / "v000/scene.usda" for name in args.hull_scenes]
        texts.append(hull_limit(hull_scenes, check))
    if "parts" in args.tables:
        texts.append(part_release(house))
    text = "\n".join(texts)
    print(text)
    if args.write:
        write(text)


if __name__ == "__main__":
    main()
