"""Report pictures come from inside the project folder and are checked to be images (issue 16)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from housebench.cli import main
from housebench.inputs import InputError
from housebench.report.build import build_report
from housebench.report.pictures import report_pictures


@pytest.fixture
def project(results_dir, tmp_path, monkeypatch):
    root = results_dir.parent
    (root / "previews").mkdir()
    Image.new("RGB", (8, 6), (1, 2, 3)).save(root / "previews" / "ok.png")
    (root / "params.yaml").write_text(
        "report:\n  title: t\n  scene_images: ['previews/*.png']\n  runs: [repro]\n  control: noop\n"
    )
    monkeypatch.chdir(root)
    return root


def test_a_picture_symlinked_from_outside_is_refused(project, tmp_path_factory):
    secret = tmp_path_factory.mktemp("elsewhere") / "secret.png"
    Image.new("RGB", (4, 4)).save(secret)
    (project / "previews" / "leak.png").symlink_to(secret)
    with pytest.raises(InputError, match=r"previews/leak.png: picture: outside the project folder"):
        report_pictures(["previews/*.png"], project / "tasks")
    (project / "previews" / "leak.png").unlink()
    assert [p for p, _ in report_pictures(["previews/*.png"], project / "tasks")] == [Path("previews/ok.png")]


def test_the_stage_refuses_an_outside_picture_in_one_line(project, tmp_path_factory):
    from stages.report import main as stage

    outside = tmp_path_factory.mktemp("elsewhere")
    Image.new("RGB", (4, 4)).save(outside / "x.png")
    (project / "previews" / "x.png").symlink_to(outside / "x.png")
    with pytest.raises(SystemExit, match=r"^previews/x.png: picture: outside the project folder"):
        stage()


@pytest.mark.parametrize(
    "write, message",
    [
        (lambda p: p.write_text("<html>not a picture</html>"), "not an image"),
        (lambda p: Image.new("RGB", (4, 4)).save(p, format="JPEG"), "a JPEG image; the report embeds PNG"),
        (lambda p: Image.new("L", (4097, 4097)).save(p), "4097x4097 pixels, over the limit"),
    ],
)
def test_pictures_must_be_png_images_of_bounded_size(project, write, message):
    bad = project / "previews" / "bad.png"
    write(bad)
    with pytest.raises(InputError, match=message):
        build_report(project / "results", project / "report", [bad])
    result = CliRunner().invoke(main, ["report", "build", "--out", "r", "--picture", "previews/bad.png"])
    assert result.exit_code == 1 and result.output.count("\n") == 1 and message in result.output


def test_cli_pictures_come_from_inside_the_project(project, tmp_path_factory):
    outside = tmp_path_factory.mktemp("elsewhere") / "x.png"
    Image.new("RGB", (4, 4)).save(outside)
    result = CliRunner().invoke(main, ["report", "build", "--out", "r", "--picture", str(outside)])
    assert result.exit_code == 1 and "picture: outside the project folder" in result.output
    result = CliRunner().invoke(main, ["report", "build", "--out", "r", "--picture", "previews/ok.png"])
    assert result.exit_code == 0, result.output
