"""The ten canonical task specs: they validate, and the sampler places every one on the default house
(the real generator's annotations) with the default asset set's annotations (``default_assets.json``,
a snapshot of ``annotations/assets.json`` from ``dvc repro physics``)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from click.testing import CliRunner
from task_world import footprint_box, in_reach

from housebench.annotations.schema import AssetsFile
from housebench.cli import main
from housebench.house.annotate import house_annotations
from housebench.house.layout import generate_house
from housebench.tasks import refs
from housebench.tasks.placement import overlap
from housebench.tasks.sampler import SamplerParams, sample_variant
from housebench.tasks.spec import load_spec
from housebench.tasks.thermal import ThermalModel
from tests.sim.usd_fixtures import house_params

ROOT = Path(__file__).resolve().parents[2]
CANONICAL = [
    "collect_fruits",
    "tidy_toys",
    "shelve_books",
    "desk_prep",
    "breakfast_setup",
    "heat_breakfast",
    "heat_breakfast_preloaded",
    "heat_breakfast_combo",
    "recycle_and_store",
    "organize_utility_items",
]
PARAMS = SamplerParams()


@pytest.fixture(scope="module")
def default_house():
    return house_annotations(generate_house(house_params()))


@pytest.fixture(scope="module")
def default_assets():
    return AssetsFile.model_validate_json((Path(__file__).parent / "default_assets.json").read_text())


def test_the_canonical_set_is_in_tasks():
    assert set(CANONICAL) <= {p.stem for p in (ROOT / "tasks").glob("*.json")}


@pytest.mark.parametrize("task", sorted(p.stem for p in (ROOT / "tasks").glob("*.json")))
def test_spec_validates_and_is_documented(task):
    result = CliRunner().invoke(main, ["task", "validate", str(ROOT / "tasks" / f"{task}.json")])
    assert result.exit_code == 0, result.output
    spec = load_spec(ROOT / "tasks" / f"{task}.json")
    assert spec.doc is not None and spec.doc.success and spec.doc.description


@pytest.mark.parametrize("task", CANONICAL)
def test_sampler_places_every_task_on_the_house(task, default_house, default_assets):
    spec = load_spec(ROOT / "tasks" / f"{task}.json")
    for seed in range(4):
        variant = sample_variant(task, spec, "h", f"v{seed:03d}", seed, default_house, default_assets, PARAMS)
        assert set(variant.objects) == set(spec.objects)  # no optional objects in the canonical set
        boxes = {}
        for name, obj in variant.objects.items():
            rule = spec.objects[name]
            allowed = (
                {s.name for s in refs.inside_supports(rule.inside, default_house)}
                if rule.inside
                else {s.name for r in rule.supports for s in refs.supports(r, spec.places, default_house)}
                - {s.name for r in rule.keep_out for s in refs.supports(r, spec.places, default_house)}
            )
            assert obj.support in allowed, (name, obj.support)
            assert in_reach(variant, name, default_house, default_assets), (name, obj.pos, obj.base)
            x0, y0, x1, y1 = footprint_box(variant, name, default_assets)
            box = (x0, y0, obj.pos[2], x1, y1, obj.pos[2] + default_assets.assets[obj.asset].size[2])
            assert not any(overlap(box, ob.box, 0.0) for ob in default_house.obstacles), (name, obj.pos)
            boxes[name] = box
        names = sorted(boxes)
        for i, a in enumerate(names):
            assert not any(overlap(boxes[a], boxes[b], 0.0) for b in names[i + 1 :]), (a, names[i + 1 :])
        if spec.thermal:
            model = ThermalModel(
                variant.thermal, default_house, {n: default_assets.assets[o.asset] for n, o in variant.objects.items()}
            )
            assert model.temperatures_c == {n: spec.thermal.initial_c.get(n, 21.0) for n in variant.objects}


def test_keep_out_overhang_and_appliance_spawns(default_house, default_assets):
    """Books never start on a bookcase; the bin sits along the bookcase top, clear of the wall; the
    preloaded oatmeal is in the microwave's cavity and the fridge items on fridge shelves."""
    for seed in range(10):
        books = sample_variant(
            "shelve_books",
            load_spec(ROOT / "tasks/shelve_books.json"),
            "h",
            "v",
            seed,
            default_house,
            default_assets,
            PARAMS,
        )
        assert not any(o.support.startswith("bookcase") for o in books.objects.values())
        bin_ = sample_variant(
            "recycle_and_store",
            load_spec(ROOT / "tasks/recycle_and_store.json"),
            "h",
            "v",
            seed,
            default_house,
            default_assets,
            PARAMS,
        ).objects["bin"]
        assert bin_.support == "bookcase_low/top" and abs(abs(bin_.quat[3]) - math.sqrt(0.5)) < 1e-6
        oven = sample_variant(
            "heat_breakfast_preloaded",
            load_spec(ROOT / "tasks/heat_breakfast_preloaded.json"),
            "h",
            "v",
            seed,
            default_house,
            default_assets,
            PARAMS,
        ).objects["oatmeal"]
        cavity = refs.appliance("microwave", default_house).cavity
        assert oven.support == "microwave/bottom" and oven.inside == "microwave"
        assert all(cavity[i] <= oven.pos[i] <= cavity[i + 3] for i in range(3))
        combo = sample_variant(
            "heat_breakfast_combo",
            load_spec(ROOT / "tasks/heat_breakfast_combo.json"),
            "h",
            "v",
            seed,
            default_house,
            default_assets,
            PARAMS,
        )
        assert all(
            o.support in {"fridge/bottom", "fridge/shelf_1", "fridge/shelf_2", "fridge/shelf_3"}
            for o in combo.objects.values()
        )
