"""Island sleeping: what rests is taken out of the computation, and whatever the robot does to it
(a grasp, a push, a drawer pulled open) wakes it and comes out as without sleeping.

Each scene runs twice from the same compiled model, sleeping on (as compiled) and off; the robot
moves only through its actuators (:mod:`robot_script`), never by setting an object's state.
"""

from __future__ import annotations

import mujoco
import numpy as np
import pytest
from robot_script import CLOSED, OPEN, asleep, grip, move, place_robot, reach
from usd_fixtures import BOX, write_task_layer

from housebench.robot import fetch
from housebench.sim.mujoco import MujocoBackend
from housebench.sim.mujoco.bodies import HOUSE

DRAWER = "kitchen_island/drawer_4"
STAND = 0.94  # metres from the grasp point to the base centre, facing it (within Fetch's reach)


def _front(house) -> tuple[np.ndarray, np.ndarray, float]:
    """The kitchen island's drawer side: the outward direction (the drawers' pull axis, horizontal), the
    top's edge point on that side at the drawer's x/y, and the top's height."""
    part = next(p for p in house.parts if p.name == DRAWER)
    out = np.array(part.axis, dtype=float)
    top = next(b for b in house.boxes if b.name == "kitchen_island/top")
    centre, half = np.array(top.center), np.array(top.size) / 2
    edge = centre + out * (np.abs(out) @ half)
    edge[out == 0] = np.array(part.pivot)[out == 0]
    return out, edge, centre[2] + half[2]


def _facing(out: np.ndarray) -> float:
    """The yaw (degrees) that faces against ``out``."""
    return float(np.degrees(np.arctan2(-out[1], -out[0])))


def _scene(scenes, tmp_path, props: dict, robot: tuple[float, float, float]):
    house = scenes / "scenes/house/house.usda"
    asset = scenes / "assets/box/asset.usda"
    task = write_task_layer(tmp_path / "task.usda", house, {n: (asset, pos) for n, pos in props.items()})
    return place_robot(task, tmp_path / "scene.usda", *robot)


def _both(scene, tmp_path, script):
    """``script(sim)`` with sleeping on and off, after a second at rest; the two final states."""
    states = []
    for sleeping in (True, False):
        sim = MujocoBackend(cache_dir=tmp_path / "cache").load(scene)
        if not sleeping:
            sim.model.opt.enableflags &= ~int(mujoco.mjtEnableBit.mjENBL_SLEEP)
        sim.step(round(1.0 / sim.timestep))
        script(sim, sleeping)
        states.append(sim.get_state())
    return states


def _apart(on, off, name: str) -> float:
    return float(np.linalg.norm(np.subtract(on.objects[name].pos, off.objects[name].pos)))


def test_a_grasp_wakes_a_sleeping_prop_and_lifts_it_as_without_sleeping(scenes, house, tmp_path):
    out, edge, top = _front(house)
    spot = edge - out * 0.1  # 10 cm in from the island's edge
    stand = spot + out * STAND
    scene = _scene(scenes, tmp_path, {"box": (spot[0], spot[1], top + 0.001)}, (stand[0], stand[1], _facing(out)))

    def lift(sim, sleeping):
        assert asleep(sim, "box") == sleeping and not asleep(sim, f"{fetch.PREFIX}base_link")
        hold = np.array(sim.get_state().objects["box"].pos) + [0.0, 0.0, BOX - 0.015]  # fingers near its top
        grip(sim, OPEN)
        move(sim, reach(sim, hold + out * 0.15, -out), 2.0)
        move(sim, reach(sim, hold, -out), 1.0)
        assert asleep(sim, "box") == sleeping  # the open fingers around it have not touched it
        grip(sim, CLOSED)
        assert not asleep(sim, "box")
        assert sim.get_state().contacts == {"left": ["box"], "right": ["box"]}  # what each finger touches
        move(sim, {fetch.TORSO_JOINT: sim.get_state().joints[fetch.TORSO_JOINT] + 0.1}, 1.0)

    on, off = _both(scene, tmp_path, lift)
    assert on.objects["box"].pos[2] > top + 0.08  # lifted by the torso, in the fingers
    assert _apart(on, off, "box") < 1e-3


def test_a_push_wakes_a_sleeping_prop_and_moves_it_as_without_sleeping(scenes, house, tmp_path):
    out, edge, _ = _front(house)
    stand = edge + out * 1.3  # open floor in front of the island, the robot's back to it
    start = stand + out * 0.45
    scene = _scene(scenes, tmp_path, {"box": (start[0], start[1], 0.001)}, (stand[0], stand[1], _facing(-out)))

    def push(sim, sleeping):
        assert asleep(sim, "box") == sleeping
        x, y = fetch.BASE_JOINTS[:2]
        joints = sim.get_state().joints
        move(sim, {x: joints[x] + 0.25 * out[0], y: joints[y] + 0.25 * out[1]}, 3.0)  # the base drives into it

    # a short push (about 11 cm): pushed further, the box turns on the round base and where it ends depends
    # on micrometres (a 10 um shift of its start moves its end by 4 mm, with or without sleeping)
    on, off = _both(scene, tmp_path, push)
    assert np.dot(np.subtract(on.objects["box"].pos, start), out) > 0.08
    assert _apart(on, off, "box") < 1e-3


def test_pulling_a_drawer_wakes_it_and_opens_it_as_without_sleeping(scenes, house, tmp_path):
    out, _, _ = _front(house)
    handle = np.array(
        next(b for p in house.parts if p.name == DRAWER for b in p.boxes if b.name.endswith("handle")).center
    )
    stand = handle + out * 0.89
    scene = _scene(scenes, tmp_path, {}, (stand[0], stand[1], _facing(out)))

    def pull(sim, sleeping):
        assert asleep(sim, DRAWER) == sleeping
        grip(sim, OPEN)
        move(sim, reach(sim, handle + out * 0.12, -out, vertical=True), 2.0)
        move(sim, reach(sim, handle, -out, vertical=True), 1.0)
        grip(sim, CLOSED)
        assert not asleep(sim, DRAWER)
        assert DRAWER in sim.get_state().contacts["left"] + sim.get_state().contacts["right"]
        x, y = fetch.BASE_JOINTS[:2]
        joints = sim.get_state().joints
        move(sim, {x: joints[x] + 0.2 * out[0], y: joints[y] + 0.2 * out[1]}, 2.0)  # backs away, holding on

    on, off = _both(scene, tmp_path, pull)
    assert on.joints[DRAWER] > 0.15
    assert abs(on.joints[DRAWER] - off.joints[DRAWER]) < 1e-3


def test_the_house_is_static_bodies_per_piece_and_the_robot_never_sleeps(scenes, tmp_path):
    sim = MujocoBackend(cache_dir=tmp_path / "cache").load(scenes / "scenes/tasks/drop/table/task.usda")
    m = sim.model
    assert m.opt.enableflags & int(mujoco.mjtEnableBit.mjENBL_SLEEP)
    table = m.body("House/dining_table")
    assert m.body_treeid[table.id] == -1 and m.body_parentid[table.id] == 0  # static, under the world
    names = {m.geom(g).name for g in range(m.ngeom) if m.geom_bodyid[g] == table.id}
    assert "House/dining_table/top" in names and all(n.startswith("House/dining_table/") for n in names)
    assert all(m.geom_contype[g] == HOUSE for g in range(m.ngeom) if m.geom_bodyid[g] == table.id)
    sim.step(round(2.0 / sim.timestep))
    robot = m.body(f"{fetch.PREFIX}base_link").id
    assert asleep(sim, "box") and sim.data.body_awake[robot] == int(mujoco.mjtSleepState.mjS_AWAKE)
    assert sim.get_state().objects["box"].pos[2] == pytest.approx(0.75, abs=2e-3)  # at rest on the table
