"""Bad input to ``housebench asset import``: non-zero exit, one line naming file and field, no output."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from housebench.assets.standins import generate
from housebench.cli import main

BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
<robot name="apple"><link name="apple">&lol2;</link></robot>
"""


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def _missing_mesh(r: Path) -> None:
    (r / "mesh" / "apple.obj").unlink()


def _malformed(r: Path) -> None:
    _replace(r / "apple.urdf", "</robot>", "</robt>")


def _entities(r: Path) -> None:
    (r / "apple.urdf").write_text(BILLION_LAUGHS)


def _escape(r: Path) -> None:
    _replace(r / "apple.urdf", 'filename="mesh/apple.obj"', 'filename="../../outside.obj"')
    shutil.copy(r / "mesh" / "apple.obj", r.parent.parent / "outside.obj")


def _texture_escape(r: Path) -> None:
    _replace(r / "mesh" / "material.mtl", "map_Kd material_0.png", "map_Kd /etc/passwd")


def _nan(r: Path) -> None:
    obj = r / "mesh" / "apple.obj"
    lines = obj.read_text().splitlines()
    lines[5] = "v nan 0.0 inf"
    obj.write_text("\n".join(lines) + "\n")


def _scale_to_metre(r: Path) -> None:
    """EmbodiedGen's failed-sizing output: the mesh 1 m tall and the mass 1 kg."""
    obj = r / "mesh" / "apple.obj"
    lines = obj.read_text().splitlines()
    ys = [float(ln.split()[2]) for ln in lines if ln.startswith("v ")]
    k = 1.0 / (max(ys) - min(ys))
    obj.write_text(
        "\n".join(
            "v " + " ".join(f"{float(x) * k:.6f}" for x in ln.split()[1:]) if ln.startswith("v ") else ln
            for ln in lines
        )
        + "\n"
    )
    _replace(r / "apple.urdf", '<mass value="0.1800" />', '<mass value="1.0" />')


def _absurd(r: Path) -> None:
    obj = r / "mesh" / "apple.obj"
    obj.write_text(
        "\n".join(
            "v " + " ".join(f"{float(x) * 100:.6f}" for x in ln.split()[1:]) if ln.startswith("v ") else ln
            for ln in obj.read_text().splitlines()
        )
        + "\n"
    )


def _flat(r: Path) -> None:
    """Every vertex at the same height (Y up): a zero-volume sheet."""
    obj = r / "mesh" / "apple.obj"
    obj.write_text(
        "\n".join(
            " ".join([*ln.split()[:2], "0.0", ln.split()[3]]) if ln.startswith("v ") else ln
            for ln in obj.read_text().splitlines()
        )
        + "\n"
    )


def _empty(r: Path) -> None:
    obj = r / "mesh" / "apple.obj"
    obj.write_text("\n".join(ln for ln in obj.read_text().splitlines() if not ln.startswith("f ")) + "\n")


CASES = {
    "flat mesh": (_flat, "apple.obj", "vertices"),
    "empty mesh": (_empty, "apple.obj", "vertices"),
    "missing mesh": (_missing_mesh, "apple.urdf", "visual/geometry/mesh@filename"),
    "malformed xml": (_malformed, "apple.urdf", "xml"),
    "entity expansion": (_entities, "apple.urdf", "xml"),
    "path escape": (_escape, "apple.urdf", "visual/geometry/mesh@filename"),
    "texture escape": (_texture_escape, "material.mtl", "map_Kd"),
    "nan vertices": (_nan, "apple.obj", "vertices"),
    "failed sizing": (_scale_to_metre, "apple.urdf", "extra_info/real_height"),
    "absurd size": (_absurd, "apple.obj", "vertices"),
}


@pytest.fixture
def raw(tmp_path) -> Path:
    generate(("apple",), tmp_path / "raw", seed=0)
    return tmp_path / "raw" / "apple" / "result"


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input_is_one_line_and_leaves_nothing(case, raw, tmp_path):
    damage, file, field = CASES[case]
    damage(raw)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["asset", "import", str(raw), "--out", str(out)])
    assert result.exit_code != 0
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert re.search(rf"{re.escape(file)}: {re.escape(field)}: ", lines[0]), lines[0]
    assert not out.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out")]


def test_failed_sizing_is_accepted_when_the_spec_sizes_it(raw, tmp_path):
    _scale_to_metre(raw)
    spec = tmp_path / "specs.yaml"
    spec.write_text("version: 1\nassets:\n  apple: {size: [0.08, 0.08, 0.07], mass: 0.18, collider: hull}\n")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["asset", "import", str(raw), "--out", str(out), "--spec", str(spec)])
    assert result.exit_code == 0, result.output
    assert (out / "asset.usda").is_file() and (out / "body.xml").is_file()


def test_bad_spec_table_names_the_field(raw, tmp_path):
    spec = tmp_path / "specs.yaml"
    spec.write_text("version: 1\nassets:\n  apple: {size: [0.08, 0.08, 0.07], colour: red}\n")
    result = CliRunner().invoke(main, ["asset", "import", str(raw), "--out", str(tmp_path / "o"), "--spec", str(spec)])
    assert result.exit_code != 0
    assert "specs.yaml: assets.apple.colour: " in result.output
    assert not (tmp_path / "o").exists()
