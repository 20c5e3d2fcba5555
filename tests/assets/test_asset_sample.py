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
