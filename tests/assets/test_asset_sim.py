"""Physics of built assets: ``body.xml`` compiles with the built mass; through the simulator backend
(the scenes' compile path) every ``asset.usda`` passes the drop test, containers hold a ball, and
small light bodies are damped (a round pen stops rolling)."""

from __future__ import annotations

import json

import mujoco
import numpy as np
import pytest
from asset_constants import BUILT, REPO
from pxr import Usd

from housebench.annotations.schema import SECTION_HEIGHT
from housebench.sim.droptest import ASSET, DropParams, check_asset, drop_stage, drop_test
from housebench.sim.mujoco import MujocoBackend


@pytest.fixture(scope="module")
def backend(tmp_path_factory):
    return MujocoBackend(cache_dir=tmp_path_factory.mktemp("mjcf"))


@pytest.mark.parametrize("name", BUILT)
def test_body_compiles_with_the_built_mass(name, built):
    model = mujoco.MjModel.from_xml_path(str(built[name] / "body.xml"))
    meta = json.loads((built[name] / "meta.json").read_text())
    assert model.body_mass[1] == pytest.approx(meta["mass"])
    assert model.body_inertia[1] == pytest.approx(meta["principal_inertia"], rel=1e-4)


@pytest.mark.parametrize("name", BUILT)
def test_drop_from_5cm_rests_upright_and_stays(name, built, backend):
    meta = json.loads((built[name] / "meta.json").read_text())
    result = drop_test(backend, built[name] / "asset.usda", drop=0.05, settle_s=1.0, hold_s=3.0)
    assert result.rest_z == pytest.approx(meta["bottom_offset"], abs=0.005)
    assert result.tilt_deg < 5.0
    assert result.drift < 0.01
    assert result.final_z > -0.005  # did not fall through


@pytest.mark.parametrize("x", [0.0, 0.03])
def test_bowl_keeps_a_small_sphere_inside(x, built_set, backend):
    sim, annotation = built_set["bowl"]
    cavity = annotation.container
    assert cavity.shape == "round" and 0.05 < cavity.inner_half_extents[0] < 0.08
    assert cavity.floor_z == pytest.approx(0.008, abs=1e-3) and cavity.rim_z == pytest.approx(0.06)
    result = drop_test(backend, sim / "asset.usda", drop=0.0, settle_s=1.0, hold_s=1.0, balls=[(x, 0.0, 0.04, 0.01)])
    ball = result.balls[0]
    assert np.hypot(ball[0], ball[1]) < cavity.inner_half_extents[0]
    assert cavity.floor_z < ball[2] < cavity.rim_z


@pytest.mark.parametrize("name", ["mug", "toy_box"])
def test_round_and_rect_containers_keep_a_ball(name, built_set, backend):
    sim, annotation = built_set[name]
    record = check_asset(backend, sim / "asset.usda", annotation, DropParams())
    assert record["passed"], record["failures"]
    assert "ball" in record


def test_a_ball_outside_the_annotated_cavity_fails_the_drop_test(built_set, backend):
    """The same mug with its cavity floor annotated 4 cm higher: the ball rests below it."""
    sim, annotation = built_set["mug"]
    cavity = annotation.container
    raised = cavity.model_copy(update={"floor_z": cavity.floor_z + 0.04})
    record = check_asset(backend, sim / "asset.usda", annotation.model_copy(update={"container": raised}), DropParams())
    assert not record["passed"]
    assert record["failures"] == [f for f in record["failures"] if f.startswith("ball ended outside the cavity")]
    assert "FAIL" in record["failures"][0] and "height" in record["failures"][0]


def _roll(backend, asset_usda, tmp_path, damping: bool) -> float:
    """How far the pen travels in 2 s after a 40 rad/s spin about its long axis (X) on the floor;
    undamped: its authored damping overridden to 0 in a layer over the drop stage."""
    stage_path = drop_stage(asset_usda, tmp_path / f"drop_{damping}.usda", 0.0)
    if not damping:
        stage = Usd.Stage.Open(str(stage_path))
        stage.GetPrimAtPath(f"/World/Props/{ASSET}").GetAttribute("physxRigidBody:angularDamping").Set(0.0)
        stage.GetRootLayer().Save()
    sim = backend.load(stage_path)
    sim.step(250)
    state = sim.get_state()
    pen = state.objects[ASSET]
    sim.set_state(state.model_copy(update={"objects": {ASSET: pen.model_copy(update={"angvel": (40.0, 0, 0)})}}))
    sim.step(1000)
    return float(np.linalg.norm(np.subtract(sim.get_state().objects[ASSET].pos[:2], pen.pos[:2])))


def test_small_light_bodies_are_damped(built, backend, tmp_path):
    pen = built["pen"] / "asset.usda"
    assert "physxRigidBody:angularDamping = 0.0005" in pen.read_text()
    assert "angularDamping" not in (built["apple"] / "asset.usda").read_text()
    assert _roll(backend, pen, tmp_path, damping=True) < 0.01 < _roll(backend, pen, tmp_path, damping=False)


@pytest.mark.slow
def test_every_default_asset_with_the_shipped_params(tmp_path):
    """The drop test (and the ball in every container) on the whole default set, built with
    params.yaml's CoACD settings, through the stages' library calls."""

    from housebench.assets.build import PhysicsParams, build_sim, collide
    from housebench.assets.collision import CollisionParams
    from housebench.assets.importer import import_asset
    from housebench.assets.spec import load_specs
    from housebench.assets.standins import DEFAULT_SET, generate
    from housebench.params import load_params

    generate(DEFAULT_SET, tmp_path / "raw", seed=0)
    specs = load_specs(REPO / "assets" / "specs.yaml").assets
    shipped = CollisionParams(**{**load_params("collision", REPO / "params.yaml"), "cache_dir": str(tmp_path / "c")})
    failures = {}
    for name in DEFAULT_SET:
        folders = [tmp_path / part / name for part in ("imported", "collision", "sim")]
        for folder in folders:
            folder.mkdir(parents=True)
        import_asset(tmp_path / "raw" / name / "result", folders[0], specs[name], name=name)
        collide(folders[0], folders[1], shipped)
        annotation = build_sim(folders[0], folders[1], folders[2], PhysicsParams())
        record = check_asset(
            MujocoBackend(cache_dir=tmp_path / "mjcf"), folders[2] / "asset.usda", annotation, DropParams()
        )
        if not record["passed"] or (annotation.container and "ball" not in record):
            failures[name] = record["failures"]
    assert not failures, failures


@pytest.mark.parametrize("name", BUILT)
def test_the_annotation_outlines_the_collision_hulls_slab_by_slab(name, built_set):
    """Sections from the bottom up to the top, each round the hulls' material there, inside the asset's box."""
    sim, annotation = built_set[name]
    sx, sy, sz = annotation.size
    heights = [s.z for s in annotation.sections]
    assert heights == sorted(heights) and heights[0] == 0.0
    assert heights[-1] + SECTION_HEIGHT >= sz - 0.01  # up to the top
    corners = np.concatenate([np.asarray(s.outline) for s in annotation.sections])
    assert np.all(np.abs(corners) <= np.array([sx, sy]) / 2 * 1.1 + 0.01)  # a 16-gon round the hulls, in the box
    assert np.ptp(corners, axis=0) == pytest.approx([sx, sy], rel=0.15, abs=0.01)  # and as wide as they are
