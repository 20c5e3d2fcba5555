"""Moving parts against the static house, in MuJoCo: apart when closed, free to open, stopped by furniture
(on the params' house and two more seeds)."""

from __future__ import annotations

from pathlib import Path

import mujoco
import numpy as np
import pytest
import yaml

from housebench.house.layout import generate_house
from housebench.sim.mujoco.compile import compile_stage, open_stage
from housebench.usd.house import write_house_usd

REPO = Path(__file__).resolve().parents[2]
STEPS = 40  # joint values tried between closed and a limit


@pytest.fixture(scope="module", params=(0, 1, 2))  # added to the params' seed
def house(request):
    params = yaml.safe_load((REPO / "params.yaml").read_text())["house"]
    return generate_house({**params, "seed": params["seed"] + request.param})


@pytest.fixture(scope="module")
def model(tmp_path_factory, house) -> mujoco.MjModel:
    path = tmp_path_factory.mktemp("house") / "house.usda"
    write_house_usd(house, path)
    return compile_stage(open_stage(path))


def _contacts(model: mujoco.MjModel, data: mujoco.MjData, values: dict[str, float]) -> list[tuple[str, str, float]]:
    """Contacts (geom, geom, distance) between house and part geoms, parts at ``values``, others closed."""
    mujoco.mj_resetDataKeyframe(model, data, 0)
    for joint, q in values.items():
        data.qpos[model.joint(joint).qposadr[0]] = q
    mujoco.mj_forward(model, data)
    names = [(model.geom(c.geom[0]).name, model.geom(c.geom[1]).name, c.dist) for c in data.contact[: data.ncon]]
    return [(a, b, d) for a, b, d in names if "robot0:" not in a + b]


def _first_hit(model: mujoco.MjModel, data: mujoco.MjData, joint: str, upto: float) -> float | None:
    """The first joint value on the way from closed to ``upto`` where part ``joint`` overlaps anything."""
    for q in np.linspace(0.0, upto, STEPS + 1)[1:]:
        if any(d < 0 and f"{joint}/" in a + " " + b for a, b, d in _contacts(model, data, {joint: q})):
            return float(q)
    return None


def test_closed_parts_keep_clear_of_the_house_and_each_other(model):
    assert _contacts(model, mujoco.MjData(model), {}) == []


def test_every_part_opens_free_of_the_furniture(model, house):
    data = mujoco.MjData(model)
    hits = {p.name: q for p in house.parts if (q := _first_hit(model, data, p.name, p.open)) is not None}
    assert hits == {}


def test_a_door_swung_past_open_stops_against_the_furniture(model, house):
    """Parts collide with the house: pushed open, a door stops where its sweep first meets a static box
    (a wall or a neighbour) instead of at its joint limit."""
    data = mujoco.MjData(model)
    door, hit = next(
        (p, q)
        for p in house.parts
        if p.category == "door" and (q := _first_hit(model, data, p.name, p.limits[1])) is not None
    )
    mujoco.mj_resetDataKeyframe(model, data, 0)
    dof = model.joint(door.name).dofadr[0]
    for _ in range(1500):  # 3 s pushed open with 5 N m
        data.qfrc_applied[dof] = 5.0
        mujoco.mj_step(model, data)
    q = data.qpos[model.joint(door.name).qposadr[0]]
    assert door.open < q < hit + 0.05 < door.limits[1]
