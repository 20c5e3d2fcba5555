"""The house set (issue 31): ``houses:`` params are strict, a bad procedural house is listed with its reason and
left out, and a layout without ``houses.json`` is the grid house alone."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

from housebench.house.build import build_set
from housebench.house.houses import DEFAULT_SET, HousesParams, held_out_ids, house_id, load_house_set
from housebench.house.params import HouseParams
from housebench.params import load_section
from housebench.paths import GRID, Layout
from tests.conftest import ROOT


def test_the_repo_params_name_the_grid_house_alone():
    houses = load_section("houses", HousesParams, ROOT / "params.yaml")
    assert houses == HousesParams(grid=True, procedural=[], held_out=[])


@pytest.mark.parametrize(
    ("data", "why"),
    [
        ({"grid": True, "procedural": [1, 1], "held_out": []}, "named twice"),
        ({"grid": True, "procedural": [1], "held_out": [1]}, "named twice"),
        ({"grid": True, "procedural": [-1], "held_out": []}, "negative"),
        ({"grid": False, "procedural": [], "held_out": []}, "no house"),
    ],
)
def test_a_bad_house_set_is_refused(data, why):
    with pytest.raises(ValidationError, match=why):
        HousesParams.model_validate(data)


def test_a_missing_key_is_refused(tmp_path):
    data = yaml.safe_load((ROOT / "params.yaml").read_text())
    del data["houses"]["held_out"]
    (tmp_path / "params.yaml").write_text(yaml.safe_dump(data))
    with pytest.raises(SystemExit, match="houses.held_out: missing key"):
        load_section("houses", HousesParams, tmp_path / "params.yaml")


def test_ids_and_held_out():
    params = HousesParams(grid=False, procedural=[3], held_out=[12])
    assert house_id(3) == "p003" and held_out_ids(params) == {"p012"}


def test_a_layout_without_a_house_set_is_the_grid_house(tmp_path):
    assert load_house_set(Layout(tmp_path)) == DEFAULT_SET and DEFAULT_SET.ids() == [GRID]


def test_a_house_that_cannot_be_built_is_listed_with_its_reason():
    """Seed 6 is not built (RESULTS.md, "Procedural houses"); seed 3 is."""
    house = load_section("house", HouseParams, ROOT / "params.yaml").model_dump()
    grid, built, bad = build_set(HousesParams(grid=False, procedural=[3, 6], held_out=[]), house, needs=None)
    assert grid.entry.id == GRID and [b.entry.id for b in built] == ["p003"]
    assert [(b.id, b.seed) for b in bad] == [("p006", 6)]
    assert bad[0].reason.startswith("not built: house 6: bedroom: no wall")


def test_an_unstable_house_is_listed_with_its_reason_and_left_out(monkeypatch, tmp_path):
    """The house stage's stability check (physics, robot and parts alone): a house that fails it is a bad house."""
    import housebench.sim.settle as settle
    from housebench.pipeline.house import write_house_set
    from housebench.pipeline.settle import SettleParams

    params = yaml.safe_load((ROOT / "params.yaml").read_text())
    failing = {"passed": False, "duration": 3.0, "drift": {}, "robot_max_dev": 0.0, "parts": 30, "part_max_open": 0.5}
    monkeypatch.setattr(settle, "stability", lambda sim, p: failing)
    (tmp_path / "tasks").mkdir()
    house = HouseParams(**params["house"]).model_dump()
    grid, record = write_house_set(
        Layout(tmp_path),
        HousesParams(grid=True, procedural=[3], held_out=[]),
        house,
        SettleParams(**params["settle"]).model_dump(),
    )
    assert record.ids() == [GRID] and [b.id for b in record.bad] == ["p003"]
    assert record.bad[0].reason == "unstable over 3.0 s of physics: a part opened 0.500 (tolerance 0.02)"
    assert not (tmp_path / "scenes/house/p003").exists()
    assert load_house_set(Layout(tmp_path)) == record and (tmp_path / "annotations/house.json").is_file()


def test_each_house_plan_in_the_report_names_its_house():
    from housebench.report.pictures import KNOWN, caption

    assert caption(Path("scenes/house/topdown.png"), Path("tasks")) == KNOWN["topdown.png"]
    assert "house p003" in caption(Path("scenes/house/p003/topdown.png"), Path("tasks"))
    params = yaml.safe_load((ROOT / "params.yaml").read_text())
    assert "scenes/house/*/topdown.png" in params["report"]["scene_images"]  # every house's plan is shown
