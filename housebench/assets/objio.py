"""Deterministic OBJ/MTL writing (fixed float format, no header comments): same mesh, same bytes."""

from __future__ import annotations

from pathlib import Path

import numpy as np


def _rows(tag: str, values: np.ndarray) -> list[str]:
    return [f"{tag} " + " ".join(f"{x:.6f}" for x in row) for row in np.asarray(values, float)]


def obj_text(
    vertices: np.ndarray,
    faces: np.ndarray,
    uv: np.ndarray | None = None,
    mtllib: str | None = None,
    material: str | None = None,
    offset: int = 0,
) -> list[str]:
    """OBJ lines for one mesh; with ``uv`` (one per vertex) faces are written ``v/vt``."""
    lines = [f"mtllib {mtllib}"] if mtllib else []
    lines += _rows("v", vertices)
    if uv is not None:
        lines += _rows("vt", uv)
    if material:
        lines.append(f"usemtl {material}")
    for face in np.asarray(faces, int) + 1 + offset:
        lines.append("f " + " ".join(f"{i}/{i}" if uv is not None else str(i) for i in face))
    return lines


def write_obj(
    path: Path,
    vertices: np.ndarray,
    faces: np.ndarray,
    uv: np.ndarray | None = None,
    mtllib: str | None = None,
    material: str | None = None,
) -> None:
    """One mesh, optionally textured through ``mtllib``/``material``."""
    Path(path).write_text("\n".join(obj_text(vertices, faces, uv, mtllib, material)) + "\n")


def write_obj_pieces(path: Path, pieces: list[tuple[np.ndarray, np.ndarray]], prefix: str) -> None:
    """Several meshes in one OBJ, each an ``o <prefix><i>`` object (EmbodiedGen's collision layout)."""
    lines: list[str] = []
    offset = 0
    for i, (vertices, faces) in enumerate(pieces):
        lines.append(f"o {prefix}{i}")
        lines += obj_text(vertices, faces, offset=offset)
        offset += len(vertices)
    Path(path).write_text("\n".join(lines) + "\n")


def write_mtl(path: Path, material: str, texture: str) -> None:
    """A diffuse-textured material."""
    Path(path).write_text(
        f"newmtl {material}\nKa 1.000000 1.000000 1.000000\nKd 1.000000 1.000000 1.000000\n"
        f"Ks 0.000000 0.000000 0.000000\nNs 1.000000\nmap_Kd {texture}\n"
    )


def read_textured_obj(path: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Read back an OBJ written by :func:`write_obj` with UVs (one ``vt`` per ``v``, ``f i/i``)."""
    v, vt, f = [], [], []
    for line in Path(path).read_text().splitlines():
        tag, _, rest = line.partition(" ")
        if tag == "v":
            v.append(rest.split())
        elif tag == "vt":
            vt.append(rest.split())
        elif tag == "f":
            f.append([int(t.split("/")[0]) - 1 for t in rest.split()])
    return np.asarray(v, float), np.asarray(f, int), np.asarray(vt, float)
