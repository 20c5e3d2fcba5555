"""The ``annotations/assets.json`` entry of one built asset, with the cavity of containers and the
grasp primitives (:mod:`housebench.assets.grasps`) and the sections of its collision hulls
(:mod:`housebench.assets.sections`).

A container's profile is measured on the visual mesh by casting rays: down the axis for the inner
floor, out from the axis at mid-cavity height for the inner wall (round: the nearest of four
directions, twice; rect: nearest along x and along y).
"""

from __future__ import annotations

import numpy as np
import trimesh

from housebench.annotations.schema import AssetAnnotation, ContainerProfile
from housebench.assets.collision import Mesh
from housebench.assets.grasps import Gripper, grasp_primitives
from housebench.assets.sections import sections


def _first_hit(mesh: trimesh.Trimesh, origin, direction) -> float:
    """Distance along ``direction`` from ``origin`` to the nearest surface (inf if none)."""
    hits, _, _ = mesh.ray.intersects_location([origin], [direction])
    return float(np.linalg.norm(hits - origin, axis=1).min()) if len(hits) else float("inf")


def container_profile(mesh: trimesh.Trimesh, shape: str) -> ContainerProfile:
    """Inner floor, rim and inner half extents of an open-topped container (origin bottom centre)."""
    rim_z = float(mesh.bounds[1][2])
    floor_z = rim_z + 1e-3 - _first_hit(mesh, [0.0, 0.0, rim_z + 1e-3], [0.0, 0.0, -1.0])
    if not 0.0 <= floor_z < rim_z:
        raise ValueError("no open cavity found down the container's axis")
    mid = [0.0, 0.0, (floor_z + rim_z) / 2]
    reach = {axis: min(_first_hit(mesh, mid, sign * np.eye(3)[axis]) for sign in (1, -1)) for axis in (0, 1)}
    half = (min(reach.values()),) * 2 if shape == "round" else (reach[0], reach[1])
    return ContainerProfile(
        shape=shape,
        inner_half_extents=tuple(round(h, 6) for h in half),
        floor_z=round(floor_z, 6),
        rim_z=round(rim_z, 6),
    )


def asset_annotation(info: dict, mesh: trimesh.Trimesh, gripper: Gripper, hulls: list[Mesh]) -> AssetAnnotation:
    """The entry for the asset described by its ``import.json`` data, its welded visual mesh and its
    collision ``hulls`` (their :func:`sections`)."""
    bottom_offset = round(max(0.0, -float(mesh.bounds[0][2])), 6)
    container = container_profile(mesh, info["container"]) if info["container"] else None
    grasps, note = grasp_primitives(np.asarray(mesh.vertices), info["tags"], container, gripper)
    return AssetAnnotation(
        name=info["name"],
        category=info["category"],
        size=tuple(info["size"]),
        mass=info["mass"],
        tags=info["tags"],
        bottom_offset=bottom_offset,
        container=container,
        grasps=grasps,
        grasp_note=note,
        sections=sections(hulls, -bottom_offset),
    )
