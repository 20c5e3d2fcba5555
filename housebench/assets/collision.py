"""Collision hulls for one imported asset: plain hull, EmbodiedGen's pieces, or CoACD.

``auto`` keeps the plain convex hull when the mesh is nearly convex (volume / hull volume above
``convex_ratio``), else runs CoACD: seeded, in a subprocess with a timeout, capped in hulls and
vertices per hull, cached by mesh hash + parameters + CoACD version, falling back to the plain hull
(recorded as ``hull-fallback`` with the reason) when it fails. Hulls too small to matter are dropped.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

import numpy as np
import trimesh
from pydantic import BaseModel, ConfigDict

from housebench.assets.embodiedgen import read_pieces
from housebench.assets.objio import write_obj
from housebench.io import write_json

Mesh = tuple[np.ndarray, np.ndarray]


class CollisionParams(BaseModel):
    """The ``collision:`` section of ``params.yaml`` (defaults are the shipped values)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    seed: int = 0
    threshold: float = 0.05
    resolution: int = 500
    preprocess_resolution: int = 30
    mcts_nodes: int = 10
    mcts_iterations: int = 50
    mcts_max_depth: int = 2
    max_hulls: int = 32
    max_hull_vertices: int = 64
    convex_ratio: float = 0.9
    min_hull_fraction: float = 1e-4  # drop hulls below this fraction of the total hull volume
    timeout_s: float = 300.0
    cache_dir: str = ".cache/coacd"

    def coacd_kwargs(self) -> dict:
        return {"threshold": self.threshold, "resolution": self.resolution,
                "preprocess_resolution": self.preprocess_resolution, "mcts_nodes": self.mcts_nodes,
                "mcts_iterations": self.mcts_iterations, "mcts_max_depth": self.mcts_max_depth,
                "max_convex_hull": self.max_hulls, "max_ch_vertex": self.max_hull_vertices,
                "seed": self.seed}


@dataclass(frozen=True)
class Collision:
    hulls: list[Mesh]
    method: str  # hull | coacd | source | hull-fallback
    notes: list[str]


def welded(vertices: np.ndarray, faces: np.ndarray) -> trimesh.Trimesh:
    """The mesh with UV seams welded, so volume and watertightness mean something."""
    mesh = trimesh.Trimesh(vertices, faces, process=False)
    mesh.merge_vertices(merge_tex=True, merge_norm=True)
    return mesh


def _hull(vertices: np.ndarray) -> Mesh:
    hull = trimesh.convex.convex_hull(np.asarray(vertices, float))
    return np.asarray(hull.vertices), np.asarray(hull.faces)


def _cache_key(mesh: trimesh.Trimesh, params: CollisionParams) -> str:
    digest = hashlib.sha256()
    digest.update(np.ascontiguousarray(mesh.vertices, float).tobytes())
    digest.update(np.ascontiguousarray(mesh.faces, np.int64).tobytes())
    digest.update(json.dumps(params.coacd_kwargs(), sort_keys=True).encode())
    digest.update(version("coacd").encode())
    return digest.hexdigest()


def run_coacd(mesh: trimesh.Trimesh, params: CollisionParams) -> list[Mesh]:
    """CoACD hulls, from the cache or a fresh subprocess run (raises on crash or timeout)."""
    cache = Path(params.cache_dir) / f"{_cache_key(mesh, params)}.npz"
    if not cache.exists():
        with tempfile.TemporaryDirectory() as tmp:
            src, dst = Path(tmp) / "in.npz", Path(tmp) / "out.npz"
            np.savez(src, vertices=mesh.vertices, faces=mesh.faces,
                     kwargs=json.dumps(params.coacd_kwargs()))
            subprocess.run([sys.executable, "-m", "housebench.assets.coacd_worker", str(src), str(dst)],
                           check=True, timeout=params.timeout_s, capture_output=True)
            cache.parent.mkdir(parents=True, exist_ok=True)
            tmp_cache = cache.with_name(f".{cache.name}.{Path(tmp).name}")
            tmp_cache.write_bytes(dst.read_bytes())
            tmp_cache.replace(cache)
    data = np.load(cache)
    return [(data[f"v{i}"], data[f"f{i}"]) for i in range(len(data.files) // 2)]


def _drop_tiny(hulls: list[Mesh], params: CollisionParams) -> tuple[list[Mesh], list[str]]:
    volumes = [trimesh.convex.convex_hull(v).volume if len(v) >= 4 else 0.0 for v, _ in hulls]
    floor = params.min_hull_fraction * sum(volumes)
    kept = [_hull(v) for (v, _), vol in zip(hulls, volumes) if vol > floor]
    notes = [f"dropped {len(hulls) - len(kept)} tiny or degenerate hulls"] if len(kept) < len(hulls) else []
    return kept, notes


def decompose(vertices: np.ndarray, faces: np.ndarray, collider: str, params: CollisionParams,
              source: list[Mesh] | None = None) -> Collision:
    """Hulls for a mesh in the asset frame; ``collider`` is ``auto``, ``hull``, ``coacd`` or ``source``."""
    mesh = welded(vertices, faces)
    if collider == "source":
        if not source:
            raise ValueError("collider 'source' needs EmbodiedGen's collision pieces")
        hulls, method, notes = source, "source", []
    elif collider == "hull" or (collider == "auto" and mesh.is_watertight
                                and mesh.volume / mesh.convex_hull.volume > params.convex_ratio):
        hulls, method, notes = [_hull(mesh.vertices)], "hull", []
    else:
        try:
            hulls, method, notes = run_coacd(mesh, params), "coacd", []
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as err:
            reason = f"CoACD failed ({type(err).__name__}); kept the convex hull"
            hulls, method, notes = [_hull(mesh.vertices)], "hull-fallback", [reason]
    kept, dropped = _drop_tiny(hulls, params)
    return Collision(kept, method, notes + dropped)


def write_hulls(out_dir: Path, collision: Collision, extra: dict) -> None:
    """``hull_NNN.obj`` per hull and ``collision.json`` (method, count, notes + ``extra``)."""
    for i, (v, f) in enumerate(collision.hulls):
        write_obj(Path(out_dir) / f"hull_{i:03d}.obj", v, f)
    write_json(Path(out_dir) / "collision.json", {"version": 1, "method": collision.method,
                                                  "hull_count": len(collision.hulls),
                                                  "notes": collision.notes, **extra})


def read_hulls(hull_dir: Path) -> list[Mesh]:
    """The ``hull_NNN.obj`` meshes of a collision folder, in order."""
    return [read_pieces(p)[0] for p in sorted(Path(hull_dir).glob("hull_*.obj"))]
