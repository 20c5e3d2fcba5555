"""Articulated parts in MuJoCo: compiled from the UsdPhysics joints, closed at rest, consistent
with the annotations, and caught by the stability check when open."""

from __future__ import annotations

import mujoco
import numpy as np
import pytest
from usd_fixtures import settle_params

from housebench.house.annotate import house_annotations
from housebench.house.query import HouseQuery
from housebench.sim.mujoco import MujocoBackend
from housebench.sim.mujoco.bodies import ROBOT
from housebench.sim.settle import check_house, stability


@pytest.fixture
def backend(tmp_path):
    return MujocoBackend(cache_dir=tmp_path / "cache")


@pytest.fixture
def house_usda(scenes):
    return scenes / "scenes/house/house.usda"


def test_parts_become_hinges_and_slides_closed_at_zero(backend, house_usda, house):
    sim = backend.load(house_usda)
    ann = {p.name: p for p in house_annotations(house).articulated}
    parts = {n: q for n, q in sim.get_state().joints.items() if not n.startswith("robot0:")}
    assert set(parts) == set(ann) and all(q == 0.0 for q in parts.values())
    for name, part in ann.items():
        joint = sim.model.joint(name)
        kind = "revolute" if joint.type[0] == mujoco.mjtJoint.mjJNT_HINGE.value else "prismatic"
        assert kind == part.joint, name
        assert joint.range == pytest.approx(part.limits, abs=1e-5)
        assert sim.data.xaxis[joint.id] == pytest.approx(part.axis, abs=1e-6)
        assert sim.data.xanchor[joint.id] == pytest.approx(part.pivot, abs=1e-5)


def test_handle_in_sim_matches_the_annotated_handle_pose(backend, house_usda, house):
    sim = backend.load(house_usda)
    query = HouseQuery(house_annotations(house))
    for name, q in (("fridge/door", 1.2), ("microwave/door", 0.7), ("dresser/drawer_2", 0.15)):
        state = sim.get_state()
        sim.set_state(state.model_copy(update={"joints": {**state.joints, name: q}}))
        geom = sim.model.geom(f"{name}/handle")
        assert sim.data.geom_xpos[geom.id] == pytest.approx(query.handle_pose(name, q)[0], abs=1e-5)


def test_house_holds_still_and_an_open_door_fails_the_check(backend, house_usda):
    report = check_house(backend, house_usda, settle_params())
    assert report["passed"] and report["stability"]["parts"] >= 12
    assert report["stability"]["part_max_open"] < settle_params()["part_tol"]
    sim = backend.load(house_usda)
    state = sim.get_state()
    sim.set_state(state.model_copy(update={"joints": {**state.joints, "wardrobe/door_1": 0.6}}))
    check = stability(sim, settle_params())
    assert not check["passed"] and check["part_max_open"] > 0.5  # damped: it stays open


def test_start_button_springs_back_and_parts_collide_with_the_robot_and_the_house(backend, house_usda):
    sim = backend.load(house_usda)
    state = sim.get_state()
    sim.set_state(state.model_copy(update={"joints": {**state.joints, "microwave/start_button": 0.008}}))
    sim.step(250)
    assert abs(sim.get_state().joints["microwave/start_button"]) < 1e-3
    robot = {g for g in range(sim.model.ngeom) if sim.model.geom_contype[g] == ROBOT}
    assert robot
    door = sim.model.geom("fridge/door/panel").id
    assert np.all(sim.model.geom_contype[door] & sim.model.geom_conaffinity[list(robot)] > 0)
    frame = sim.model.geom("House/fridge/side_left").id
    assert sim.model.geom_contype[frame] & sim.model.geom_conaffinity[door]  # a door cannot swing through furniture
    touching = {(c.geom1, c.geom2) for c in sim.data.contact[: sim.data.ncon]}
    assert not any(door in pair for pair in touching)  # closed, it keeps clear of its frame
