"""The MuJoCo drop test: an asset dropped onto a plane must rest upright where it should, and stay.

The asset's ``body.xml`` is attached above a ground plane with its origin (bottom centre) ``drop``
metres up; after ``settle_s`` seconds its height, tilt and position are recorded, then it must not
drift over ``hold_s`` more seconds. Optional extra free spheres (e.g. a ball dropped into a bowl)
are added to the same world.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import mujoco
import numpy as np


@dataclass(frozen=True)
class DropResult:
    rest_z: float  # height of the asset origin at rest (expected: bottom_offset)
    tilt_deg: float  # angle between the asset's Z axis and the world's Z axis at rest
    drift: float  # horizontal displacement over the hold period, metres
    final_z: float
    balls: list[np.ndarray]  # final positions of the extra spheres, in the asset's frame


def load_asset_spec(body_xml: Path) -> mujoco.MjSpec:
    """The asset's MJCF with mesh and texture paths made absolute, ready to attach elsewhere."""
    body_xml = Path(body_xml).resolve()
    spec = mujoco.MjSpec.from_file(str(body_xml))
    for item in list(spec.meshes) + list(spec.textures):
        if item.file:
            item.file = str(body_xml.parent / item.file)
    return spec


def drop_world(body_xml: Path, drop: float, balls: list[tuple[float, float, float, float]] = ()
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


def drop_test(body_xml: Path, drop: float = 0.05, settle_s: float = 1.0, hold_s: float = 3.0,
              balls: list[tuple[float, float, float, float]] = ()) -> DropResult:
    """Run the drop and return what the assertions need."""
    model, name = drop_world(body_xml, drop, balls)
    data = mujoco.MjData(model)
    body = data.body(name)
    mujoco.mj_step(model, data, int(settle_s / model.opt.timestep))
    rest_xy, rest_z = body.xpos[:2].copy(), float(body.xpos[2])
    tilt = float(np.degrees(np.arccos(np.clip(body.xmat.reshape(3, 3)[2, 2], -1, 1))))
    mujoco.mj_step(model, data, int(hold_s / model.opt.timestep))
    rot, origin = body.xmat.reshape(3, 3), body.xpos
    return DropResult(rest_z=rest_z, tilt_deg=tilt, drift=float(np.linalg.norm(body.xpos[:2] - rest_xy)),
                      final_z=float(body.xpos[2]),
                      balls=[rot.T @ (data.body(f"ball_{i}").xpos - origin) for i in range(len(balls))])
