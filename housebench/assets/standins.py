"""Seeded procedural stand-ins for EmbodiedGen props, written in EmbodiedGen's exact output layout.

They stand in for generated assets until real ones are dropped into ``assets_raw/``, and keep
EmbodiedGen's quirks so the import path is exercised for real: Y-up OBJ with the size baked in and
centred on the bounding box, ``mtllib material.mtl`` with texture ``material_0.png`` for every asset,
URDF ``rpy="1.5708 0 0"``, ``<gazebo><mu1>/<mu2>``, placeholder inertia 1 kg m^2, ``<extra_info>``,
and ``<name>_collision.obj`` holding convex pieces as ``o geometry_i``.

The props themselves are the factories of :mod:`housebench.assets.props`; ``DEFAULT_SET`` lists the
props ``housebench asset generate-raw`` writes.
"""

from __future__ import annotations

import io
import zlib
from pathlib import Path

import numpy as np
from PIL import Image

from housebench.assets.objio import write_mtl, write_obj, write_obj_pieces
from housebench.assets.props import DEFAULT_SET, FACTORIES, Prop
from housebench.io import OutputError, atomic_dir, foreign

__all__ = ["DEFAULT_SET", "FACTORIES", "generate", "write_raw"]


def _urdf(name: str, prop: Prop, height: float) -> str:
    origin = '<origin xyz="0 0 0" rpy="1.5708 0.0 0.0" />'
    info = {
        "scale": f"{height:.4f}",
        "version": "standin-1",
        "category": prop.category,
        "description": prop.description,
        "min_height": f"{0.9 * height:.4f}",
        "max_height": f"{1.1 * height:.4f}",
        "real_height": f"{height:.4f}",
        "min_mass": f"{0.8 * prop.mass:.4f}",
        "max_mass": f"{1.2 * prop.mass:.4f}",
        "generate_time": "standin",
        "gs_model": "",
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

    write_obj(
        mesh_dir / f"{name}.obj", y_up(prop.vertices), prop.faces, prop.uv, mtllib="material.mtl", material="material_0"
    )
    write_mtl(mesh_dir / "material.mtl", "material_0", "material_0.png")
    png = io.BytesIO()
    Image.fromarray(prop.texture).save(png, format="PNG")
    (mesh_dir / "material_0.png").write_bytes(png.getvalue())
    write_obj_pieces(mesh_dir / f"{name}_collision.obj", [(y_up(v), f) for v, f in prop.pieces], prefix="geometry_")
    height = float(np.ptp(prop.vertices[:, 2]))
    (result / f"{name}.urdf").write_text(_urdf(name, prop, height))
    return result


def generate(names: tuple[str, ...] = DEFAULT_SET, out: Path = Path("assets_raw"), seed: int = 0) -> None:
    """Write ``out/<name>/`` for every named prop (atomically), each with its own rng stream. An existing
    ``out/<name>`` that is not a raw asset (no ``result/<name>.urdf``) is refused before anything is written."""
    for name in names:
        target = Path(out) / name
        if foreign(target) and not (target / "result" / f"{name}.urdf").is_file():
            raise OutputError(f"{target}: output: exists and is not a raw asset; move it away first")
    for name in names:
        rng = np.random.default_rng([seed, zlib.crc32(name.encode())])
        with atomic_dir(Path(out) / name) as tmp:
            write_raw(name, FACTORIES[name](rng), tmp)
