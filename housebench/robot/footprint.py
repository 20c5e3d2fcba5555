"""Fetch's footprint with heights, measured from gymnasium-robotics' MJCF at the home pose.

Every collision geom of the robot (the subtree of ``base_link``) is posed at :data:`fetch.HOME`
(torso down, arm tucked) and its vertices are taken into the base frame (x forward, z up from the
floor, the base gliding :data:`fetch.BASE_CLEARANCE` above it). The base is everything up to the top
of the ``base_link`` mesh; the column is everything above it.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from housebench.annotations.schema import Footprint
from housebench.io import r6
from housebench.robot import fetch

if TYPE_CHECKING:
    import mujoco

BASE = f"{fetch.PREFIX}base_link"


def _subtree(model: mujoco.MjModel, root: int) -> set[int]:
    bodies = {root}
    for b in range(model.nbody):  # parents come before children
        if model.body_parentid[b] in bodies:
            bodies.add(b)
    return bodies


def _vertices(model: mujoco.MjModel, data: mujoco.MjData, geom: int) -> np.ndarray:
    import mujoco

    rot, pos = data.geom_xmat[geom].reshape(3, 3), data.geom_xpos[geom]
    if model.geom_type[geom] == mujoco.mjtGeom.mjGEOM_MESH:
        mesh = model.geom_dataid[geom]
        start, count = model.mesh_vertadr[mesh], model.mesh_vertnum[mesh]
        return model.mesh_vert[start : start + count] @ rot.T + pos
    corners = np.array(np.meshgrid([-1, 1], [-1, 1], [-1, 1])).reshape(3, -1).T  # boxes (the fingers)
    return (corners * model.geom_size[geom]) @ rot.T + pos


@cache
def fetch_footprint() -> Footprint:
    """The measured footprint (the model loads once per process; mujoco is imported here, not at
    import time, so an entry point can still choose its GL backend first)."""
    import mujoco

    model = mujoco.MjModel.from_xml_path(str(fetch.model_dir() / "pick_and_place.xml"))
    data = mujoco.MjData(model)
    for joint, value in fetch.HOME.items():
        data.qpos[model.joint(joint).qposadr[0]] = value
    mujoco.mj_forward(model, data)
    base = model.body(BASE).id
    frame_rot, frame_pos = data.xmat[base].reshape(3, 3), data.xpos[base]
    robot = _subtree(model, base)
    parts = {}
    for g in range(model.ngeom):
        if model.geom_bodyid[g] in robot and (model.geom_contype[g] or model.geom_conaffinity[g]):
            local = (_vertices(model, data, g) - frame_pos) @ frame_rot + [0.0, 0.0, fetch.BASE_CLEARANCE]
            parts.setdefault(model.geom_bodyid[g] == base, []).append(local)
    top = max(v[:, 2].max() for v in parts[True])
    points = np.concatenate(parts[True] + parts[False])
    low, high = points[points[:, 2] <= top], points[points[:, 2] > top]
    return Footprint(
        radius=r6(np.hypot(low[:, 0], low[:, 1]).max()),
        base_height=r6(top),
        column_radius=r6(np.hypot(high[:, 0], high[:, 1]).max()),
        column=tuple(r6(v) for v in (*high[:, :2].min(axis=0), *high[:, :2].max(axis=0))),
        height=r6(points[:, 2].max()),
    )
