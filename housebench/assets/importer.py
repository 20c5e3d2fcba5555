"""Import one EmbodiedGen result: Z-up, real size and mass, bottom-centre origin, per-asset texture.

Writes ``visual.obj`` + ``visual.mtl`` + ``<name>.png``, ``source_collision.obj`` (EmbodiedGen's own
pieces, same transform) and ``import.json``. Size comes from the spec table when it has one, else
the size baked into the mesh (EmbodiedGen's contract), except for the failed-sizing signature
(1 m tall and 1 kg), which is refused unless the spec sizes the asset. Friction: the spec's, else
the smaller of ``<gazebo>`` mu1/mu2 (isotropic and conservative), else the physics default.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from pydantic import Field
from scipy.spatial.transform import Rotation

from housebench.assets.embodiedgen import MAX_FACES, RawAsset, read_result
from housebench.assets.errors import AssetError
from housebench.assets.objio import write_mtl, write_obj, write_obj_pieces
from housebench.assets.repair import repair_visual
from housebench.assets.spec import AssetSpec
from housebench.hashing import file_hash
from housebench.io import write_json
from housebench.params import Section, Workers

EXTENT_RANGE = (0.005, 3.0)  # metres: anything outside is an absurd size
SCALE_WARNING = 0.25  # warn when the spec rescales the baked-in size by more than this


class ImportParams(Section):
    """The ``import:`` section of ``params.yaml``."""

    specs: str = "assets/specs.yaml"  # the spec table
    strict: bool = False  # exit 1 if any asset fails (else failures go to imported/failed.json)
    visual_max_faces: int = Field(20000, ge=100, le=MAX_FACES)  # the visual mesh is decimated above this
    workers: Workers = 2  # assets imported at once (processes)


@dataclass(frozen=True)
class Placement:
    """The map from EmbodiedGen's mesh frame to the asset frame: ``scale * (R @ v + t) - offset``."""

    rotation: np.ndarray
    translation: np.ndarray
    scale: np.ndarray
    offset: np.ndarray

    def apply(self, v: np.ndarray) -> np.ndarray:
        return self.scale * (v @ self.rotation.T + self.translation) - self.offset


def raw_result(raw_root: Path, name: str) -> Path:
    """``raw_root/<name>/result``, refused when it or the asset folder is a symlink (DVC would not see
    what it points at) or resolves outside ``raw_root``."""
    folder, result = Path(raw_root) / name, Path(raw_root) / name / "result"
    for path in (folder, result):
        if path.is_symlink():
            raise AssetError(path, "folder", "a symlink; copy the asset into the folder instead")
    if not result.resolve().is_relative_to(Path(raw_root).resolve()):
        raise AssetError(result, "folder", f"resolves outside {raw_root}")
    return result


def asset_name(result_dir: Path) -> str:
    """``assets_raw/<name>/result`` -> ``<name>`` (a folder not called ``result`` names itself)."""
    path = Path(result_dir).resolve()
    return path.parent.name if path.name == "result" else path.name


def _lay_flat(z_up: np.ndarray) -> np.ndarray:
    """The quarter turn (about X or Y) that brings the thinnest extent of ``z_up`` to Z."""
    axis = int(np.argmin(np.ptp(z_up, axis=0)))
    return np.eye(3) if axis == 2 else Rotation.from_euler("yx"[axis], 90, degrees=True).as_matrix()


def _placement(raw: RawAsset, spec: AssetSpec | None) -> tuple[Placement, list[str]]:
    rotation = Rotation.from_euler("xyz", raw.rpy).as_matrix()
    translation = np.asarray(raw.xyz)
    standing = float(np.ptp((raw.vertices @ rotation.T)[:, 2]))  # the height as generated, before lay_flat
    if spec and spec.lay_flat:
        turn = _lay_flat(raw.vertices @ rotation.T)
        rotation, translation = turn @ rotation, turn @ translation
    z_up = raw.vertices @ rotation.T + translation
    extents = np.ptp(z_up, axis=0)
    warnings: list[str] = []
    failed_sizing = abs(extents[2] - 1.0) < 0.01 and abs(raw.mass - 1.0) < 1e-3  # 1 m tall, 1 kg
    if failed_sizing and not (spec and spec.sized):
        raise AssetError(
            raw.urdf, "extra_info/real_height", "failed-sizing signature (1 m, 1 kg); give its size in the spec table"
        )
    if extents.min() <= 0:
        raise AssetError(raw.visual, "vertices", "zero extent: the mesh is flat")
    scale = np.ones(3)
    if spec and spec.size:
        scale = np.asarray(spec.size) / extents
    elif spec and spec.height:
        scale = np.full(3, spec.height / standing)
    if spec and spec.sized and not failed_sizing and np.abs(scale - 1).max() > SCALE_WARNING:
        warnings.append(f"spec rescales the baked-in size by {np.round(scale, 3).tolist()}")
    scaled = z_up * scale
    lo, hi = scaled.min(0), scaled.max(0)
    if not (EXTENT_RANGE[0] <= (hi - lo).min() and (hi - lo).max() <= EXTENT_RANGE[1]):
        raise AssetError(
            raw.visual, "vertices", f"absurd size {np.round(hi - lo, 4).tolist()} m (allowed {EXTENT_RANGE})"
        )
    if spec and spec.origin == "base":  # centre of the footprint within 2 mm of the bottom
        foot = scaled[scaled[:, 2] < lo[2] + 0.002]
        lo, hi = np.r_[foot.min(0)[:2], lo[2]], np.r_[foot.max(0)[:2], hi[2]]
    offset = np.array([(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, lo[2]])
    return Placement(rotation, translation, scale, offset), warnings


def import_asset(
    result_dir: Path,
    out_dir: Path,
    spec: AssetSpec | None = None,
    name: str | None = None,
    max_faces: int = ImportParams().visual_max_faces,
) -> dict:
    """Import ``result_dir`` into the existing folder ``out_dir``; returns the ``import.json`` data.
    The visual mesh is repaired and decimated to ``max_faces`` (:func:`repair_visual`)."""
    raw = read_result(result_dir)
    name = name or asset_name(result_dir)
    repaired, faces, uv = repair_visual(raw.vertices, raw.faces, raw.uv, max_faces)
    placement, warnings = _placement(replace(raw, vertices=repaired), spec)
    vertices = placement.apply(repaired)
    mass = spec.mass if spec and spec.mass else raw.mass
    if mass <= 0:
        raise AssetError(raw.urdf, "inertial/mass@value", f"mass must be positive, got {mass}")
    friction = spec.friction if spec and spec.friction else (min(raw.mu) if raw.mu else None)
    if friction is None:
        warnings.append("no friction in <gazebo> or the spec: the physics default applies")
    if raw.quality not in (None, "YES"):
        warnings.append(f"EmbodiedGen quality check says {raw.quality!r}")
    out = Path(out_dir)
    write_obj(out / "visual.obj", vertices, faces, uv, mtllib="visual.mtl", material=name)
    write_mtl(out / "visual.mtl", name, f"{name}.png")
    (out / f"{name}.png").write_bytes(raw.texture_png)
    if raw.pieces:
        write_obj_pieces(
            out / "source_collision.obj", [(placement.apply(v), f) for v, f in raw.pieces], prefix="piece_"
        )
    sources = {p.name: file_hash(p) for p in (raw.urdf, raw.visual, raw.texture, raw.collision) if p}
    if len(faces) < len(raw.faces):
        warnings.append(f"visual mesh decimated from {len(raw.faces)} to {len(faces)} faces")
    data = {
        "version": 1,
        "name": name,
        "category": (spec.category if spec and spec.category else None) or raw.extra_info.get("category") or name,
        "size": np.round(np.ptp(vertices, axis=0), 6).tolist(),
        "mass": mass,
        "friction": friction,
        "tags": sorted(spec.tags) if spec else [],
        "collider": spec.collider if spec else "auto",
        "container": spec.container if spec else None,
        "scale": np.round(placement.scale, 6).tolist(),
        "sources": sources,
        "extra_info": raw.extra_info,
        "warnings": warnings,
    }
    write_json(out / "import.json", data)
    return data
