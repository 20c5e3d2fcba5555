"""Mesh limits count triangles after triangulation, before the mesh is decoded (issue 33): a small OBJ of
1000-sided faces is refused by what it would cost, not passed because it has few ``f`` lines."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from housebench.assets import embodiedgen
from housebench.assets.errors import AssetError
from housebench.assets.standins import generate
from housebench.cli import main

SIDES = 1000  # one face line: 998 triangles


@pytest.fixture
def raw(tmp_path) -> Path:
    generate(("apple",), tmp_path / "raw", seed=0)
    return tmp_path / "raw" / "apple" / "result"


def _polygons(count: int) -> bytes:
    """``count`` faces of :data:`SIDES` corners on vertex 1 (4 MB for the limit: written in milliseconds)."""
    return (b"f" + b" 1" * SIDES + b"\n") * count


def _over_the_limit() -> int:
    return embodiedgen.MAX_FACES // (SIDES - 2) + 1


def test_triangles_are_counted_after_triangulation():
    assert embodiedgen.obj_triangles(b"v 0 0 0\nf 1 2 3\nf 1 2 3 4\nf\t1 2 3 4 5\n", Path("x.obj")) == 1 + 2 + 3
    assert embodiedgen.obj_triangles(_polygons(3), Path("x.obj")) == 3 * (SIDES - 2)


def test_a_visual_obj_of_many_sided_faces_is_refused_before_decoding(raw, tmp_path):
    obj = raw / "mesh" / "apple.obj"
    with obj.open("ab") as out:
        out.write(_polygons(_over_the_limit()))
    result = CliRunner().invoke(main, ["asset", "import", str(raw), "--out", str(tmp_path / "out")])
    assert result.exit_code == 1 and result.output.count("\n") == 1, result.output
    assert f"apple.obj: faces: {_over_the_limit() * (SIDES - 2)} triangles" in result.output or (
        f"over the limit of {embodiedgen.MAX_FACES}" in result.output and "triangles" in result.output
    ), result.output
    assert not (tmp_path / "out").exists()


def test_a_collision_obj_of_many_sided_faces_is_refused(tmp_path):
    hull = tmp_path / "hull.obj"
    hull.write_bytes(b"o piece0\n" + b"v 0 0 0\nv 1 0 0\nv 0 1 0\n" + _polygons(_over_the_limit()))
    with pytest.raises(AssetError, match=f"faces: .* triangles, over the limit of {embodiedgen.MAX_FACES}"):
        embodiedgen.read_pieces(hull)


def test_vertex_lines_are_bounded_too(tmp_path):
    mesh = tmp_path / "points.obj"
    mesh.write_bytes(b"v 0 0 0\n" * (embodiedgen.MAX_VERTICES + 1))
    with pytest.raises(AssetError, match=f"vertices: .* over the limit of {embodiedgen.MAX_VERTICES}"):
        embodiedgen.read_pieces(mesh)
