"""A small light prop's damping, authored in asset.usda in PhysX's terms, reaches MuJoCo."""

from __future__ import annotations

import numpy as np
import pytest
from usd_fixtures import write_task_layer

from housebench.sim.mujoco import MujocoBackend
from housebench.usd.asset import AssetGeometry, write_asset_usd

SIDE = 0.02


def small_cube(path, damping: float):
    path.parent.mkdir(parents=True)
    corners = np.array([[x, y, z] for x in (-SIDE / 2, SIDE / 2) for y in (-SIDE / 2, SIDE / 2) for z in (0, SIDE)])
    faces = np.array(
        [
            [0, 1, 3],
            [0, 3, 2],
            [4, 6, 7],
            [4, 7, 5],
            [0, 4, 5],
            [0, 5, 1],
            [2, 3, 7],
            [2, 7, 6],
            [0, 2, 6],
            [0, 6, 4],
            [1, 5, 7],
            [1, 7, 3],
        ]
    )
    inertia = 0.02 * SIDE**2 / 6
    write_asset_usd(
        path,
        AssetGeometry(
            name="cube",
            vertices=corners,
            faces=faces,
            uv=np.zeros((8, 2)),
            texture="cube.png",
            hulls=[(corners, faces)],
            mass=0.02,
            com=np.array([0, 0, SIDE / 2]),
            principal=np.array([inertia] * 3),
            axes_quat=np.array([1.0, 0, 0, 0]),
            friction=0.5,
            damping=damping,
        ),
    )
    return path


def test_damped_prop_spins_down_faster(scenes, tmp_path):
    damped = small_cube(tmp_path / "damped/asset.usda", damping=0.0005)
    free = small_cube(tmp_path / "free/asset.usda", damping=0.0)
    task = write_task_layer(
        tmp_path / "task.usda",
        scenes / "scenes/house/house.usda",
        {"damped": (damped, (1.0, 4.0, 1.5)), "free": (free, (1.5, 4.0, 1.5))},
    )
    sim = MujocoBackend(cache_dir=tmp_path / "cache").load(task)
    damping = {name: sim.model.dof_damping[sim.model.joint(name).dofadr[0]] for name in ("damped", "free")}
    assert damping == {"damped": pytest.approx(0.0005), "free": 0.0}  # USD stores a float32

    state = sim.get_state()
    spun = {n: o.model_copy(update={"angvel": (0.0, 0.0, 40.0)}) for n, o in state.objects.items()}
    sim.set_state(state.model_copy(update={"objects": spun}))
    sim.step(round(0.1 / sim.timestep))  # in free fall: no contact, only the damping acts
    spin = {n: abs(o.angvel[2]) for n, o in sim.get_state().objects.items()}
    assert spin["free"] == pytest.approx(40.0, rel=1e-3) and spin["damped"] < 20.0
