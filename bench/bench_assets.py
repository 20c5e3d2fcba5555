"""Collision benchmark: housebench's collision settings against EmbodiedGen's own CoACD call.

For each asset (the default raw set and the shared EmbodiedGen sample), both configurations run
from a cold cache, side by side in one run: seconds per asset, hull count, fidelity as hull-union
volume / mesh volume and the largest surface deviation (mm, both ways between the mesh and the hull
union). housebench takes its real path (spec collider: plain hull when nearly convex, else CoACD
with ``params.yaml``); EmbodiedGen runs CoACD on everything with its settings.

    python bench/bench_assets.py [--only bowl mug ...] [--baseline-only bowl mug ...]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
import trimesh

from housebench.assets.collision import CollisionParams, decompose, welded
from housebench.assets.importer import import_asset
from housebench.assets.objio import read_textured_obj
from housebench.assets.spec import load_specs
from housebench.assets.standins import DEFAULT_SET, generate
from housebench.params import load_params

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT.parent / "shared" / "samples" / "embodiedgen" / "ear_hear" / "result"
EMBODIEDGEN = {"threshold": 0.05, "max_hulls": 100, "resolution": 2000, "mcts_nodes": 20,
               "mcts_iterations": 150, "mcts_max_depth": 3, "preprocess_resolution": 50,
               "max_hull_vertices": 256, "timeout_s": 900}


def fidelity(mesh: trimesh.Trimesh, hulls, samples: int = 4000) -> tuple[float, float]:
    """Hull-union volume / mesh volume, and the largest surface deviation in mm (both ways)."""
    union = trimesh.boolean.union([trimesh.Trimesh(v, f) for v, f in hulls], engine="manifold")
    rng = np.random.default_rng(0)
    on_mesh = trimesh.sample.sample_surface(mesh, samples, seed=rng)[0]
    on_union = trimesh.sample.sample_surface(union, samples, seed=rng)[0]
    out = np.abs(trimesh.proximity.closest_point(union, on_mesh)[1]).max()
    back = np.abs(trimesh.proximity.closest_point(mesh, on_union)[1]).max()
    return union.volume / mesh.volume, 1000 * max(out, back)


def measure(vertices, faces, collider: str, params: CollisionParams) -> dict:
    start = time.perf_counter()
    result = decompose(vertices, faces, collider, params)
    seconds = time.perf_counter() - start
    ratio, deviation = fidelity(welded(vertices, faces), result.hulls)
    return {"s": seconds, "hulls": len(result.hulls), "method": result.method, "ratio": ratio,
            "dev": deviation}


def imported(names: list[str], work: Path) -> dict[str, tuple[Path, str]]:
    """Import the named raw props (and the sample): name -> (visual.obj, spec collider)."""
    specs = load_specs(ROOT / "assets" / "specs.yaml").assets
    generate(tuple(n for n in names if n != "ear_hear"), work / "raw", seed=0)
    out = {}
    for name in names:
        folder = work / "imported" / name
        folder.mkdir(parents=True)
        source = SAMPLE if name == "ear_hear" else work / "raw" / name / "result"
        import_asset(source, folder, specs.get(name), name=name)
        out[name] = (folder / "visual.obj", specs[name].collider if name in specs else "auto")
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", nargs="*", default=[*DEFAULT_SET, "ear_hear"])
    parser.add_argument("--baseline-only", nargs="*", default=None,
                        help="run EmbodiedGen's settings on these only (default: all)")
    args = parser.parse_args()
    shipped = load_params("collision", ROOT / "params.yaml")
    print("| asset | housebench s | hulls | method | vol ratio | dev mm | EmbodiedGen s | hulls |"
          " vol ratio | dev mm | speed-up |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    totals = [0.0, 0.0, 0.0]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name, (visual, collider) in imported(args.only, work).items():
            v, f, _ = read_textured_obj(visual)
            ours = measure(v, f, collider, CollisionParams(**{**shipped, "cache_dir": str(work / "c1")}))
            row = (f"| {name} | {ours['s']:.2f} | {ours['hulls']} | {ours['method']} | "
                   f"{ours['ratio']:.3f} | {ours['dev']:.1f} |")
            if args.baseline_only is None or name in args.baseline_only:
                base = measure(v, f, "coacd", CollisionParams(**EMBODIEDGEN, cache_dir=str(work / "c2")))
                totals = [totals[0] + ours["s"], totals[1] + base["s"], totals[2] + 1]
                row += (f" {base['s']:.2f} | {base['hulls']} | {base['ratio']:.3f} | {base['dev']:.1f} |"
                        f" {base['s'] / ours['s']:.1f}x |")
            else:
                row += " - | - | - | - | - |"
            print(row, flush=True)
    if totals[2]:
        print(f"\nassets with both: {int(totals[2])}; housebench {totals[0]:.1f} s, EmbodiedGen "
              f"{totals[1]:.1f} s, speed-up {totals[1] / totals[0]:.1f}x")


if __name__ == "__main__":
    main()
