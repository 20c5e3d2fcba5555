"""The collision benchmark's fidelity measure (``bench/bench_assets.py``) measures the outer surface."""

import importlib.util
from pathlib import Path

import pytest
import trimesh

SPEC = importlib.util.spec_from_file_location("bench_assets", Path(__file__).parents[1] / "bench" / "bench_assets.py")
bench = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(bench)


def _box(extents, x=0.0):
    box = trimesh.creation.box(extents, trimesh.transformations.translation_matrix([x, 0, 0]))
    return box.vertices, box.faces


def test_touching_pieces_of_an_exact_split_measure_exact():
    """Two halves of a box, a hairline (2 um) apart as CoACD's cut pieces can be: the faces inside the
    solid are not surface."""
    mesh = trimesh.creation.box((0.2, 0.1, 0.1))
    gap = 2e-6
    ratio, dev = bench.fidelity(mesh, [_box((0.1 - gap, 0.1, 0.1), -0.05 - gap / 2), _box((0.1, 0.1, 0.1), 0.05)])
    assert ratio == pytest.approx(1.0, abs=1e-4)
    assert dev < 0.1  # mm: only the growth of the union


def test_a_filled_cavity_measures_its_depth():
    """An open box (a 2 cm floor, 8 cm walls around a cavity) covered by its plain hull."""
    outer = trimesh.creation.box((0.1, 0.1, 0.1))
    cavity = trimesh.creation.box((0.08, 0.08, 0.1), trimesh.transformations.translation_matrix([0, 0, 0.02]))
    mesh = outer.difference(cavity, engine="manifold")
    ratio, dev = bench.fidelity(mesh, [(outer.vertices, outer.faces)])
    assert ratio == pytest.approx(1e-3 / mesh.volume, rel=1e-6)
    assert 30 < dev < 45  # mm: the cavity's floor to the lid is 8 cm, its nearest wall 4 cm
