"""Pictures of built assets (real MuJoCo offscreen rendering): visual mesh beside coloured hulls."""

from __future__ import annotations

import json

import numpy as np
from click.testing import CliRunner
from PIL import Image

from housebench.assets.preview import FAILED_RED, LABEL_HEIGHT, contact_sheet, hull_colour
from housebench.cli import main
from housebench.sim.asset_preview import asset_picture
from housebench.sim.mujoco import MujocoBackend


def _colours(image: np.ndarray) -> set[tuple[int, int, int]]:
    return {tuple(int(c) for c in px) for px in image.reshape(-1, 3)[::7]}


def _hues_seen(colours: list[np.ndarray], image: np.ndarray) -> set[int]:
    """Which of ``colours`` appear in ``image``, shading aside (pixels compared by hue and saturation)."""
    return {
        i
        for i, rgb in enumerate(colours)
        for px in _colours(image)
        if np.allclose(np.array(px) / max(max(px), 1), rgb / rgb.max(), atol=0.08)
    }


def test_the_hull_view_shows_each_hull_in_its_own_colour(built, tmp_path):
    picture = asset_picture(MujocoBackend(cache_dir=tmp_path), built["bowl"] / "asset.usda", size=200)
    assert picture.shape == (200, 400, 3)
    visual, hulls = picture[:, :200], picture[:, 200:]
    assert visual.any() and hulls.any() and not np.array_equal(visual, hulls)
    hull_count = json.loads((built["bowl"] / "meta.json").read_text())["hull_count"]
    assert hull_count > 1
    lit = [np.array(hull_colour(i)[:3]) * 255 for i in range(hull_count)]
    # shaded, so match hues loosely: most hulls' colours are seen, and none of them in the visual view
    assert len(_hues_seen(lit, hulls)) >= hull_count // 2
    assert not _hues_seen(lit, visual)


def test_contact_sheet_lays_pictures_out_in_a_labelled_grid():
    pictures = {name: np.full((10, 20, 3), k * 40, np.uint8) for k, name in enumerate("abcde")}
    sheet = contact_sheet(pictures, columns=2)
    assert sheet.size == (40, 3 * (10 + LABEL_HEIGHT))
    label = np.asarray(sheet)[10 : 10 + LABEL_HEIGHT, :20]
    assert (label < 128).any() and (label == 255).any()  # a name drawn on the white strip


def test_contact_sheet_marks_a_failed_asset_in_red():
    pictures = {name: np.full((10, 20, 3), 90, np.uint8) for name in "ab"}
    sheet = np.asarray(contact_sheet(pictures, columns=2, failed=["b"]))
    red = np.array(FAILED_RED)
    assert not (sheet[:, :20] == red).all(-1).any()  # 'a' passed: no red anywhere in its cell
    assert (sheet[10 : 10 + LABEL_HEIGHT, 20:] == red).all(-1).mean() > 0.5  # 'b': a red label strip
    assert (sheet[0, 20:] == red).all()  # ... and a red frame


def test_preview_cli_writes_a_png_and_refuses_a_folder_without_an_asset(built, tmp_path):
    out = tmp_path / "sheet.png"
    done = CliRunner().invoke(
        main,
        [
            "asset",
            "preview",
            str(built["mug"]),
            str(built["apple"]),
            "--out",
            str(out),
            "--size",
            "64",
            "--columns",
            "2",
        ],
    )
    assert done.exit_code == 0, done.output
    assert Image.open(out).size == (2 * 128, 64 + LABEL_HEIGHT)
    bad = CliRunner().invoke(main, ["asset", "preview", str(tmp_path)])
    assert bad.exit_code == 1 and "asset.usda: not found" in bad.output
