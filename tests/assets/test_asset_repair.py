"""Mesh repair (pymeshlab) on separate visual and collision copies, GLB input, lay-flat and the
footprint origin from the spec."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
import trimesh
from asset_constants import REPO
from click.testing import CliRunner
from PIL import Image

from housebench.assets.importer import import_asset
from housebench.assets.objio import read_textured_obj
from housebench.assets.repair import repair_collision, repair_visual
from housebench.assets.spec import AssetSpec, load_specs
from housebench.assets.standins import generate
from housebench.cli import main

SPECS = REPO / "assets" / "specs.yaml"


def _sphere(subdivisions=4):
    s = trimesh.creation.icosphere(subdivisions=subdivisions, radius=0.05)
    uv = np.column_stack([np.arctan2(s.vertices[:, 1], s.vertices[:, 0]), s.vertices[:, 2]])
    return np.asarray(s.vertices), np.asarray(s.faces), uv


def test_visual_copy_is_decimated_to_the_budget_with_uvs():
    v, f, uv = _sphere()
    rv, rf, ruv = repair_visual(v, f, uv, max_faces=1000)
    assert len(rf) <= 1000 and len(ruv) == len(rv) and rf.max() < len(rv)
    assert np.ptp(rv, axis=0) == pytest.approx(np.ptp(v, axis=0), abs=2e-3)
    again = repair_visual(v, f, uv, max_faces=1000)
    assert all(np.array_equal(a, b) for a, b in zip((rv, rf, ruv), again))  # deterministic


def test_visual_copy_under_budget_keeps_its_uvs():
    v, f, uv = _sphere(2)
    dup = np.vstack([f, f[:10]])  # duplicate faces are dropped
    rv, rf, ruv = repair_visual(v, dup, uv, max_faces=10_000)
    assert len(rf) == len(f) and np.allclose(ruv, uv)


def test_collision_copy_is_welded_closed_and_decimated():
    v, f, _ = _sphere()
    split = v[f].reshape(-1, 3)  # every face with its own vertices: duplicates everywhere
    faces = np.arange(len(split)).reshape(-1, 3)[1:]  # and one hole
    assert not trimesh.Trimesh(split, faces, process=False).is_watertight
    rv, rf = repair_collision(split, faces, max_faces=800)
    mesh = trimesh.Trimesh(rv, rf, process=False)
    assert len(rf) <= 800 and mesh.is_watertight and len(rv) < len(split)


def test_glb_visual_is_read_with_its_embedded_texture(tmp_path):
    generate(("apple",), tmp_path / "raw", seed=0)
    result = tmp_path / "raw" / "apple" / "result"
    mesh = trimesh.load(result / "mesh" / "apple.obj", process=False, force="mesh")
    mesh.export(result / "mesh" / "apple.glb")
    (result / "mesh" / "apple.obj").unlink()
    urdf = result / "apple.urdf"
    urdf.write_text(urdf.read_text().replace('filename="mesh/apple.obj"', 'filename="mesh/apple.glb"'))
    out = tmp_path / "out"
    done = CliRunner().invoke(main, ["asset", "import", str(result), "--out", str(out), "--spec", str(SPECS)])
    assert done.exit_code == 0, done.output
    size = load_specs(SPECS).assets["apple"].size
    assert json.loads((out / "meta.json").read_text())["size"] == pytest.approx(size, abs=1e-6)
    texture = np.asarray(Image.open(out / "apple.png"))
    assert texture.shape == (64, 64, 3) and texture[..., 0].mean() > texture[..., 2].mean()  # red


@pytest.fixture
def notebook(tmp_path):
    generate(("notebook", "mug"), tmp_path / "raw", seed=0)
    return tmp_path / "raw"


def test_lay_flat_turns_a_standing_notebook_down(notebook, tmp_path):
    spec = load_specs(SPECS).assets["notebook"]
    assert spec.lay_flat
    for lay_flat, out in ((True, tmp_path / "flat"), (False, tmp_path / "standing")):
        out.mkdir()
        size = spec.size if lay_flat else None
        info = import_asset(
            notebook / "notebook" / "result",
            out,
            spec.model_copy(update={"lay_flat": lay_flat, "size": size}),
            name="notebook",
        )
        assert (info["size"][2] < 0.02) == lay_flat


def test_base_origin_centres_the_mug_body_not_its_handle(notebook, tmp_path):
    spec = load_specs(SPECS).assets["mug"]
    for origin in ("base", "bbox"):
        out = tmp_path / origin
        out.mkdir()
        import_asset(notebook / "mug" / "result", out, spec.model_copy(update={"origin": origin}), name="mug")
        v = read_textured_obj(out / "visual.obj")[0]
        foot = v[v[:, 2] < 0.002]
        offset = abs((foot[:, 0].min() + foot[:, 0].max()) / 2)
        assert (offset < 1e-4) == (origin == "base")


def test_spec_origin_must_be_known():
    with pytest.raises(ValueError):
        AssetSpec(origin="centre")


def test_decimated_collision_copy_passes_coacds_manifold_check(tmp_path):
    """A flipped or self-intersecting face makes CoACD voxel-remesh the input (slow, thick walls):
    the decimated mug must reach CoACD as it is (its own check, read from its log)."""
    generate(("mug",), tmp_path / "raw", seed=0)
    (tmp_path / "mug").mkdir()
    import_asset(tmp_path / "raw" / "mug" / "result", tmp_path / "mug", load_specs(SPECS).assets["mug"], name="mug")
    visual, visual_faces, _ = read_textured_obj(tmp_path / "mug" / "visual.obj")
    vertices, faces = repair_collision(visual, visual_faces, max_faces=1000)
    assert len(faces) <= 1000
    np.savez(tmp_path / "mug.npz", vertices=vertices, faces=faces)
    probe = (
        "import sys, numpy as np, coacd; d = np.load(sys.argv[1]); coacd.set_log_level('info'); "
        "coacd.run_coacd(coacd.Mesh(d['vertices'], d['faces']), threshold=1.0, resolution=50, "
        "mcts_nodes=1, mcts_iterations=1, mcts_max_depth=1)"
    )
    log = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path / "mug.npz")],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert "Mesh Manifoldness: true" in log.stdout + log.stderr
