"""Mass properties from the collision geometry, and the collision rules (hull, CoACD, fallback, cache)."""

from __future__ import annotations

import numpy as np
import pytest
import trimesh

from housebench.assets.collision import CollisionParams, decompose
from housebench.assets.objio import read_textured_obj
from housebench.assets.physics import mass_properties


def _box(extents, centre=(0, 0, 0)):
    box = trimesh.creation.box(extents=extents)
    return np.asarray(box.vertices) + centre, np.asarray(box.faces)


def test_inertia_of_a_box_matches_the_formula():
    a, b, c, m = 0.1, 0.2, 0.3, 2.0
    props = mass_properties([_box((a, b, c), (0, 0, c / 2))], m)
    expected = m / 12 * np.array([b * b + c * c, a * a + c * c, a * a + b * b])
    assert np.allclose(props.com, [0, 0, c / 2])
    assert np.allclose(np.diag(props.inertia), expected)
    assert np.allclose(np.sort(props.principal), np.sort(expected))


def test_two_halves_give_the_whole_box():
    whole = mass_properties([_box((0.2, 0.1, 0.1))], 1.0)
    halves = mass_properties([_box((0.1, 0.1, 0.1), (-0.05, 0, 0)), _box((0.1, 0.1, 0.1), (0.05, 0, 0))], 1.0)
    assert np.allclose(whole.inertia, halves.inertia) and np.allclose(whole.com, halves.com)


def _visual(built, name):
    return read_textured_obj(built[name].parent.parent / "imported" / name / "visual.obj")[:2]


def test_nearly_convex_mesh_keeps_the_plain_hull(built, small_params):
    result = decompose(*_visual(built, "apple"), "auto", small_params)
    assert result.method == "hull" and len(result.hulls) == 1


def test_concave_mesh_is_decomposed_from_the_cache(built, small_params, coacd_cache):
    before = sorted(coacd_cache.iterdir())
    result = decompose(*_visual(built, "bowl"), "auto", small_params)
    assert result.method == "coacd" and 1 < len(result.hulls) <= small_params.max_hulls
    assert sorted(coacd_cache.iterdir()) == before  # the fixture's run is reused, not redone


def test_coacd_timeout_falls_back_to_the_hull(built, tmp_path):
    params = CollisionParams(timeout_s=0.01, cache_dir=str(tmp_path))
    result = decompose(*_visual(built, "bowl"), "coacd", params)
    assert result.method == "hull-fallback" and len(result.hulls) == 1
    assert "TimeoutError" in result.notes[0]
    assert not list(tmp_path.iterdir())  # nothing cached for a failed run


def test_tiny_hulls_are_dropped(small_params):
    big, tiny = _box((0.1, 0.1, 0.1)), _box((1e-4, 1e-4, 1e-4), (0, 0, 0.2))
    v = np.vstack([big[0], tiny[0]])
    f = np.vstack([big[1], tiny[1] + len(big[0])])
    result = decompose(v, f, "source", small_params, source=[big, tiny])
    assert len(result.hulls) == 1 and "dropped 1" in result.notes[0]


def test_thin_but_real_hulls_are_kept(small_params):
    """A 0.7 mm panel 5 cm wide is part of the shape (a toy car's side), not a degenerate hull: dropping
    it left an 11 mm hole in the car's collider."""
    body, panel = _box((0.1, 0.1, 0.1)), _box((0.05, 0.04, 7e-4), (0, 0, 0.0504))
    result = decompose(*body, "source", small_params, source=[body, panel])
    assert len(result.hulls) == 2 and not result.notes


def test_source_without_pieces_is_an_error(small_params):
    with pytest.raises(ValueError):
        decompose(*_box((0.1, 0.1, 0.1)), "source", small_params)


def test_degenerate_hulls_are_dropped_not_fatal(small_params):
    big = _box((0.1, 0.1, 0.1))
    flat = (np.array([[0, 0, 0.2], [0.05, 0, 0.2], [0, 0.05, 0.2], [0.05, 0.05, 0.2]]), np.array([[0, 1, 2]]))
    sliver = _box((0.05, 0.05, 1e-4), (0, 0, 0.3))
    result = decompose(*big, "source", small_params, source=[big, flat, sliver, (big[0][:3], big[1][:1])])
    assert len(result.hulls) == 1 and "dropped 3" in result.notes[0]


def test_a_flat_mesh_leaves_no_hull_and_says_so(small_params):
    flat = _box((0.1, 0.1, 0.0))
    with pytest.raises(ValueError, match="flat or degenerate"):
        decompose(*flat, "hull", small_params)


@pytest.mark.parametrize("collider", ["hull", "source"])
def test_every_hull_is_capped_in_vertices(collider, small_params):
    sphere = trimesh.creation.icosphere(subdivisions=4, radius=0.05)
    mesh = (np.asarray(sphere.vertices), np.asarray(sphere.faces))
    result = decompose(*mesh, collider, small_params, source=[mesh])
    assert len(sphere.vertices) > small_params.max_hull_vertices
    assert [len(v) for v, _ in result.hulls] == [small_params.max_hull_vertices]
    lo, hi = result.hulls[0][0].min(0), result.hulls[0][0].max(0)
    assert np.allclose(lo, -0.05, atol=1e-3) and np.allclose(hi, 0.05, atol=1e-3)  # extremes kept
