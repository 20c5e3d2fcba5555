"""Rigid-body properties from the collision geometry: mass, centre of mass, principal inertia.

The hulls are treated as one solid of uniform density at the asset's real mass (overlaps between
hulls count twice: CoACD pieces barely overlap). EmbodiedGen's placeholder inertia is never used.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import trimesh
from scipy.spatial.transform import Rotation

Mesh = tuple[np.ndarray, np.ndarray]


@dataclass(frozen=True)
class MassProperties:
    mass: float
    com: np.ndarray  # (3,) in the asset frame
    inertia: np.ndarray  # (3, 3) about the centre of mass, asset axes
    principal: np.ndarray  # (3,) principal moments, ascending
    axes_quat: np.ndarray  # (4,) w, x, y, z: rotation from the asset frame to the principal axes


def _axes_quat(vectors: np.ndarray) -> np.ndarray:
    """A deterministic right-handed frame from eigenvectors (columns), as a w-first quaternion."""
    vectors = vectors * np.where(vectors[np.abs(vectors).argmax(0), range(3)] < 0, -1.0, 1.0)
    if np.linalg.det(vectors) < 0:
        vectors[:, 2] *= -1
    x, y, z, w = Rotation.from_matrix(vectors).as_quat()
    return np.array([w, x, y, z])


def mass_properties(hulls: list[Mesh], mass: float) -> MassProperties:
    """Uniform-density mass properties of the union of ``hulls`` scaled to ``mass``."""
    meshes = [trimesh.Trimesh(v, f, process=True) for v, f in hulls]
    volumes = np.array([m.volume for m in meshes])
    total = volumes.sum()
    if total <= 0:
        raise ValueError("collision hulls have no volume")
    density = mass / total
    com = sum(v * m.center_mass for v, m in zip(volumes, meshes)) / total
    inertia = np.zeros((3, 3))
    for vol, m in zip(volumes, meshes):
        d = m.center_mass - com  # parallel-axis shift to the common centre of mass
        inertia += density * m.moment_inertia + density * vol * (d @ d * np.eye(3) - np.outer(d, d))
    principal, vectors = np.linalg.eigh(inertia)
    return MassProperties(mass, com, inertia, principal, _axes_quat(vectors))
