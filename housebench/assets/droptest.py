"""The MuJoCo drop test: an asset dropped onto a plane must rest upright where it should, and stay.

The asset's ``body.xml`` is attached above a ground plane with its origin (bottom centre) ``drop``
metres up; after ``settle_s`` seconds its height, tilt and position are recorded, then it must not
drift over ``hold_s`` more seconds. Optional extra free spheres (e.g. a ball dropped into a bowl)
are added to the same world. :func:`check_asset` turns a drop into a pass/fail record (the
``droptest`` stage writes one per built asset).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import mujoco
import numpy as np
from pydantic import Field

from housebench.annotations.schema import AssetAnnotation
from housebench.params import Section


@dataclass(frozen=True)
class DropResult:
    rest_z: float  # height of the asset origin at rest (expected: bottom_offset)
    tilt_deg: float  # angle between the asset's Z axis and the world's Z axis at rest
    drift: float  # horizontal displacement over the hold period, metres
    final_z: float
    balls: list[np.ndarray]  # final positions of the extra spheres, in the asset's frame
    lowest_z: float = 0.0  # world z of the asset's lowest collision vertex at the end (below 0: in the floor)


def load_asset_spec(body_xml: Path) -> mujoco.MjSpec:
    """The asset's MJCF with mesh and texture paths made absolute, ready to attach elsewhere."""
    body_xml = Path(body_xml).resolve()
    spec = mujoco.MjSpec.from_file(str(body_xml))
    for item in list(spec.meshes) + list(spec.textures):
        if item.file:
            item.file = str(body_xml.parent / item.file)
    return spec


def drop_world(
    body_xml: Path, drop: float, balls: list[tuple[float, float, float, float]] = ()
) -> tuple[mujoco.MjModel, str]:
    """A world with a ground plane, the asset at ``drop`` height and free spheres (x, y, z, radius)."""
    world = mujoco.MjSpec()
    world.option.timestep = 0.002
    world.worldbody.add_geom(type=mujoco.mjtGeom.mjGEOM_PLANE, size=[1, 1, 0.1])
    asset = load_asset_spec(body_xml)
    name = asset.worldbody.first_body().name
    frame = world.worldbody.add_frame(pos=[0, 0, drop])
    frame.attach_body(asset.body(name), "drop:", "")
    for i, (x, y, z, r) in enumerate(balls):
        ball = world.worldbody.add_body(name=f"ball_{i}", pos=[x, y, z])
        ball.add_freejoint()
        ball.add_geom(type=mujoco.mjtGeom.mjGEOM_SPHERE, size=[r, 0, 0], mass=0.01)
    return world.compile(), f"drop:{name}"


def _lowest(model: mujoco.MjModel, data: mujoco.MjData, body: int) -> float:
    """World z of the lowest vertex of ``body``'s colliding mesh geoms."""
    lowest = np.inf
    for g in np.flatnonzero((model.geom_bodyid == body) & (model.geom_contype | model.geom_conaffinity != 0)):
        mesh = model.geom_dataid[g]
        if model.geom_type[g] != mujoco.mjtGeom.mjGEOM_MESH or mesh < 0:
            continue
        start, count = model.mesh_vertadr[mesh], model.mesh_vertnum[mesh]
        verts = model.mesh_vert[start : start + count] @ data.geom_xmat[g].reshape(3, 3).T + data.geom_xpos[g]
        lowest = min(lowest, float(verts[:, 2].min()))
    return lowest


def drop_test(
    body_xml: Path,
    drop: float = 0.05,
    settle_s: float = 1.0,
    hold_s: float = 3.0,
    balls: list[tuple[float, float, float, float]] = (),
) -> DropResult:
    """Run the drop and return what the assertions need."""
    model, name = drop_world(body_xml, drop, balls)
    data = mujoco.MjData(model)
    body = data.body(name)
    mujoco.mj_step(model, data, int(settle_s / model.opt.timestep))
    rest_xy, rest_z = body.xpos[:2].copy(), float(body.xpos[2])
    tilt = float(np.degrees(np.arccos(np.clip(body.xmat.reshape(3, 3)[2, 2], -1, 1))))
    mujoco.mj_step(model, data, int(hold_s / model.opt.timestep))
    rot, origin = body.xmat.reshape(3, 3), body.xpos
    return DropResult(
        lowest_z=_lowest(model, data, body.id),
        rest_z=rest_z,
        tilt_deg=tilt,
        drift=float(np.linalg.norm(body.xpos[:2] - rest_xy)),
        final_z=float(body.xpos[2]),
        balls=[rot.T @ (data.body(f"ball_{i}").xpos - origin) for i in range(len(balls))],
    )


class DropParams(Section):
    """The ``droptest:`` section of ``params.yaml``: the drop, what counts as passing, and whether a
    failure fails the stage (``strict``)."""

    drop: float = Field(0.05, ge=0, le=1)  # metres above the resting height
    settle_s: float = Field(1.0, gt=0, le=60)
    hold_s: float = Field(3.0, gt=0, le=60)
    height_tol: float = Field(0.005, gt=0)  # rest height within this of the expected one
    max_tilt_deg: float = Field(5.0, gt=0, le=90)
    max_drift: float = Field(0.01, gt=0)  # metres over the hold
    ball_radius: float = Field(0.01, gt=0, le=0.1)  # sphere dropped into every container
    strict: bool = False  # exit 1 when any asset fails


def check_asset(body_xml: Path, annotation: AssetAnnotation, params: DropParams) -> dict:
    """The drop test of one built asset (and, for a container, a ball dropped into it) as a record
    with ``passed`` and the list of ``failures``."""
    result = drop_test(body_xml, params.drop, params.settle_s, params.hold_s)
    failures = []
    if abs(result.rest_z - annotation.bottom_offset) > params.height_tol:
        failures.append(f"rests at {result.rest_z:.4f} m, expected {annotation.bottom_offset:.4f} m")
    if result.tilt_deg > params.max_tilt_deg:
        failures.append(f"tipped onto another rest: tilted {result.tilt_deg:.1f} deg (max {params.max_tilt_deg})")
    if result.drift > params.max_drift:
        failures.append(f"drifted {result.drift:.4f} m")
    if result.lowest_z < -params.height_tol:  # measured on the hulls, not guessed from the origin
        failures.append(f"fell through the floor: lowest point {result.lowest_z:.4f} m")
    record = {
        "rest_z": round(result.rest_z, 5),
        "tilt_deg": round(result.tilt_deg, 3),
        "drift": round(result.drift, 5),
        "final_z": round(result.final_z, 5),
        "lowest_z": round(result.lowest_z, 5),
    }
    cavity = annotation.container
    if cavity is not None:
        start = (0.0, 0.0, cavity.rim_z + params.ball_radius + 0.02, params.ball_radius)
        ball = drop_test(body_xml, 0.0, params.settle_s, params.hold_s, balls=[start]).balls[0]
        record["ball"] = [round(float(x), 5) for x in ball]
        inside, measured = cavity.holds(ball, below=params.ball_radius, above=0.0)
        if not inside:
            failures.append(f"ball ended outside the cavity: {measured}")
    return {**record, "passed": not failures, "failures": failures}
