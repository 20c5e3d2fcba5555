"""The house as an axis, end to end through the pipeline's own stages (house, tasks, settle, annotate, then the
rollout): a procedural set of a house, a held-out house and a seed that cannot be built samples the task in each
good house, records the house in task.json and in the episode rows (the held-out house's rows are test), and lists
the bad seed with its reason; the default params still build today's house, byte for byte (its annotations as before
house sets; its USD as the house layer alone authors it)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import yaml

from housebench.house.layout import generate_house
from housebench.house.params import HouseParams
from housebench.params import load_section
from housebench.paths import Layout
from housebench.pipeline.rollout import run_rollouts
from housebench.rollout.plan import RolloutParams
from housebench.tasks.splits import SplitParams
from housebench.usd.house import write_house_usd
from housebench.usd.looks import TEXTURES, looks_for
from tests.conftest import ROOT

TASK = "put_fruit_in_container"
STAGES = "import stages.house as h, stages.tasks as t, stages.settle as s, stages.annotate as a; "
# today's house's annotations (params.yaml house:, seed 0), as the house stage wrote them before house sets
GRID_JSON_SHA256 = "860e2384610d9ed6f9cc333cbd6122d945b8863a2e5ddf4bbca0041e5d19b24d"


def _project(root: Path, built: Layout, houses: dict, task: str | None) -> Path:
    params = yaml.safe_load((ROOT / "params.yaml").read_text())
    params["houses"] = houses
    params["tasks"]["variants_per_task"] = 1
    (root / "tasks").mkdir(parents=True)
    (root / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    for spec in [task] if task else []:
        (root / "tasks" / f"{spec}.json").write_text((ROOT / "tasks" / f"{spec}.json").read_text())
    (root / "annotations").mkdir()
    (root / "annotations" / "assets.json").symlink_to(built.at(Path("annotations/assets.json")))
    (root / "assets_built").mkdir()
    (root / "assets_built" / "sim").symlink_to(built.at(Path("assets_built/sim")))
    return root


def _run(root: Path, calls: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MUJOCO_GL": os.environ.get("MUJOCO_GL", "egl")}
    proc = subprocess.run([sys.executable, "-c", STAGES + calls], cwd=root, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_tasks_are_sampled_in_every_good_house_and_rows_carry_it(built_layout, tmp_path):
    houses = {"grid": False, "procedural": [3, 6], "held_out": [8]}
    root = _project(tmp_path / "project", built_layout, houses, TASK)
    _run(root, "h.main(); t.main(); s.main(); a.main()")

    record = json.loads((root / "scenes/house/houses.json").read_text())
    assert [(h["id"], h["held_out"]) for h in record["houses"]] == [("p003", False), ("p008", True)]
    assert [(b["id"], b["seed"]) for b in record["bad"]] == [("p006", 6)]
    assert record["bad"][0]["reason"].startswith("not built: house 6: ")
    assert not (root / "scenes/house/p006").exists()

    layout = Layout(root)
    assert layout.variants() == [(TASK, "p003_v000"), (TASK, "p008_v000")]
    for house in ("p003", "p008"):
        task = json.loads((layout.task_dir(TASK, f"{house}_v000") / "task.json").read_text())
        assert task["house"] == house
        assert (
            f"@../../../house/{house}/house.usda@" in (layout.task_dir(TASK, f"{house}_v000") / "task.usda").read_text()
        )
        scene = json.loads(layout.scene_annotations(TASK, f"{house}_v000").read_text())
        assert scene["house"] == json.loads((root / "scenes/house" / house / "house.json").read_text())
    assert (root / "scenes/settled/house_check_p003.json").is_file()

    params = load_section("rollout", RolloutParams, root / "params.yaml")
    params = params.model_copy(
        update={
            "policies": ["noop"],
            "horizon_s": 1.0,
            "workers": 1,
            "cache": params.cache.model_copy(update={"max_mb": 0}),
        }
    )
    run_rollouts("t", params, layout, root / "results", splits=SplitParams(seed=0, val=0.0, test=0.0), progress=False)
    rows = pq.read_table(root / "results/episodes/run=t").to_pylist()
    assert sorted((r["variant"], r["house"], r["split"]) for r in rows) == [
        ("p003_v000", "p003", "train"),
        ("p008_v000", "p008", "test"),  # a held-out house is test whatever the split rule draws
    ]


def test_the_default_params_build_todays_house(built_layout, tmp_path):
    root = _project(tmp_path / "project", built_layout, {"grid": True, "procedural": [], "held_out": []}, None)
    _run(root, "h.main()")
    assert _sha(root / "annotations/house.json") == GRID_JSON_SHA256
    params = load_section("house", HouseParams, root / "params.yaml").model_dump()
    alone = tmp_path / "alone" / "house.usda"  # the grid house authored on its own, as before sets
    write_house_usd(generate_house(params), alone, looks_for(params["seed"], params["looks"]))
    textures = sorted(f"{TEXTURES}/{p.name}" for p in (alone.parent / TEXTURES).iterdir())
    for name in ("house.usda", "fetch.usda", *textures):
        assert (root / "scenes/house" / name).read_bytes() == (alone.parent / name).read_bytes()
    assert json.loads((root / "scenes/house/houses.json").read_text()) == {
        "bad": [],
        "houses": [{"held_out": False, "id": "grid", "seed": None}],
    }
    assert sorted(p.name for p in (root / "scenes/house").iterdir()) == [
        "fetch.usda",
        "house.usda",
        "houses.json",
        TEXTURES,
        "topdown.png",
    ]


def test_a_variant_a_procedural_house_cannot_hold_is_listed_not_fatal(built_layout):
    """recycle_and_store's bin finds no spot on house p008's low bookcase (seeds 0-9: p004, p007, p008); the grid
    house's variant is sampled, p008's is listed with the reason."""
    from housebench.annotations.files import load_assets, load_house
    from housebench.house.annotate import house_annotations
    from housebench.house.params import HouseParams
    from housebench.house.procedural import procedural_house
    from housebench.pipeline.tasks import sample_all
    from housebench.tasks.sampler import SamplerParams

    house = load_section("house", HouseParams, ROOT / "params.yaml").model_dump()
    houses = {"grid": load_house(built_layout), "p008": house_annotations(procedural_house(8, house))}
    specs = [built_layout.at(Path("tasks/recycle_and_store.json"))]
    params = load_section("tasks", SamplerParams, ROOT / "params.yaml")
    variants, unsampled = sample_all(params, houses, load_assets(built_layout), specs, only={"recycle_and_store": [0]})
    assert [(v.variant, v.house) for v in variants] == [("v000", "grid")]
    assert [(u["house"], u["task"], u["variant"]) for u in unsampled] == [("p008", "recycle_and_store", "p008_v000")]
    assert "no free, reachable spot for 'bin'" in unsampled[0]["reason"]


def test_spread_over_houses_samples_variant_i_in_house_i_mod_n_only(built_layout):
    """With ``tasks.spread_over_houses`` the task's variants go round the set, one house each: the count is the
    set's, not each house's; without it every variant is sampled in every house."""
    from housebench.annotations.files import load_assets, load_house
    from housebench.house.annotate import house_annotations
    from housebench.house.params import HouseParams
    from housebench.house.procedural import procedural_house
    from housebench.pipeline.tasks import sample_all
    from housebench.tasks.sampler import SamplerParams

    house = load_section("house", HouseParams, ROOT / "params.yaml").model_dump()
    houses = {"grid": load_house(built_layout), "p003": house_annotations(procedural_house(3, house))}
    specs = [built_layout.at(Path(f"tasks/{TASK}.json"))]
    params = load_section("tasks", SamplerParams, ROOT / "params.yaml")
    assets, only = load_assets(built_layout), {TASK: [0, 1, 2]}
    spread, _ = sample_all(params.model_copy(update={"spread_over_houses": True}), houses, assets, specs, only=only)
    assert [(v.variant, v.house) for v in spread] == [("p003_v001", "p003"), ("v000", "grid"), ("v002", "grid")]
    every, _ = sample_all(params, houses, assets, specs, only=only)
    assert len(every) == 6
    assert {v.variant: v.objects for v in every}["p003_v001"] == spread[0].objects  # the same draw either way
