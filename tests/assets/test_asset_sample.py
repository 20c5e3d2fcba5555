"""The real EmbodiedGen sample (``../shared/samples/embodiedgen/ear_hear``) imports end to end."""

from __future__ import annotations

import json

import mujoco
import numpy as np
import pytest
import yaml
from asset_constants import REPO, SAMPLES, SMALL_COACD
from click.testing import CliRunner
from pxr import Usd, UsdGeom

from housebench.cli import main

SAMPLE = SAMPLES / "embodiedgen" / "ear_hear" / "result"
pytestmark = pytest.mark.skipif(not SAMPLE.is_dir(), reason=f"shared sample not present at {SAMPLE}")


def test_sample_imports(tmp_path, coacd_cache):
    params = tmp_path / "params.yaml"
    shipped = yaml.safe_load((REPO / "params.yaml").read_text())["collision"]
    params.write_text(yaml.safe_dump({"collision": {**shipped, **SMALL_COACD, "cache_dir": str(coacd_cache)}}))
    out = tmp_path / "ear_hear"
    result = CliRunner().invoke(main, ["asset", "import", str(SAMPLE), "--out", str(out), "--params", str(params)])
    assert result.exit_code == 0, result.output
    meta = json.loads((out / "meta.json").read_text())
    assert meta["name"] == "ear_hear" and meta["category"] == "headphones"
    assert meta["size"][2] == pytest.approx(0.15, abs=1e-3)  # the Y-up height now runs along Z
    assert meta["mass"] == 0.3 and meta["friction"] == 0.4  # URDF mass; min(mu1, mu2)
    assert meta["collision_method"] == "coacd" and 1 < meta["hull_count"] <= SMALL_COACD["max_hulls"]
    assert max(meta["principal_inertia"]) < 1e-2  # from the geometry, not the 1 kg m^2 placeholder
    assert (out / "ear_hear.png").read_bytes() == (SAMPLE / "mesh" / "material_0.png").read_bytes()
    stage = Usd.Stage.Open(str(out / "asset.usda"))
    points = np.asarray(UsdGeom.Mesh(stage.GetPrimAtPath("/Asset/Visual")).GetPointsAttr().Get())
    assert points[:, 2].min() == pytest.approx(0.0, abs=1e-6)  # bottom-centre origin
    assert np.abs((points.min(0) + points.max(0))[:2] / 2).max() < 1e-6
    mujoco.MjModel.from_xml_path(str(out / "body.xml"))


def test_sample_laid_flat_keeps_its_real_height_and_gets_a_true_drop_verdict(tmp_path, coacd_cache):
    """Added as the README says (``height`` from EmbodiedGen's real height, ``lay_flat``): the headphones
    lie at their real size (not 2.4x), and the drop test's verdict is measured: it passes, or fails for
    what the asset did (a rest height or a tilt), never "fell through the floor" while lying on it."""
    from housebench.annotations.schema import AssetAnnotation
    from housebench.sim.droptest import DropParams, check_asset
    from housebench.sim.mujoco import MujocoBackend

    params = tmp_path / "params.yaml"
    shipped = yaml.safe_load((REPO / "params.yaml").read_text())["collision"]
    params.write_text(yaml.safe_dump({"collision": {**shipped, **SMALL_COACD, "cache_dir": str(coacd_cache)}}))
    spec = tmp_path / "specs.yaml"
    entry = {"category": "headphones", "height": 0.15, "mass": 0.3, "lay_flat": True}
    spec.write_text(yaml.safe_dump({"version": 1, "assets": {"ear_hear": entry}}))
    out = tmp_path / "ear_hear"
    args = ["asset", "import", str(SAMPLE), "--out", str(out), "--spec", str(spec), "--params", str(params)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    size = json.loads((out / "meta.json").read_text())["size"]
    assert sorted(size) == pytest.approx([0.063, 0.133, 0.15], abs=1.5e-3)  # its real extents, laid down
    assert size[2] == min(size)
    annotation = AssetAnnotation.model_validate_json((out / "annotation.json").read_text())
    record = check_asset(MujocoBackend(cache_dir=tmp_path / "mjcf"), out / "asset.usda", annotation, DropParams())
    assert record["lowest_z"] >= -DropParams().height_tol  # it lies on the floor, not in it
    assert record["passed"] or (record["failures"] and not any("fell through" in f for f in record["failures"]))
