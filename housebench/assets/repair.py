"""Mesh repair with pymeshlab, on separate copies for the eye and for collision.

- :func:`repair_visual`: drops duplicate and zero-area faces and unreferenced vertices, and decimates
  to a face budget keeping the texture coordinates (seams stay split: one UV per vertex).
  Decimation keeps vertices where they were (no optimal placement), so the bounding box holds.
- :func:`repair_collision`: welds duplicate vertices, drops duplicate and zero-area faces, closes
  small holes and decimates to a face budget (UVs do not matter to a collider), never flipping a
  face: CoACD voxel-remeshes any input that fails its manifold check (self-intersections included),
  which is slow and thickens thin walls.
"""

from __future__ import annotations

import numpy as np
import pymeshlab

Mesh = tuple[np.ndarray, np.ndarray]


def _clean(ms: pymeshlab.MeshSet) -> None:
    ms.meshing_remove_duplicate_faces()
    ms.meshing_remove_null_faces()
    ms.meshing_remove_unreferenced_vertices()


def _split_wedges(ms: pymeshlab.MeshSet) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-wedge UVs back to one UV per vertex (a vertex is split where its UVs differ)."""
    m = ms.current_mesh()
    m.compact()
    faces, points = m.face_matrix(), m.vertex_matrix()
    wedges = m.wedge_tex_coord_matrix().reshape(-1, 2)
    keys = np.column_stack([faces.reshape(-1), np.round(wedges, 7)])
    unique, inverse = np.unique(keys, axis=0, return_inverse=True)
    return points[unique[:, 0].astype(int)], inverse.reshape(-1, 3), unique[:, 1:]


def repair_visual(
    vertices: np.ndarray, faces: np.ndarray, uv: np.ndarray, max_faces: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The cleaned visual mesh with per-vertex UVs, decimated when it has more than ``max_faces``."""
    ms = pymeshlab.MeshSet()
    ms.add_mesh(
        pymeshlab.Mesh(
            vertex_matrix=np.asarray(vertices, float),
            face_matrix=np.asarray(faces),
            v_tex_coords_matrix=np.asarray(uv, float),
        )
    )
    _clean(ms)
    if ms.current_mesh().face_number() <= max_faces:
        m = ms.current_mesh()
        m.compact()
        return m.vertex_matrix(), m.face_matrix(), m.vertex_tex_coord_matrix()
    ms.compute_texcoord_transfer_vertex_to_wedge()
    ms.meshing_decimation_quadric_edge_collapse_with_texture(
        targetfacenum=max_faces, preserveboundary=True, optimalplacement=False
    )
    return _split_wedges(ms)


def repair_collision(vertices: np.ndarray, faces: np.ndarray, max_faces: int, max_hole_edges: int = 30) -> Mesh:
    """The welded, cleaned collision copy with small holes closed, at most ``max_faces`` faces."""
    ms = pymeshlab.MeshSet()
    ms.add_mesh(pymeshlab.Mesh(vertex_matrix=np.asarray(vertices, float), face_matrix=np.asarray(faces)))
    ms.meshing_remove_duplicate_vertices()
    _clean(ms)
    try:
        ms.meshing_close_holes(maxholesize=max_hole_edges)
    except pymeshlab.PyMeshLabException:  # non-manifold input: leave the holes, CoACD remeshes anyway
        pass
    m = ms.current_mesh()
    m.compact()
    points, faces = m.vertex_matrix(), m.face_matrix()
    if len(faces) <= max_faces:
        return points, faces
    fresh = pymeshlab.MeshSet()  # decimation skips a mesh edited in place: start a fresh set
    fresh.add_mesh(pymeshlab.Mesh(vertex_matrix=points, face_matrix=faces))
    fresh.meshing_decimation_quadric_edge_collapse(
        targetfacenum=max_faces, preservetopology=True, preservenormal=True, optimalplacement=False
    )
    m = fresh.current_mesh()
    m.compact()
    return m.vertex_matrix(), m.face_matrix()
