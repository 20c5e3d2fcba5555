"""The per-asset steps after import, shared by the DVC stages and ``housebench asset import``.

- :func:`collide`: imported folder -> ``hull_NNN.obj`` + ``collision.json``.
- :func:`build_sim`: imported + collision folders -> ``asset.usda``, ``body.xml``, ``meta.json``,
  ``visual.obj``/``visual.mtl``, ``<name>.png``; returns the asset's annotation entry.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
from PIL import Image
from pydantic import Field

from housebench.annotations.schema import AssetAnnotation
from housebench.assets.annotate import asset_annotation
from housebench.assets.collision import CollisionParams, decompose, read_hulls, welded, write_hulls
from housebench.assets.embodiedgen import read_pieces
from housebench.assets.grasps import Gripper
from housebench.assets.mjcf import write_body_xml
from housebench.assets.objio import read_textured_obj
from housebench.assets.physics import mass_properties
from housebench.hashing import file_hash
from housebench.io import write_json
from housebench.params import Section, Workers
from housebench.usd.asset import AssetGeometry, write_asset_usd


class PhysicsParams(Section):
    """The ``physics:`` section of ``params.yaml``."""

    default_friction: float = Field(0.8, gt=0, le=10)  # when neither the spec nor <gazebo> gives one
    small_mass: float = Field(0.05, ge=0)  # kg: bodies this light ...
    small_size: float = Field(0.015, ge=0)  # m: ... or this thin get CCD and damping
    small_damping: float = Field(0.0005, ge=0)  # free-joint damping of small bodies (stops endless rolling)
    gripper: Gripper = Gripper()
    workers: Workers = 2  # assets built at once

    def damping(self, mass: float, size: list[float]) -> float:
        """The free-joint damping of a body (0 unless it is small and light)."""
        return self.small_damping if mass <= self.small_mass or min(size) <= self.small_size else 0.0


def _info(imported: Path) -> dict:
    return json.loads((Path(imported) / "import.json").read_text())


def collide(imported: Path, out_dir: Path, params: CollisionParams) -> None:
    """Decompose the imported visual mesh into the existing folder ``out_dir``."""
    info = _info(imported)
    vertices, faces, _ = read_textured_obj(Path(imported) / "visual.obj")
    source_path = Path(imported) / "source_collision.obj"
    source = read_pieces(source_path) if source_path.exists() else None
    collision = decompose(vertices, faces, info["collider"], params, source)
    write_hulls(out_dir, collision, {"visual_sha256": file_hash(Path(imported) / "visual.obj")})


def texture_color(texture: Path, uv: np.ndarray) -> tuple[float, float, float]:
    """The mean colour the texture shows at the mesh's vertices (RGB in [0, 1]): the flat colour
    of viewers that skip textures (displayColor; MuJoCo's preview renders)."""
    image = np.asarray(Image.open(texture).convert("RGB"), dtype=float) / 255.0
    h, w = image.shape[:2]
    cols = np.clip(np.rint(uv[:, 0] * (w - 1)).astype(int), 0, w - 1)
    rows = np.clip(np.rint((1.0 - uv[:, 1]) * (h - 1)).astype(int), 0, h - 1)
    return tuple(round(float(c), 4) for c in image[rows, cols].mean(axis=0))


def _round(a: np.ndarray) -> list:
    """Nine significant digits (tiny inertias keep their precision)."""
    return [float(f"{x:.9g}") for x in np.asarray(a, float).ravel()] if np.ndim(a) == 1 else [_round(row) for row in a]


def build_sim(imported: Path, collision: Path, out_dir: Path, params: PhysicsParams) -> AssetAnnotation:
    """Write the sim-ready asset into the existing folder ``out_dir``; return its annotation."""
    imported, collision, out = Path(imported), Path(collision), Path(out_dir)
    info = _info(imported)
    name = info["name"]
    vertices, faces, uv = read_textured_obj(imported / "visual.obj")
    hulls = read_hulls(collision)
    props = mass_properties(hulls, info["mass"])
    friction = info["friction"] or params.default_friction
    geometry = AssetGeometry(
        name=name,
        vertices=vertices,
        faces=faces,
        uv=uv,
        texture=f"{name}.png",
        hulls=hulls,
        mass=props.mass,
        com=props.com,
        principal=props.principal,
        axes_quat=props.axes_quat,
        friction=friction,
        damping=params.damping(props.mass, info["size"]),
        color=texture_color(imported / f"{name}.png", uv),
    )
    for file in ("visual.obj", "visual.mtl", f"{name}.png"):
        shutil.copyfile(imported / file, out / file)
    write_asset_usd(out / "asset.usda", geometry)
    write_body_xml(out / "body.xml", geometry)
    annotation = asset_annotation(info, welded(vertices, faces), params.gripper, hulls)
    col = json.loads((collision / "collision.json").read_text())
    write_json(
        out / "meta.json",
        {
            "version": 1,
            "name": name,
            "category": info["category"],
            "size": info["size"],
            "mass": props.mass,
            "center_of_mass": _round(props.com),
            "inertia": _round(props.inertia),
            "principal_inertia": _round(props.principal),
            "principal_axes": _round(props.axes_quat),
            "bottom_offset": annotation.bottom_offset,
            "friction": friction,
            "hull_count": len(hulls),
            "collision_method": col["method"],
            "damping": geometry.damping,
            "sources": info["sources"],
            "warnings": info["warnings"] + col["notes"],
        },
    )
    return annotation
