"""The houses' looks (issue 31 item 2): what they cost and what the head camera sees, flat colours against looks,
measured in one run.

1. The house stage itself, run in temporary projects (the repository's params, ``houses.procedural`` set to
   ``--seeds``, fresh MuJoCo caches): once with ``house.looks.styles: []`` (flat colours: the house of before) and
   once with the params' styles, alternating ``--stage-runs`` times. Its least wall time, and the bytes on disk of
   each house's folder.
2. Per house of that set: the seconds to compile the MuJoCo model of its ``house.usda`` (mean of ``--repeat``), the
   compiled model's size (MJB), the seconds to render one head image at the vision track's size, and the distinct
   colours the head camera shows of floor, walls and furniture (the test's measure, ``tests/sim/test_looks.py``).
3. ``--picture``: head-camera frames of the first houses of three styles (the README's ``docs/looks_head.png``).

    PYTHONPATH=$PWD MUJOCO_GL=egl python bench/bench_looks.py [--seeds 0 1 2 3] [--repeat 3] \
        [--out runs/bench/looks.jsonl] [--picture docs/looks_head.png]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import mujoco
import numpy as np
import yaml
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "sim"))
from test_looks import head_colours  # noqa: E402  (the test's measure, so the bench and the test agree)

from housebench.robot import fetch  # noqa: E402
from housebench.sim.mujoco.compile import compile_stage, open_stage  # noqa: E402
from housebench.sim.mujoco.looks import CEILING_GROUP  # noqa: E402
from housebench.usd.looks import STYLE_ATTR  # noqa: E402
from housebench.usd.paths import LOOKS  # noqa: E402

HEAD_SIZE = (160, 120)  # rollout.image_size
FRAME = (200, 150)  # one picture frame
PICTURE_HOUSES = 3  # the picture's rows: the first house of each style, this many
FRAME_YAWS = (0.0, 2.1, 4.2)  # headings of the frames of each house (added to its start yaw)
PICTURE_COLOURS = 256  # the picture is saved with a palette of this many colours (a README-sized file)
FRAME_TILT = 0.45  # rad, the head tilted down


def run_stage(project: Path, styles: list[str] | None, seeds: list[int]) -> float:
    """Seconds of ``python -m stages.house`` in ``project`` (a fresh copy of the params, ``styles`` None: as
    they are)."""
    params = yaml.safe_load((ROOT / "params.yaml").read_text())
    params["houses"] = {"grid": True, "procedural": seeds, "held_out": []}
    if styles is not None:
        params["house"]["looks"]["styles"] = styles
    project.mkdir(parents=True)
    (project / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    os.symlink(ROOT / "tasks", project / "tasks")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HOUSEBENCH_MJCF_CACHE": str(project / "mjcf")}
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "stages.house"], cwd=project, env=env, check=True, capture_output=True)
    return time.perf_counter() - start


def folders(project: Path) -> dict[str, Path]:
    house = project / "scenes/house"
    ids = [h["id"] for h in json.loads((house / "houses.json").read_text())["houses"]]
    return {i: house if i == "grid" else house / i for i in ids}


def disk_bytes(folder: Path) -> int:
    """The house's own files: its layer, picture, annotations, textures (not the shared robot asset)."""
    files = [p for p in folder.iterdir() if p.is_file() and p.name not in ("fetch.usda", "houses.json")]
    textures = folder / "textures"
    files += list(textures.iterdir()) if textures.is_dir() else []
    return sum(p.stat().st_size for p in files)


def measure(path: Path, repeat: int) -> dict:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        model = compile_stage(open_stage(path))
        times.append(time.perf_counter() - start)
    with tempfile.NamedTemporaryFile(suffix=".mjb") as mjb:
        mujoco.mj_saveModel(model, mjb.name, None)
        size = Path(mjb.name).stat().st_size
    data = mujoco.MjData(model)
    mujoco.mj_resetDataKeyframe(model, data, 0)
    mujoco.mj_forward(model, data)
    option = mujoco.MjvOption()
    option.geomgroup[CEILING_GROUP] = 1
    with mujoco.Renderer(model, HEAD_SIZE[1], HEAD_SIZE[0]) as renderer:
        start = time.perf_counter()
        for _ in range(20):
            renderer.update_scene(data, camera=fetch.HEAD_CAMERA, scene_option=option)
            renderer.render()
        render_s = (time.perf_counter() - start) / 20
    return {
        "compile_s": round(float(np.mean(times)), 3),
        "mjb_bytes": size,
        "head_render_ms": round(1000 * render_s, 2),
        "colours": head_colours(model),
    }


def frames(path: Path) -> np.ndarray:
    """Head-camera frames of one house, side by side, the robot at its start turned to each of FRAME_YAWS."""
    model = compile_stage(open_stage(path))
    data = mujoco.MjData(model)
    option = mujoco.MjvOption()
    option.geomgroup[CEILING_GROUP] = 1
    yaw = model.joint(fetch.BASE_JOINTS[2]).qposadr[0]
    out = []
    with mujoco.Renderer(model, FRAME[1], FRAME[0]) as renderer:
        for heading in FRAME_YAWS:
            mujoco.mj_resetDataKeyframe(model, data, 0)
            data.qpos[yaw] += heading
            data.qpos[model.joint(fetch.HEAD_JOINTS[1]).qposadr[0]] = FRAME_TILT
            mujoco.mj_forward(model, data)
            renderer.update_scene(data, camera=fetch.HEAD_CAMERA, scene_option=option)
            out.append(renderer.render())
    return np.hstack(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="*", default=[0, 1, 2, 3])
    parser.add_argument("--repeat", type=int, default=3, help="compiles per house (mean)")
    parser.add_argument("--stage-runs", type=int, default=2, help="runs of each stage, alternating (the least)")
    parser.add_argument("--out", type=Path, default=ROOT / "runs/bench/looks.jsonl")
    parser.add_argument("--picture", type=Path, default=None)
    args = parser.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, args.out.open("w") as rows:
        projects, stage_s = {}, {"flat": [], "looks": []}
        for run in range(args.stage_runs):
            for name, styles in (("flat", []), ("looks", None)):
                projects[name] = Path(tmp) / f"{name}{run}"
                stage_s[name].append(run_stage(projects[name], styles, args.seeds))
        stage_s = {name: min(times) for name, times in stage_s.items()}
        for name, least in stage_s.items():
            print(f"house stage, {name}: {least:.1f} s for {1 + len(args.seeds)} houses (least of {args.stage_runs})")
        strips, pictured = [], set()
        for house, flat_dir in folders(projects["flat"]).items():
            looks_dir = folders(projects["looks"])[house]
            stage = open_stage(looks_dir / "house.usda")
            row = {"house": house, "style": stage.GetPrimAtPath(LOOKS).GetAttribute(STYLE_ATTR).Get()}
            for name, folder in (("flat", flat_dir), ("looks", looks_dir)):
                row[name] = {"disk_bytes": disk_bytes(folder), **measure(folder / "house.usda", args.repeat)}
                row[name]["stage_s"] = round(stage_s[name], 1)
            rows.write(json.dumps(row) + "\n")
            f, lk = row["flat"], row["looks"]
            print(
                f"{house:>5} {row['style']:>8}  disk {f['disk_bytes'] / 1e3:7.1f} -> {lk['disk_bytes'] / 1e3:7.1f} kB  "
                f"compile {f['compile_s']:.2f} -> {lk['compile_s']:.2f} s  "
                f"mjb {f['mjb_bytes'] / 1e6:.2f} -> {lk['mjb_bytes'] / 1e6:.2f} MB  "
                f"head {f['head_render_ms']:.1f} -> {lk['head_render_ms']:.1f} ms  "
                f"colours {f['colours']} -> {lk['colours']}"
            )
            if args.picture and len(strips) < PICTURE_HOUSES and row["style"] not in pictured:
                pictured.add(row["style"])
                strips.append(frames(looks_dir / "house.usda"))
        if args.picture:
            args.picture.parent.mkdir(parents=True, exist_ok=True)
            Image.fromarray(np.vstack(strips)).quantize(PICTURE_COLOURS).save(args.picture, optimize=True)


if __name__ == "__main__":
    main()
