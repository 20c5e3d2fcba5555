"""Seeded procedural stand-ins for EmbodiedGen props, written in EmbodiedGen's exact output layout.

They stand in for generated assets until real ones are dropped into ``assets_raw/``, and keep
EmbodiedGen's quirks so the import path is exercised for real: Y-up OBJ with the size baked in and
centred on the bounding box, ``mtllib material.mtl`` with texture ``material_0.png`` for every asset,
URDF ``rpy="1.5708 0 0"``, ``<gazebo><mu1>/<mu2>``, placeholder inertia 1 kg m^2, ``<extra_info>``,
and ``<name>_collision.obj`` holding convex pieces as ``o geometry_i``.

Add a prop by registering a small factory in ``FACTORIES`` (rng -> :class:`Prop`); ``DEFAULT_SET``
lists the props ``housebench asset generate-raw`` writes.
"""

from __future__ import annotations

import io
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import trimesh
from PIL import Image

from housebench.assets.objio import write_mtl, write_obj, write_obj_pieces
from housebench.io import atomic_dir

Mesh = tuple[np.ndarray, np.ndarray]


@dataclass(frozen=True)
class Prop:
    """One stand-in prop, Z-up, metres, with per-vertex UVs and a small texture."""

    vertices: np.ndarray
    faces: np.ndarray
    uv: np.ndarray
    texture: np.ndarray  # (H, W, 3) uint8
    category: str
    description: str
    mass: float
    mu: tuple[float, float]
    pieces: list[Mesh] = field(default_factory=list)  # EmbodiedGen's convex collision pieces


def _texture(rng: np.random.Generator, colour: tuple[int, int, int], bands: int = 0) -> np.ndarray:
    """A 64x64 texture: base colour, seeded speckle, optional horizontal bands (v only, seam-free)."""
    img = np.empty((64, 64, 3), float)
    img[:] = colour
    img += rng.normal(0.0, 8.0, (64, 64, 1))
    if bands:
        img *= (1.0 + 0.12 * np.sin(np.linspace(0, bands * np.pi, 64)))[:, None, None]
    return np.clip(img, 0, 255).astype(np.uint8)


def _hull(vertices: np.ndarray) -> Mesh:
    hull = trimesh.convex.convex_hull(vertices)
    return np.asarray(hull.vertices), np.asarray(hull.faces)


def _fruit(rng: np.random.Generator, radii: tuple[float, float, float], flat: float,
           colour: tuple[int, int, int], **info) -> Prop:
    """A lumpy ellipsoid with a flat bottom patch (so it rests), spherical UVs."""
    sphere = trimesh.creation.icosphere(subdivisions=3)
    unit = np.asarray(sphere.vertices)
    theta, phi = np.arctan2(unit[:, 1], unit[:, 0]), np.arccos(np.clip(unit[:, 2], -1, 1))
    lumps = 1.0 + 0.02 * np.sin(5 * theta + rng.uniform(0, 2 * np.pi)) * np.sin(phi)
    v = unit * np.asarray(radii) * lumps[:, None]
    v[:, 2] = np.maximum(v[:, 2], -radii[2] * (1.0 - flat))
    uv = np.column_stack([(theta + np.pi) / (2 * np.pi), 1.0 - phi / np.pi])
    return Prop(v, np.asarray(sphere.faces), uv, _texture(rng, colour, bands=3),
                pieces=[_hull(v)], **info)


def apple(rng: np.random.Generator) -> Prop:
    return _fruit(rng, (0.04, 0.04, 0.037), 0.12, (178, 34, 34), category="apple",
                  description="A red apple.", mass=0.18, mu=(0.8, 0.7))


def orange(rng: np.random.Generator) -> Prop:
    return _fruit(rng, (0.038, 0.038, 0.035), 0.12, (245, 140, 20), category="orange",
                  description="A round orange.", mass=0.15, mu=(0.8, 0.7))


def bowl(rng: np.random.Generator) -> Prop:
    """A revolved bowl with a real cavity: flat foot, curved wall, 6 mm rim, 8 mm floor."""
    t = np.linspace(0.0, 1.0, 8)
    outer = np.column_stack([0.045 + 0.035 * np.sin(t * np.pi / 2), 0.06 * t])
    inner = np.column_stack([0.039 + 0.035 * np.sin(t * np.pi / 2), 0.008 + 0.052 * t])[::-1]
    profile = np.vstack([[0.0, 0.0], outer, inner, [0.0, 0.008]])
    mesh = trimesh.creation.revolve(profile, sections=48)
    v = np.asarray(mesh.vertices)
    angle = np.arctan2(v[:, 1], v[:, 0])
    uv = np.column_stack([(angle + np.pi) / (2 * np.pi), np.clip(v[:, 2] / 0.06, 0, 1)])
    sector = np.floor((angle + np.pi) / (2 * np.pi) * 8).astype(int) % 8
    pieces = [_hull(v[(sector == s) & (np.hypot(v[:, 0], v[:, 1]) > 0.03)]) for s in range(8)]
    pieces.append(_hull(v[v[:, 2] <= 0.008]))
    return Prop(v, np.asarray(mesh.faces), uv, _texture(rng, (235, 228, 210), bands=6),
                category="bowl", description="A ceramic bowl.", mass=0.35, mu=(0.6, 0.5),
                pieces=pieces)


def book(rng: np.random.Generator) -> Prop:
    """A closed hardcover book lying flat; every box face maps the whole texture."""
    half = np.array([0.075, 0.105, 0.015])
    corners = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]) * half
    quads = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    v = np.vstack([corners[list(q)] for q in quads])
    faces = np.array([[4 * i, 4 * i + 1, 4 * i + 2] for i in range(6)]
                     + [[4 * i, 4 * i + 2, 4 * i + 3] for i in range(6)])
    uv = np.tile([[0, 0], [1, 0], [1, 1], [0, 1]], (6, 1)).astype(float)
    colour = tuple(int(c) for c in rng.integers(40, 200, 3))
    return Prop(v, faces, uv, _texture(rng, colour), category="book",
                description="A hardcover book.", mass=0.4, mu=(0.5, 0.45), pieces=[_hull(v)])


FACTORIES: dict[str, Callable[[np.random.Generator], Prop]] = {
    "apple": apple, "orange": orange, "bowl": bowl, "book": book,
}
DEFAULT_SET = ("apple", "orange", "bowl", "book")


def _urdf(name: str, prop: Prop, height: float) -> str:
    origin = '<origin xyz="0 0 0" rpy="1.5708 0.0 0.0" />'
    info = {
        "scale": f"{height:.4f}", "version": "standin-1", "category": prop.category,
        "description": prop.description, "min_height": f"{0.9 * height:.4f}",
        "max_height": f"{1.1 * height:.4f}", "real_height": f"{height:.4f}",
        "min_mass": f"{0.8 * prop.mass:.4f}", "max_mass": f"{1.2 * prop.mass:.4f}",
        "generate_time": "standin", "gs_model": "",
    }
    extra = "\n".join(f"         <{k}>{v}</{k}>" for k, v in info.items())
    return f"""<?xml version='1.0' encoding='utf-8'?>
<robot name="{name}">
   <link name="{name}">
      <visual>
         {origin}
         <geometry>
            <mesh filename="mesh/{name}.obj" scale="1.0 1.0 1.0" />
         </geometry>
      </visual>
      <collision>
         {origin}
         <geometry>
            <mesh filename="mesh/{name}_collision.obj" scale="1.0 1.0 1.0" />
         </geometry>
         <gazebo>
            <mu1>{prop.mu[0]:.2f}</mu1>
            <mu2>{prop.mu[1]:.2f}</mu2>
         </gazebo>
      </collision>
      <inertial>
         <origin xyz="0 0 0" rpy="0 0 0" />
         <mass value="{prop.mass:.4f}" />
         <inertia ixx="1.0" ixy="0.0" ixz="0.0" iyy="1.0" iyz="0.0" izz="1.0" />
      </inertial>
      <extra_info>
{extra}
      </extra_info>
   </link>
   <custom_data>
      <quality>
         <overall>YES</overall>
      </quality>
   </custom_data>
</robot>
"""


def write_raw(name: str, prop: Prop, asset_dir: Path) -> Path:
    """Write ``asset_dir/result/`` in EmbodiedGen's layout (Y-up, centred on the bounding box)."""
    result = Path(asset_dir) / "result"
    mesh_dir = result / "mesh"
    mesh_dir.mkdir(parents=True, exist_ok=True)
    centre = (prop.vertices.min(0) + prop.vertices.max(0)) / 2

    def y_up(v: np.ndarray) -> np.ndarray:  # inverse of the URDF's rpy="1.5708 0 0"
        v = v - centre
        return np.column_stack([v[:, 0], v[:, 2], -v[:, 1]])

    write_obj(mesh_dir / f"{name}.obj", y_up(prop.vertices), prop.faces, prop.uv,
              mtllib="material.mtl", material="material_0")
    write_mtl(mesh_dir / "material.mtl", "material_0", "material_0.png")
    png = io.BytesIO()
    Image.fromarray(prop.texture).save(png, format="PNG")
    (mesh_dir / "material_0.png").write_bytes(png.getvalue())
    write_obj_pieces(mesh_dir / f"{name}_collision.obj",
                     [(y_up(v), f) for v, f in prop.pieces], prefix="geometry_")
    height = float(np.ptp(prop.vertices[:, 2]))
    (result / f"{name}.urdf").write_text(_urdf(name, prop, height))
    return result


def generate(names: tuple[str, ...] = DEFAULT_SET, out: Path = Path("assets_raw"), seed: int = 0) -> None:
    """Write ``out/<name>/`` for every named prop (atomically), each with its own rng stream."""
    for name in names:
        rng = np.random.default_rng([seed, zlib.crc32(name.encode())])
        with atomic_dir(Path(out) / name) as tmp:
            write_raw(name, FACTORIES[name](rng), tmp)
