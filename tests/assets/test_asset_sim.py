"""MuJoCo: every built asset's ``body.xml`` compiles, passes the drop test, and the bowl holds a ball."""

from __future__ import annotations

import json

import mujoco
import numpy as np
import pytest

from housebench.assets.droptest import drop_test


@pytest.mark.parametrize("name", ["apple", "orange", "bowl", "book"])
def test_body_compiles_with_the_built_mass(name, built):
    model = mujoco.MjModel.from_xml_path(str(built[name] / "body.xml"))
    meta = json.loads((built[name] / "meta.json").read_text())
    assert model.body_mass[1] == pytest.approx(meta["mass"])
    assert model.body_inertia[1] == pytest.approx(meta["principal_inertia"], rel=1e-4)


@pytest.mark.parametrize("name", ["apple", "orange", "bowl", "book"])
def test_drop_from_5cm_rests_upright_and_stays(name, built):
    meta = json.loads((built[name] / "meta.json").read_text())
    result = drop_test(built[name] / "body.xml", drop=0.05, settle_s=1.0, hold_s=3.0)
    assert result.rest_z == pytest.approx(meta["bottom_offset"], abs=0.005)
    assert result.tilt_deg < 5.0
    assert result.drift < 0.01
    assert result.final_z > -0.005  # did not fall through


@pytest.mark.parametrize("x", [0.0, 0.03])
def test_bowl_keeps_a_small_sphere_inside(x, built_set):
    sim, annotation = built_set["bowl"]
    cavity = annotation.container
    assert cavity.shape == "round" and 0.05 < cavity.inner_half_extents[0] < 0.08
    assert cavity.floor_z == pytest.approx(0.008, abs=1e-3) and cavity.rim_z == pytest.approx(0.06)
    result = drop_test(sim / "body.xml", drop=0.0, settle_s=1.0, hold_s=1.0,
                       balls=[(x, 0.0, 0.1, 0.01)])
    ball = result.balls[0]
    assert np.hypot(ball[0], ball[1]) < cavity.inner_half_extents[0]
    assert cavity.floor_z < ball[2] < cavity.rim_z


@pytest.mark.slow
@pytest.mark.parametrize("name", ["apple", "orange", "bowl", "book"])
def test_drop_with_the_shipped_collision_params(name, tmp_path):
    """The same drop test on assets built with params.yaml's CoACD settings (not the small ones)."""
    from conftest import REPO

    from housebench.assets.build import PhysicsParams, build_sim, collide
    from housebench.assets.collision import CollisionParams
    from housebench.assets.importer import import_asset
    from housebench.assets.spec import load_specs
    from housebench.assets.standins import generate
    from housebench.params import load_params

    generate((name,), tmp_path / "raw", seed=0)
    folders = [tmp_path / part for part in ("imported", "collision", "sim")]
    for folder in folders:
        folder.mkdir()
    spec = load_specs(REPO / "assets" / "specs.yaml").assets[name]
    import_asset(tmp_path / "raw" / name / "result", folders[0], spec, name=name)
    shipped = load_params("collision", REPO / "params.yaml")
    collide(folders[0], folders[1], CollisionParams(**{**shipped, "cache_dir": str(tmp_path / "c")}))
    build_sim(folders[0], folders[1], folders[2], PhysicsParams())
    result = drop_test(folders[2] / "body.xml")
    assert abs(result.rest_z) < 0.005 and result.tilt_deg < 5.0 and result.drift < 0.01
