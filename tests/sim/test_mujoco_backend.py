"""The MuJoCo backend on the real house, the Fetch robot and a tiny box prop: real physics."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from PIL import Image
from usd_fixtures import BOX

from housebench.robot import fetch
from housebench.sim.mujoco import MujocoBackend


@pytest.fixture
def sim(scenes, tmp_path):
    return MujocoBackend(cache_dir=tmp_path / "cache").load(scenes / "scenes/tasks/drop/table/task.usda")


def test_prop_falls_and_rests_on_the_table(sim, house):
    top = next(b for b in house.boxes if b.name == "dining_table/top")
    start = sim.get_state().objects["box"].pos
    sim.step(round(1.5 / sim.timestep))
    box = sim.get_state().objects["box"]
    assert box.pos[2] == pytest.approx(top.bounds[5], abs=1e-3)  # asset origin: bottom centre
    assert box.pos[:2] == pytest.approx(start[:2], abs=1e-3)
    assert np.linalg.norm(box.linvel) < 1e-3


def test_state_round_trips(sim):
    sim.step(50)
    saved = sim.get_state()
    sim.step(100)
    assert sim.get_state().objects["box"].pos != saved.objects["box"].pos
    sim.set_state(saved)
    again = sim.get_state()
    assert again.time == saved.time and again.joints == saved.joints
    for key in ("pos", "quat", "linvel", "angvel"):
        assert getattr(again.objects["box"], key) == pytest.approx(getattr(saved.objects["box"], key))


def test_robot_starts_home_and_holds_its_pose(sim, house):
    start = sim.get_state().joints
    assert [start[j] for j in fetch.BASE_JOINTS] == pytest.approx(house.robot_start)
    assert start[fetch.TORSO_JOINT] == pytest.approx(fetch.HOME[fetch.TORSO_JOINT])
    sim.step(round(3.0 / sim.timestep))
    end = sim.get_state().joints
    assert max(abs(end[j] - v) for j, v in start.items()) < 1e-3


def test_position_targets_move_the_robot(sim):
    sim.set_control({fetch.TORSO_JOINT: 0.2, fetch.BASE_JOINTS[2]: 0.5})
    sim.step(round(3.0 / sim.timestep))
    joints = sim.get_state().joints
    assert joints[fetch.TORSO_JOINT] == pytest.approx(0.2, abs=0.01)
    assert joints[fetch.BASE_JOINTS[2]] == pytest.approx(0.5, abs=0.01)
    with pytest.raises(KeyError):
        sim.set_control({"robot0:no_such_joint": 0.0})


def test_compile_cache_is_hit_on_second_load(scenes, tmp_path):
    backend = MujocoBackend(cache_dir=tmp_path / "cache")
    task = scenes / "scenes/tasks/drop/table/task.usda"
    first, second = backend.load(task), backend.load(task)
    assert not first.cache_hit and second.cache_hit
    assert first.cache_file == second.cache_file and first.cache_file.exists()
    other = backend.load(scenes / "scenes/tasks/drop/floor/task.usda")
    assert other.cache_file != first.cache_file
    assert second.get_state() == first.get_state()


def test_scene_cli_renders_overview_and_head_camera(scenes, tmp_path):
    """In a fresh process, so MUJOCO_GL=egl (set by the CLI) applies whatever pytest imported."""
    task = scenes / "scenes/tasks/drop/table/task.usda"
    env = {**os.environ, "HOUSEBENCH_MJCF_CACHE": str(tmp_path / "cache")}
    images = []
    for name, extra in (("overview", []), ("head", ["--camera", fetch.HEAD_CAMERA])):
        out = tmp_path / f"{name}.png"
        subprocess.run(
            [
                sys.executable,
                "-c",
                "from housebench.cli import main; main()",
                "scene",
                "render",
                str(task),
                "--out",
                str(out),
                "--width",
                "160",
                "--height",
                "120",
                *extra,
            ],
            env=env,
            check=True,
        )
        images.append(np.asarray(Image.open(out)))
    assert images[0].shape == images[1].shape == (120, 160, 3)
    assert images[0].std() > 5 and images[1].std() > 5
    assert not np.array_equal(*images)


def test_prop_mass_and_size_come_from_usd(sim):
    body = sim.model.body("box")
    assert body.mass[0] == pytest.approx(0.2)
    geom = sim.model.geom("box/hull_000")
    assert geom.friction[0] == pytest.approx(0.8)
    assert sim.model.geom_rbound[geom.id] == pytest.approx(np.sqrt(3) * BOX / 2, rel=1e-3)


def test_a_broken_reference_fails_loudly(scenes, tmp_path):
    from usd_fixtures import write_task_layer

    task = write_task_layer(
        tmp_path / "task.usda",
        scenes / "scenes/house/house.usda",
        {"ghost": (tmp_path / "missing/asset.usda", (1.0, 1.0, 0.5))},
    )
    with pytest.raises(ValueError, match="task.usda: composition errors"):
        MujocoBackend(cache_dir=tmp_path / "cache").load(task)
