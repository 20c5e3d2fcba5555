"""Collision benchmark: housebench's collision settings against EmbodiedGen's own CoACD call.

For each asset (the default raw set and the shared EmbodiedGen sample), side by side in one run:
seconds per asset, hull count, fidelity as hull-union volume / mesh volume and the largest surface
deviation (mm, both ways between the mesh and the hull union). housebench takes its real path
(:func:`housebench.assets.collision.decompose` with ``params.yaml``, cold CoACD cache: repair, plain
hull when nearly convex, else CoACD, merge, caps); EmbodiedGen runs ``coacd.run_coacd`` with its
settings on the imported mesh in this process, as EmbodiedGen does; housebench's CoACD runs in its
warm worker process (its real path, the worker's start counted once). ``OMP_NUM_THREADS`` =
``--threads`` on both sides (1: one core per asset, as the stage's workers share the cores).
EmbodiedGen's results take minutes, so they are cached in ``.cache/bench/embodiedgen.json`` by
mesh, settings, CoACD version and threads, and re-measured only when one of those changes.

    python bench/bench_assets.py [--only bowl mug ...] [--threads 1] [--set resolution=100 ...]
        [--picture bench/collision.png]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import tempfile
import time
from importlib.metadata import version
from pathlib import Path

import numpy as np
import trimesh
import yaml

from housebench.assets.collision import (
    CollisionParams,
    decompose,
    load_hulls,
    save_hulls,
    welded,
)
from housebench.assets.importer import import_asset
from housebench.assets.objio import read_textured_obj
from housebench.assets.spec import load_specs
from housebench.assets.standins import DEFAULT_SET, generate
from housebench.params import load_params
from housebench.sim.offscreen import use_offscreen_gl

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT.parent / "shared" / "samples" / "embodiedgen" / "ear_hear" / "result"
BASELINE_CACHE = ROOT / ".cache" / "bench" / "embodiedgen.json"
# EmbodiedGen's call (embodied_gen/data/convex_decomposer.py), every other argument its default.
EMBODIEDGEN = {
    "threshold": 0.05,
    "max_convex_hull": 100,
    "preprocess_mode": "auto",
    "preprocess_resolution": 30,
    "resolution": 2000,
    "mcts_nodes": 20,
    "mcts_iterations": 150,
    "mcts_max_depth": 3,
    "pca": False,
    "merge": True,
    "seed": 0,
}
SAMPLES = 4000  # surface samples a side for the deviation
GROW = 5e-5  # metres: hulls grown before the union the deviation is measured on (merges touching hulls)
TOLERANCE = {"ratio": 0.002, "dev": 0.1}  # "equal" fidelity: |ratio - 1| and dev (mm) within these


def grown(vertices: np.ndarray, by: float) -> trimesh.Trimesh:
    """The convex hull of ``vertices`` grown by ``by`` (Minkowski sum with a cube of half-side ``by``:
    every face moves out by ``by`` to ``by`` * sqrt(3))."""
    corners = by * np.array(np.meshgrid([-1, 1], [-1, 1], [-1, 1])).reshape(3, -1).T
    return trimesh.convex.convex_hull((np.asarray(vertices)[:, None] + corners).reshape(-1, 3))


def fidelity(mesh: trimesh.Trimesh, hulls) -> tuple[float, float]:
    """Hull-union volume / mesh volume, and the largest surface deviation in mm (both ways).

    The deviation is measured on the union of the hulls grown by ``GROW``: hulls that merely touch
    (CoACD's cut faces) otherwise stay apart in the union, and the shared face, inside the solid,
    counts as surface (an exact two-piece bottle measured 12 mm)."""
    union = trimesh.boolean.union([trimesh.Trimesh(v, f) for v, f in hulls], engine="manifold")
    merged = trimesh.boolean.union([grown(v, GROW) for v, _ in hulls], engine="manifold")
    rng = np.random.default_rng(0)
    on_mesh = trimesh.sample.sample_surface(mesh, SAMPLES, seed=rng)[0]
    on_union = trimesh.sample.sample_surface(merged, SAMPLES, seed=rng)[0]
    out = np.abs(trimesh.proximity.closest_point(merged, on_mesh)[1]).max()
    back = np.abs(trimesh.proximity.closest_point(mesh, on_union)[1]).max()
    return float(union.volume / mesh.volume), float(1000 * max(out, back))


def ours(mesh: trimesh.Trimesh, collider: str, params: CollisionParams) -> dict:
    start = time.perf_counter()
    result = decompose(mesh.vertices, mesh.faces, collider, params)
    seconds = time.perf_counter() - start
    ratio, dev = fidelity(mesh, result.hulls)
    return {
        "s": seconds,
        "hulls": len(result.hulls),
        "method": result.method,
        "ratio": ratio,
        "dev": dev,
        "meshes": result.hulls,
    }


def embodiedgen(mesh: trimesh.Trimesh, threads: int) -> dict:
    """EmbodiedGen's CoACD call on ``mesh``, in this process as EmbodiedGen makes it: its time and
    hulls from the cache, else measured (and cached); the fidelity measured here."""
    digest = hashlib.sha256(np.ascontiguousarray(mesh.vertices, float).tobytes())
    digest.update(np.ascontiguousarray(mesh.faces, np.int64).tobytes())
    digest.update(json.dumps([EMBODIEDGEN, version("coacd"), threads], sort_keys=True).encode())
    key = digest.hexdigest()
    hull_file = BASELINE_CACHE.with_suffix("") / f"{key}.npz"
    cache = json.loads(BASELINE_CACHE.read_text()) if BASELINE_CACHE.exists() else {}
    if key not in cache or not hull_file.exists():
        import coacd

        coacd.set_log_level("error")
        start = time.perf_counter()
        parts = coacd.run_coacd(coacd.Mesh(mesh.vertices, mesh.faces), **EMBODIEDGEN)
        seconds = time.perf_counter() - start
        hull_file.parent.mkdir(parents=True, exist_ok=True)
        save_hulls(hull_file, [(np.asarray(v, float), np.asarray(f, np.int64)) for v, f in parts])
        cache[key] = {"s": seconds}
        BASELINE_CACHE.write_text(json.dumps(cache, indent=1, sort_keys=True))
    hulls = load_hulls(hull_file)
    ratio, dev = fidelity(mesh, hulls)
    return {"s": cache[key]["s"], "hulls": len(hulls), "ratio": ratio, "dev": dev, "meshes": hulls}


def views(spec, groups: list[int], size: int) -> np.ndarray:
    """One ``size`` x ``size`` view per geom group of ``spec`` (a ``mujoco.MjSpec``), side by side, from
    the same camera; the geoms of every group but the first get one colour each."""
    import mujoco

    from housebench.assets.preview import hull_colour

    for group in groups[1:]:
        for i, geom in enumerate(g for g in spec.geoms if g.group == group):
            geom.rgba = hull_colour(i)
    spec.visual.headlight.ambient = [0.45] * 3
    spec.visual.headlight.diffuse = [0.75] * 3
    model = spec.compile()
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    camera = mujoco.MjvCamera()
    camera.lookat[:] = model.stat.center
    camera.distance, camera.azimuth, camera.elevation = 1.5 * float(model.stat.extent), 135.0, -30.0
    renderer = mujoco.Renderer(model, size, size)
    try:
        pictures = []
        for group in groups:
            option = mujoco.MjvOption()
            option.geomgroup[:] = 0
            option.geomgroup[group] = 1
            renderer.update_scene(data, camera=camera, scene_option=option)
            pictures.append(renderer.render().copy())
    finally:
        renderer.close()
    return np.hstack(pictures)


def comparison(mesh: trimesh.Trimesh, ours_hulls, theirs_hulls, size: int = 220) -> np.ndarray:
    """The mesh, housebench's hulls and EmbodiedGen's hulls side by side (one colour per hull)."""
    import mujoco

    spec = mujoco.MjSpec()
    body = spec.worldbody.add_body(name="asset")
    sides = [(2, [(mesh.vertices, mesh.faces)]), (3, ours_hulls), (4, theirs_hulls)]  # geom groups
    for group, meshes in sides:
        for i, (v, f) in enumerate(meshes):
            name = f"g{group}_{i}"
            spec.add_mesh(name=name, uservert=np.ravel(v).tolist(), userface=np.ravel(f).tolist())
            body.add_geom(
                type=mujoco.mjtGeom.mjGEOM_MESH,
                meshname=name,
                group=group,
                rgba=[0.8, 0.8, 0.8, 1],
                contype=0,
                conaffinity=0,
            )
    return views(spec, [group for group, _ in sides], size)


def imported(names: list[str], work: Path) -> dict[str, tuple[trimesh.Trimesh, str]]:
    """Import the named raw props (and the sample): name -> (welded visual mesh, spec collider)."""
    specs = load_specs(ROOT / "assets" / "specs.yaml").assets
    generate(tuple(n for n in names if n != "ear_hear"), work / "raw", seed=0)
    out = {}
    for name in names:
        folder = work / "imported" / name
        folder.mkdir(parents=True)
        source = SAMPLE if name == "ear_hear" else work / "raw" / name / "result"
        import_asset(source, folder, specs.get(name), name=name)
        vertices, faces, _ = read_textured_obj(folder / "visual.obj")
        out[name] = (welded(vertices, faces), specs[name].collider if name in specs else "auto")
    return out


def as_good(a: dict, b: dict) -> bool:
    """``a``'s fidelity equal to or better than ``b``'s on both measures (within TOLERANCE)."""
    return abs(a["ratio"] - 1) <= abs(b["ratio"] - 1) + TOLERANCE["ratio"] and a["dev"] <= b["dev"] + TOLERANCE["dev"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", nargs="*", default=[*DEFAULT_SET, "ear_hear"])
    parser.add_argument("--threads", type=int, default=1, help="OMP_NUM_THREADS for CoACD, both sides")
    parser.add_argument(
        "--picture",
        type=Path,
        metavar="PNG",
        help="also draw mesh | housebench hulls | EmbodiedGen hulls of the CoACD-path assets",
    )
    parser.add_argument(
        "--set",
        nargs="*",
        default=[],
        metavar="KEY=VALUE",
        help="override a `collision:` param of params.yaml for housebench's side",
    )
    args = parser.parse_args()
    os.environ["OMP_NUM_THREADS"] = str(args.threads)
    use_offscreen_gl()  # before MuJoCo is imported (for --picture)
    shipped = {
        **load_params("collision", ROOT / "params.yaml"),
        **{k: yaml.safe_load(v) for k, v in (item.split("=", 1) for item in args.set)},
    }
    print(
        "| asset | method | housebench s | hulls | vol ratio | dev mm | EmbodiedGen s | hulls |"
        " vol ratio | dev mm | speed-up | fidelity |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    rows, drawn = [], {}  # drawn after the timings, so rendering does not disturb them
    with tempfile.TemporaryDirectory() as tmp:
        for name, (mesh, collider) in imported(args.only, Path(tmp)).items():
            a = ours(mesh, collider, CollisionParams(**{**shipped, "cache_dir": str(Path(tmp) / "coacd")}))
            b = embodiedgen(mesh, args.threads)
            rows.append((a, b))
            if args.picture and a["method"] == "coacd":
                drawn[name] = (mesh, a["meshes"], b["meshes"])
            verdict = "equal or better" if as_good(a, b) else "WORSE"
            print(
                f"| {name} | {a['method']} | {a['s']:.2f} | {a['hulls']} | {a['ratio']:.3f} | "
                f"{a['dev']:.1f} | {b['s']:.2f} | {b['hulls']} | {b['ratio']:.3f} | {b['dev']:.1f} | "
                f"{b['s'] / a['s']:.1f}x | {verdict} |",
                flush=True,
            )
    print(summary(rows))
    if drawn:
        from housebench.assets.preview import contact_sheet

        contact_sheet({name: comparison(*sides) for name, sides in drawn.items()}, columns=2).save(args.picture)
        print(f"picture: {args.picture} (per asset: mesh | housebench | EmbodiedGen)")


def summary(rows: list[tuple[dict, dict]]) -> str:
    """Totals, mean fidelity a side and how many assets meet the goal (5x at equal or better)."""
    ours_s, theirs_s = (sum(side["s"] for side in column) for column in zip(*rows))
    met = sum(b["s"] >= 5 * a["s"] and as_good(a, b) for a, b in rows)
    lines = [
        (
            f"\ntotal: housebench {ours_s:.1f} s, EmbodiedGen {theirs_s:.1f} s, "
            f"speed-up {theirs_s / ours_s:.1f}x; goal met by {met} of {len(rows)} assets"
        )
    ]
    for label, column in zip(("housebench", "EmbodiedGen"), zip(*rows)):
        lines.append(
            f"mean |vol ratio - 1| {np.mean([abs(c['ratio'] - 1) for c in column]):.3f}, "
            f"mean dev {np.mean([c['dev'] for c in column]):.1f} mm: {label}"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    main()
