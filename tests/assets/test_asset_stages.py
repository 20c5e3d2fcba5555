"""The import, collision and physics DVC stages: byte-deterministic, one bad asset never stops the rest."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import yaml
from asset_constants import REPO, SMALL_COACD

from housebench.annotations.schema import AssetsFile
from housebench.assets.build import PhysicsParams
from housebench.assets.collision import CollisionParams
from housebench.assets.importer import ImportParams
from housebench.assets.standins import DEFAULT_SET, generate
from housebench.hashing import tree_hash
from housebench.params import load_section
from housebench.sim.droptest import DropParams

STAGES = ("import_assets", "collision", "physics", "droptest")


def _run(cwd, stage):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", f"stages.{stage}"], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )


def _params(tmp_path, coacd_cache, strict=False, workers=2):
    shipped = yaml.safe_load((REPO / "params.yaml").read_text())
    (tmp_path / "params.yaml").write_text(
        yaml.safe_dump(
            {
                "import": {**shipped["import"], "strict": strict, "workers": workers},
                "collision": {**shipped["collision"], **SMALL_COACD, "cache_dir": str(coacd_cache), "workers": workers},
                "physics": {**shipped["physics"], "workers": workers},
                "droptest": shipped["droptest"],
            }
        )
    )


def _workspace(tmp_path, coacd_cache, strict=False):
    (tmp_path / "assets").mkdir()
    shutil.copy(REPO / "assets" / "specs.yaml", tmp_path / "assets" / "specs.yaml")
    _params(tmp_path, coacd_cache, strict)
    generate(DEFAULT_SET, tmp_path / "assets_raw", seed=0)
    broken = tmp_path / "assets_raw" / "broken" / "result"
    shutil.copytree(tmp_path / "assets_raw" / "apple" / "result", broken)
    (broken / "apple.urdf").write_text("<robot><link>")


def test_stages_are_deterministic_and_isolate_a_bad_asset(tmp_path, coacd_cache):
    """The whole default set, on 2 workers then 1: the same bytes; every asset passes the drop
    test (and a ball stays in every container); the broken asset is reported, not fatal."""
    _workspace(tmp_path, coacd_cache)
    hashes = []
    for workers in (2, 1):
        _params(tmp_path, coacd_cache, workers=workers)
        for stage in STAGES:
            done = _run(tmp_path, stage)
            assert done.returncode == 0, done.stderr
        hashes.append((tree_hash(tmp_path / "assets_built"), tree_hash(tmp_path / "annotations")))
    assert hashes[0] == hashes[1]
    failed = json.loads((tmp_path / "assets_built/imported/failed.json").read_text())["failed"]
    assert list(failed) == ["broken"] and "apple.urdf: xml: malformed XML" in failed["broken"]
    assets = AssetsFile.model_validate_json((tmp_path / "annotations/assets.json").read_text())
    assert sorted(assets.assets) == sorted(DEFAULT_SET)
    assert assets.assets["bowl"].container is not None
    for name in DEFAULT_SET:
        files = {p.name for p in (tmp_path / "assets_built/sim" / name).iterdir()}
        assert {"asset.usda", "body.xml", "meta.json", "visual.obj", "visual.mtl", f"{name}.png"} <= files
    drops = json.loads((tmp_path / "assets_built/droptest.json").read_text())
    assert sorted(drops["assets"]) == sorted(DEFAULT_SET)
    assert drops["failed"] == [], {n: drops["assets"][n]["failures"] for n in drops["failed"]}
    containers = {n for n, a in assets.assets.items() if a.container is not None}
    assert len(containers) == 9 and all("ball" in drops["assets"][n] for n in containers)


def test_strict_import_fails_on_a_bad_asset_but_still_writes_the_good_ones(tmp_path, coacd_cache):
    _workspace(tmp_path, coacd_cache, strict=True)
    done = _run(tmp_path, "import_assets")
    assert done.returncode == 1
    assert "broken: FAILED: " in done.stderr
    built = sorted(p.name for p in (tmp_path / "assets_built/imported").iterdir() if p.is_dir())
    assert built == sorted(DEFAULT_SET)


def test_shipped_params_match_the_library_defaults():
    """``housebench asset import`` without ``--params`` builds what the pipeline builds."""
    for section, model in [
        ("import", ImportParams),
        ("collision", CollisionParams),
        ("physics", PhysicsParams),
        ("droptest", DropParams),
    ]:
        assert load_section(section, model, REPO / "params.yaml") == model(), section
