"""Asset inputs are regular files of bounded size inside their folder (issue 16): one line each."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from housebench.assets import embodiedgen
from housebench.assets.batch import run_each
from housebench.assets.errors import AssetError
from housebench.assets.importer import raw_result
from housebench.assets.standins import generate
from housebench.cli import main


@pytest.fixture
def raw(tmp_path) -> Path:
    generate(("apple",), tmp_path / "raw", seed=0)
    return tmp_path / "raw" / "apple" / "result"


def _swap(path: Path, make) -> None:
    path.unlink()
    make(path)


def _dev_zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _outside(path: Path) -> None:
    outside = path.parents[3] / "elsewhere.urdf"
    outside.write_bytes(b"")
    path.symlink_to(outside)


def _big_text(raw: Path) -> None:
    urdf = raw / "apple.urdf"
    urdf.write_text(urdf.read_text().replace("<extra_info>", f"<extra_info><note>{'x' * 5000}</note>", 1))


def _many_fields(raw: Path) -> None:
    urdf = raw / "apple.urdf"
    fields = "".join(f"<k{i}>v</k{i}>" for i in range(100))
    urdf.write_text(urdf.read_text().replace("<extra_info>", f"<extra_info>{fields}", 1))


def _not_an_image(raw: Path) -> None:
    (raw / "mesh" / "material_0.png").write_text("not a picture")


def _huge_texture(raw: Path) -> None:
    Image.new("RGB", (9000, 8000), (9, 9, 9)).save(raw / "mesh" / "material_0.png", optimize=False)


def _many_faces(raw: Path) -> None:
    obj = raw / "mesh" / "apple.obj"
    face = next(line for line in obj.read_text().splitlines() if line.startswith("f "))
    with obj.open("a") as out:
        out.write((face + "\n") * (embodiedgen.MAX_FACES + 1))


CASES = {
    "urdf is /dev/zero": (lambda r: _swap(r / "apple.urdf", _dev_zero), "result", "urdf", "escapes the result folder"),
    "urdf is a fifo": (lambda r: _swap(r / "apple.urdf", _fifo), "result", "urdf", "not a regular file"),
    "urdf outside": (lambda r: _swap(r / "apple.urdf", _outside), "result", "urdf", "escapes the result folder"),
    "mesh is a fifo": (
        lambda r: _swap(r / "mesh" / "apple.obj", _fifo),
        "apple.urdf",
        "visual/geometry/mesh@filename",
        "not a regular file",
    ),
    "texture is a fifo": (
        lambda r: _swap(r / "mesh" / "material_0.png", _fifo),
        "material.mtl",
        "map_Kd",
        "not a regular file",
    ),
    "free text": (_big_text, "apple.urdf", "extra_info/note", "over the limit of 2000"),
    "many fields": (_many_fields, "apple.urdf", "extra_info", "over the limit of 64"),
    "not an image": (_not_an_image, "material_0.png", "map_Kd", "not an image"),
    "huge texture": (_huge_texture, "material_0.png", "map_Kd", "9000x8000 pixels, over the limit"),
    "many faces": (_many_faces, "apple.obj", "faces", f"over the limit of {embodiedgen.MAX_FACES}"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input_files_are_one_line(case, raw, tmp_path):
    damage, file, field, reason = CASES[case]
    damage(raw)
    result = CliRunner().invoke(main, ["asset", "import", str(raw), "--out", str(tmp_path / "out")])
    assert result.exit_code == 1, result.output
    assert result.output.count("\n") == 1 and "Traceback" not in result.output, result.output
    assert f"{file}: {field}: " in result.output and reason in result.output, result.output
    assert not (tmp_path / "out").exists()


def test_asset_folders_that_are_symlinks_are_refused(raw, tmp_path):
    repo_raw = tmp_path / "assets_raw"
    repo_raw.mkdir()
    (repo_raw / "apple").symlink_to(raw.parent)
    with pytest.raises(AssetError, match=r"assets_raw/apple: folder: a symlink"):
        raw_result(repo_raw, "apple")
    (repo_raw / "pear").mkdir()
    (repo_raw / "pear" / "result").symlink_to(raw)
    with pytest.raises(AssetError, match=r"pear/result: folder: a symlink"):
        raw_result(repo_raw, "pear")
    assert raw_result(raw.parents[1], "apple") == raw.parents[1] / "apple" / "result"


def _build(name: str, out: Path) -> None:
    (out / "built.txt").write_text(name)


def test_an_asset_folder_with_a_bad_name_fails_alone(tmp_path):
    names = ["apple", "failed.json", "x" * 240, "bowl"]
    done, failed = run_each(names, tmp_path / "out", _build)
    assert sorted(done) == ["apple", "bowl"] and sorted(failed) == sorted(names[1:3])
    assert all(reason.startswith("asset folder name: ") for reason in failed.values())
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["apple", "bowl", "failed.json"]
