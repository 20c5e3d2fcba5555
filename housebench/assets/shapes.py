"""Geometry primitives for the stand-in props (Z up, metres): solids and vessels of revolution,
boxes, open-topped boxes, unions, convex pieces and UV projections.

Every function is deterministic; meshes are returned as ``(vertices, faces)``.
"""

from __future__ import annotations

import numpy as np
import trimesh

Mesh = tuple[np.ndarray, np.ndarray]


def hull(vertices: np.ndarray) -> Mesh:
    """The convex hull of a point set."""
    h = trimesh.convex.convex_hull(np.asarray(vertices, float))
    return np.asarray(h.vertices), np.asarray(h.faces)


def revolve(profile: list[tuple[float, float]], sections: int = 48) -> Mesh:
    """A solid of revolution about Z from an (r, z) profile running from the axis back to the axis,
    turned so that a facet (not an edge) faces -Y: laid along X (:func:`lying`) it rests flat."""
    mesh = trimesh.creation.revolve(np.asarray(profile, float), sections=sections)
    phase = (1.5 * np.pi - np.pi / sections) % (2 * np.pi / sections)
    mesh.apply_transform(trimesh.transformations.rotation_matrix(phase, [0, 0, 1]))
    return np.asarray(mesh.vertices), np.asarray(mesh.faces)


def vessel(
    r_bottom: float, r_top: float, height: float, wall: float, floor: float, curved: bool = False, steps: int = 8
) -> Mesh:
    """An open-topped vessel of revolution with a real cavity (straight or quarter-sine wall)."""
    t = np.linspace(0.0, 1.0, steps)
    shape = np.sin(t * np.pi / 2) if curved else t
    radius = r_bottom + (r_top - r_bottom) * shape
    outer = np.column_stack([radius, height * t])
    inner = np.column_stack([radius - wall, floor + (height - floor) * t])[::-1]
    return revolve(np.vstack([[0.0, 0.0], outer, inner, [0.0, floor]]).tolist())


def box(extents, centre=(0.0, 0.0, 0.0)) -> trimesh.Trimesh:
    mesh = trimesh.creation.box(extents=extents)
    mesh.apply_translation(centre)
    return mesh


def union(meshes: list[trimesh.Trimesh]) -> Mesh:
    """The boolean union (manifold3d): one watertight mesh."""
    merged = trimesh.boolean.union(meshes, engine="manifold")
    return np.asarray(merged.vertices), np.asarray(merged.faces)


def open_box_parts(size: tuple[float, float, float], wall: float, floor: float) -> list[trimesh.Trimesh]:
    """Floor slab and four walls of an open-topped box (bottom at z = 0)."""
    x, y, z = size
    return [
        box((x, y, floor), (0, 0, floor / 2)),
        box((wall, y, z), (-(x - wall) / 2, 0, z / 2)),
        box((wall, y, z), ((x - wall) / 2, 0, z / 2)),
        box((x, wall, z), (0, -(y - wall) / 2, z / 2)),
        box((x, wall, z), (0, (y - wall) / 2, z / 2)),
    ]


def sector_pieces(vertices: np.ndarray, inner: float, floor: float, sectors: int = 8) -> list[Mesh]:
    """Convex pieces of a vessel: wall sectors (points beyond radius ``inner``) and the floor."""
    angle = np.arctan2(vertices[:, 1], vertices[:, 0])
    sector = np.floor((angle + np.pi) / (2 * np.pi) * sectors).astype(int) % sectors
    wall = np.hypot(vertices[:, 0], vertices[:, 1]) > inner
    return [hull(vertices[(sector == s) & wall]) for s in range(sectors)] + [hull(vertices[vertices[:, 2] <= floor])]


def cylindrical_uv(vertices: np.ndarray) -> np.ndarray:
    """u around Z, v up the height (a seam at u = 0/1, as generated assets have)."""
    angle = np.arctan2(vertices[:, 1], vertices[:, 0])
    z = vertices[:, 2]
    return np.column_stack([(angle + np.pi) / (2 * np.pi), (z - z.min()) / max(np.ptp(z), 1e-9)])


def spherical_uv(unit: np.ndarray) -> np.ndarray:
    theta, phi = np.arctan2(unit[:, 1], unit[:, 0]), np.arccos(np.clip(unit[:, 2], -1, 1))
    return np.column_stack([(theta + np.pi) / (2 * np.pi), 1.0 - phi / np.pi])


def lying(mesh: Mesh) -> Mesh:
    """A mesh modelled along Z turned to lie along X (a rotation: z -> x, x -> y, y -> z)."""
    v, f = mesh
    return v[:, [2, 0, 1]], f
