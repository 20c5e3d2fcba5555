"""Slow: every canonical task, sampled over the built house and asset set, settles and passes the 3 s
stability check in MuJoCo (the house and assets of the tests' slow build, tests/builtdata.py)."""

from __future__ import annotations

import json

import pytest
import yaml
from test_task_canonical import CANONICAL, ROOT

from housebench.paths import ANNOTATIONS_DIR, ASSETS_SIM, HOUSE_DIR, TASK_SPECS_DIR, Layout
from housebench.pipeline.settle import SettleParams, settle_all
from housebench.pipeline.tasks import write_variants
from housebench.tasks.sampler import SamplerParams
from tests.builtdata import SLOW_VARIANTS, built


@pytest.mark.slow
def test_every_canonical_task_settles_stably(tmp_path):
    """Over the house and assets of the tests' slow build (its two lists of pairs hold every task's assets)."""
    data = built(*SLOW_VARIANTS[0]).root
    assets = json.loads((data / ANNOTATIONS_DIR / "assets.json").read_text())["assets"]
    needed = {
        a
        for t in CANONICAL
        for o in json.loads((ROOT / "tasks" / f"{t}.json").read_text())["objects"].values()
        for a in o["asset"].split("|")
    }
    assert needed <= set(assets), f"tests/builtdata.py builds no task using {sorted(needed - set(assets))}"
    for link in (ANNOTATIONS_DIR / "house.json", ANNOTATIONS_DIR / "assets.json", HOUSE_DIR, ASSETS_SIM):
        (tmp_path / link).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / link).symlink_to(data / link)
    (tmp_path / TASK_SPECS_DIR).mkdir()
    for task in CANONICAL:
        (tmp_path / TASK_SPECS_DIR / f"{task}.json").symlink_to(ROOT / "tasks" / f"{task}.json")
    params = yaml.safe_load((ROOT / "params.yaml").read_text())
    layout = Layout(root=tmp_path)
    variants = write_variants(layout, SamplerParams(**{**params["tasks"], "variants_per_task": 3}))
    assert sorted({v.task for v in variants}) == sorted(CANONICAL) and len(variants) == 3 * len(CANONICAL)
    reports = settle_all(layout, SettleParams(**params["settle"]))
    failed = {r["scene"]: (r["skipped"], r["stability"]) for r in reports[1:] if not r["passed"]}
    assert len(reports) == 1 + len(variants) and not failed, failed
