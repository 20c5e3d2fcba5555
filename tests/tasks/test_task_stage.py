"""The task layer (valid composed USD) and the ``tasks`` stage (byte-identical, atomic outputs)."""

from __future__ import annotations

import json
import shutil

import pytest
import yaml
from pxr import Usd, UsdGeom, UsdValidation
from task_world import SPEC

from housebench.hashing import tree_hash
from housebench.io import write_json
from housebench.pipeline.tasks import layer_props
from housebench.tasks.sampler import SamplerParams, sample_variant
from housebench.tasks.spec import TaskVariant, load_spec
from housebench.usd.task_layer import write_task_layer
from stages import tasks as stage
from tests.conftest import ROOT


def _errors(stage_: Usd.Stage) -> list[str]:
    validators = UsdValidation.ValidationRegistry().GetOrLoadAllValidators()
    return [e.GetMessage() for e in UsdValidation.ValidationContext(validators).Validate(stage_)]


def test_task_layer_composes_over_house_and_assets(usd_world, house, assets):
    variant = sample_variant("put", load_spec(SPEC), "h", "v000", 0, house, assets, SamplerParams())
    path = usd_world / "scenes" / "tasks" / "put" / "v000" / "task.usda"
    write_task_layer(path, layer_props(variant), usd_world / "scenes/house/house.usda", usd_world / "assets_built/sim")
    text = path.read_text()
    assert "@../../../house/house.usda@" in text and "@../../../../assets_built/sim/bowl/asset.usda@" in text
    composed = Usd.Stage.Open(str(path))
    assert _errors(composed) == []
    assert UsdGeom.GetStageUpAxis(composed) == "Z" and UsdGeom.GetStageMetersPerUnit(composed) == 1.0
    assert composed.GetPrimAtPath("/World/House/table") and composed.GetPrimAtPath("/World/Robot")
    for name, obj in variant.objects.items():
        prim = composed.GetPrimAtPath(f"/World/Props/{name}")
        assert prim.GetAttribute("housebench:asset").Get() == obj.asset
        assert prim.GetPrimAtPath("Collision/hull_000")  # the asset came in through the reference
        matrix = UsdGeom.Xformable(prim).ComputeLocalToWorldTransform(Usd.TimeCode.Default())
        assert tuple(matrix.ExtractTranslation()) == pytest.approx(obj.pos)
        assert UsdGeom.Xformable(prim).GetOrderedXformOps()[1].Get().GetReal() == pytest.approx(obj.quat[0])
    shutil.rmtree(usd_world / "assets_built" / "sim" / "bowl")  # negative control: validation can fail
    assert _errors(Usd.Stage.Open(str(path)))


@pytest.fixture
def repo(tmp_path, monkeypatch, usd_world, house, assets):
    """A repository root holding the stage's inputs."""
    monkeypatch.chdir(usd_world)
    (usd_world / "tasks").mkdir()
    shutil.copy(SPEC, usd_world / "tasks" / SPEC.name)
    write_json(usd_world / "annotations" / "house.json", house.model_dump(mode="json"))
    write_json(usd_world / "annotations" / "assets.json", assets.model_dump(mode="json"))
    shipped = yaml.safe_load((ROOT / "params.yaml").read_text())["tasks"]
    (usd_world / "params.yaml").write_text(yaml.safe_dump({"tasks": {**shipped, "variants_per_task": 2, "seed": 0}}))
    return usd_world


def test_stage_writes_variants_byte_identically(repo):
    stage.main()
    out = repo / "scenes" / "tasks"
    first = tree_hash(out)
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == [
        "choices.json",
        *(f"put_fruit_in_container/v00{i}/{f}" for i in (0, 1) for f in ("task.json", "task.usda")),
        "unsampled.json",
    ]
    variant = TaskVariant.model_validate_json((out / "put_fruit_in_container/v001/task.json").read_text())
    assert variant.seed == 1 and variant.variant == "v001" and set(variant.objects) == {"apple", "bowl"}
    choices = json.loads((out / "choices.json").read_text())["put_fruit_in_container"]
    assert choices["variants"] == 2 and choices["choices"]["bowl.support"] == {"table/top": 2}
    assert _errors(Usd.Stage.Open(str(out / "put_fruit_in_container/v000/task.usda"))) == []
    stage.main()
    assert tree_hash(out) == first


def test_chosen_variants_alone_are_the_full_runs_variants_byte_for_byte(repo):
    """``only`` (the tests' small build, tests/builtdata.py) samples variant i with seed + i, as the full run does."""
    from housebench.params import load_section
    from housebench.paths import Layout
    from housebench.pipeline.tasks import write_variants

    params = load_section("tasks", SamplerParams)
    stage.main()
    out = repo / "scenes" / "tasks" / "put_fruit_in_container"
    full = {(v, f): (out / v / f).read_bytes() for v in ("v000", "v001") for f in ("task.json", "task.usda")}
    (alone,) = write_variants(Layout(), params, only={"put_fruit_in_container": [1]})
    assert alone.variant == "v001" and alone.seed == params.seed + 1
    assert sorted(p.name for p in out.iterdir()) == ["v001"]
    for f in ("task.json", "task.usda"):
        assert (out / "v001" / f).read_bytes() == full["v001", f], f


def test_stage_fails_whole_on_a_bad_spec(repo):
    stage.main()
    before = tree_hash(repo / "scenes" / "tasks")
    (repo / "tasks" / "broken.json").write_text('{"version": 1, "instruction": "x"}')
    with pytest.raises(SystemExit, match="broken.json: objects: Field required"):
        stage.main()
    assert tree_hash(repo / "scenes" / "tasks") == before  # the last good output is untouched
    (repo / "params.yaml").write_text(yaml.safe_dump({"tasks": {"variants_per_taks": 2}}))
    with pytest.raises(SystemExit, match="params.yaml: tasks.variants_per_taks: unknown key"):
        stage.main()


def test_stage_refuses_a_task_whose_asset_failed_its_drop_test(repo):
    """The drop test's failure reaches the task author: one line naming the task, the object, the
    asset and why it failed; the last good output stays."""
    drops = {
        "apple": {"passed": True, "failures": []},
        "bowl": {"passed": False, "failures": ["tipped onto another rest: tilted 9.4 deg (max 5.0)"]},
    }
    write_json(repo / "assets_built/droptest.json", {"version": 1, "failed": ["bowl"], "assets": drops})
    with pytest.raises(SystemExit) as refused:
        stage.main()
    assert str(refused.value) == (
        "put_fruit_in_container: object 'bowl' uses asset 'bowl', which failed its drop test: "
        "tipped onto another rest: tilted 9.4 deg (max 5.0)"
    )
    drops["bowl"] = {"passed": True, "failures": []}
    write_json(repo / "assets_built/droptest.json", {"version": 1, "failed": [], "assets": drops})
    stage.main()
