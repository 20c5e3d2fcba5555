"""Collision hulls for one imported asset: plain hull, EmbodiedGen's pieces, or CoACD.

The input is a repaired, decimated collision copy of the visual mesh
(:func:`housebench.assets.repair.repair_collision`, ``max_faces``). ``auto`` keeps the plain convex
hull when the mesh is nearly convex (volume / hull volume above ``convex_ratio``), else runs CoACD:
seeded, in a warm process of its own with a timeout (:mod:`housebench.assets.coacd_worker`), capped
in hulls and vertices per hull, cached by mesh hash + parameters + CoACD version, falling back to
the plain hull (recorded as ``hull-fallback`` with the reason) when it fails. Every hull, whatever
its path, is capped at ``max_hull_vertices`` (farthest-point subset of its vertices); degenerate
hulls (flat, fewer than 4 points, thinner than ``min_hull_extent``) and tiny ones are dropped.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

import numpy as np
import trimesh
from pydantic import Field

from housebench.assets.coacd_worker import WORKER
from housebench.assets.embodiedgen import read_pieces
from housebench.assets.objio import write_obj
from housebench.assets.repair import repair_collision
from housebench.io import write_json
from housebench.params import Section, Workers

Mesh = tuple[np.ndarray, np.ndarray]


class CollisionParams(Section):
    """The ``collision:`` section of ``params.yaml`` (defaults are the shipped values)."""

    seed: int = Field(0, ge=0)
    threshold: float = Field(0.05, gt=0, le=1)
    resolution: int = Field(100, ge=10, le=10_000)
    preprocess_resolution: int = Field(30, ge=10, le=1000)
    mcts_nodes: int = Field(5, ge=1, le=100)
    mcts_iterations: int = Field(15, ge=1, le=1000)
    mcts_max_depth: int = Field(3, ge=1, le=20)
    max_hulls: int = Field(32, ge=1, le=256)
    max_hull_vertices: int = Field(255, ge=4, le=255)  # PhysX cooks at most 255
    convex_ratio: float = Field(0.97, gt=0, le=1)
    min_hull_fraction: float = Field(1e-4, ge=0, lt=1)  # drop hulls below this fraction of the total hull volume
    min_hull_extent: float = Field(2e-4, ge=0)  # metres: drop hulls thinner than this in any direction (flat)
    max_faces: int = Field(1000, ge=4, le=1_000_000)  # face budget of the repaired collision copy
    timeout_s: float = Field(300.0, gt=0, le=86_400)
    cache_dir: str = ".cache/coacd"
    workers: Workers = 2  # assets decomposed at once (each with its own CoACD process)

    def coacd_kwargs(self) -> dict:
        return {
            "threshold": self.threshold,
            "resolution": self.resolution,
            "preprocess_resolution": self.preprocess_resolution,
            "mcts_nodes": self.mcts_nodes,
            "mcts_iterations": self.mcts_iterations,
            "mcts_max_depth": self.mcts_max_depth,
            "max_convex_hull": self.max_hulls,
            "max_ch_vertex": self.max_hull_vertices,
            "seed": self.seed,
        }


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


def _farthest(points: np.ndarray, count: int) -> np.ndarray:
    """A deterministic farthest-point subset of ``count`` points, seeded with the extremes along each
    axis (so the bounding box, and the resting height, survive the cap)."""
    chosen = sorted({int(i) for i in np.r_[points.argmin(0), points.argmax(0)]})
    distance = np.min([np.linalg.norm(points - points[i], axis=1) for i in chosen], axis=0)
    while len(chosen) < count:
        chosen.append(int(np.argmax(distance)))
        distance = np.minimum(distance, np.linalg.norm(points - points[chosen[-1]], axis=1))
    return points[sorted(chosen)]


def _hull(vertices: np.ndarray, max_vertices: int) -> Mesh | None:
    """The convex hull with at most ``max_vertices`` vertices, or None when it is degenerate."""
    points = np.unique(np.asarray(vertices, float), axis=0)
    if len(points) < 4 or np.linalg.matrix_rank(points - points.mean(0), tol=1e-9) < 3:
        return None
    hull = trimesh.convex.convex_hull(points)
    if len(hull.vertices) > max_vertices:
        hull = trimesh.convex.convex_hull(_farthest(np.asarray(hull.vertices), max_vertices))
    return np.asarray(hull.vertices), np.asarray(hull.faces)


def _cache_key(mesh: trimesh.Trimesh, params: CollisionParams) -> str:
    digest = hashlib.sha256()
    digest.update(np.ascontiguousarray(mesh.vertices, float).tobytes())
    digest.update(np.ascontiguousarray(mesh.faces, np.int64).tobytes())
    digest.update(json.dumps(params.coacd_kwargs(), sort_keys=True).encode())
    digest.update(version("coacd").encode())
    return digest.hexdigest()


def save_hulls(path: Path, hulls: list[Mesh]) -> None:
    """Hulls to an ``.npz`` (``v<i>``/``f<i>``)."""
    np.savez(path, **{f"{key}{i}": array for i, hull in enumerate(hulls) for key, array in zip("vf", hull)})


def load_hulls(path: Path) -> list[Mesh]:
    """The hulls of a :func:`save_hulls` file."""
    data = np.load(path)
    return [(data[f"v{i}"], data[f"f{i}"]) for i in range(len(data.files) // 2)]


def run_coacd(mesh: trimesh.Trimesh, params: CollisionParams) -> list[Mesh]:
    """CoACD hulls, from the cache or the warm CoACD process (raises on crash or timeout)."""
    cache = Path(params.cache_dir) / f"{_cache_key(mesh, params)}.npz"
    if cache.exists():
        return load_hulls(cache)
    hulls = WORKER.run(mesh.vertices, mesh.faces, params.coacd_kwargs(), params.timeout_s)
    cache.parent.mkdir(parents=True, exist_ok=True)
    partial = cache.with_name(f".{cache.stem}.{os.getpid()}.npz")
    save_hulls(partial, hulls)
    partial.replace(cache)
    return hulls


def _thickness(vertices: np.ndarray) -> float:
    """The smallest extent of a point set along its principal axes."""
    centred = vertices - vertices.mean(0)
    return float(np.ptp(centred @ np.linalg.svd(centred, full_matrices=False)[2].T, axis=0).min())


def _clean(hulls: list[Mesh], params: CollisionParams) -> tuple[list[Mesh], list[str]]:
    """Cap vertices per hull; drop degenerate, too thin and tiny hulls (noted)."""
    capped = [_hull(v, params.max_hull_vertices) for v, _ in hulls]
    solid = [h for h in capped if h is not None and _thickness(h[0]) >= params.min_hull_extent]
    volumes = [trimesh.Trimesh(*h).volume for h in solid]
    floor = params.min_hull_fraction * sum(volumes)
    kept = [h for h, vol in zip(solid, volumes) if vol > floor]
    notes = [f"dropped {len(hulls) - len(kept)} tiny or degenerate hulls"] if len(kept) < len(hulls) else []
    return kept, notes


def _from_mesh(mesh: trimesh.Trimesh, collider: str, params: CollisionParams) -> tuple[list[Mesh], str, list[str]]:
    """The plain hull (``hull``, or ``auto`` on a nearly convex mesh) or CoACD's hulls, with the
    method and notes."""
    if collider == "hull" or (
        collider == "auto" and mesh.is_watertight and mesh.volume / mesh.convex_hull.volume > params.convex_ratio
    ):
        return [(mesh.vertices, mesh.faces)], "hull", []
    try:
        return run_coacd(mesh, params), "coacd", []
    except (ChildProcessError, TimeoutError) as err:
        reason = f"CoACD failed ({type(err).__name__}); kept the convex hull"
        return [(mesh.vertices, mesh.faces)], "hull-fallback", [reason]


def decompose(
    vertices: np.ndarray, faces: np.ndarray, collider: str, params: CollisionParams, source: list[Mesh] | None = None
) -> Collision:
    """Hulls for a mesh in the asset frame; ``collider`` is ``auto``, ``hull``, ``coacd`` or ``source``
    (EmbodiedGen's pieces as they are: the mesh is not repaired for them)."""
    if collider == "source":
        if not source:
            raise ValueError("collider 'source' needs EmbodiedGen's collision pieces")
        hulls, method, notes = source, "source", []
    else:
        hulls, method, notes = _from_mesh(
            welded(*repair_collision(vertices, faces, params.max_faces)), collider, params
        )
    kept, dropped = _clean(hulls, params)
    if not kept:
        raise ValueError("no collision hull left: the mesh is flat or degenerate")
    return Collision(kept, method, notes + dropped)


def write_hulls(out_dir: Path, collision: Collision, extra: dict) -> None:
    """``hull_NNN.obj`` per hull and ``collision.json`` (method, count, notes + ``extra``)."""
    for i, (v, f) in enumerate(collision.hulls):
        write_obj(Path(out_dir) / f"hull_{i:03d}.obj", v, f)
    write_json(
        Path(out_dir) / "collision.json",
        {
            "version": 1,
            "method": collision.method,
            "hull_count": len(collision.hulls),
            "notes": collision.notes,
            **extra,
        },
    )


def read_hulls(hull_dir: Path) -> list[Mesh]:
    """The ``hull_NNN.obj`` meshes of a collision folder, in order."""
    return [read_pieces(p)[0] for p in sorted(Path(hull_dir).glob("hull_*.obj"))]
