"""The report reads the Parquet and writes a self-contained page, PNG plots and metrics, stably."""

import json
import re

import pytest
from click.testing import CliRunner
from PIL import Image

from housebench.cli import main
from housebench.report.build import build_report
from housebench.report.summary import wilson
from housebench.results.writer import write_run


def test_wilson_interval_matches_known_values():
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_report_pages_plots_and_metrics(results_dir, tmp_path):
    scene = tmp_path / "kitchen_v000.png"
    Image.new("RGB", (8, 6), (200, 120, 40)).save(scene)
    out = tmp_path / "report"
    metrics = build_report(results_dir, out, [scene])

    assert sorted(p.name for p in out.iterdir()) == [
        "index.html",
        "metrics.json",
        "progress.png",
        "success_by_task.png",
    ]
    assert json.loads((out / "metrics.json").read_text()) == metrics
    assert (metrics["episodes"], metrics["runs"]) == (24, 2)
    assert metrics["success_rate"] == round(4 / 24, 6)
    assert metrics["crash_rate"] == round(2 / 24, 6)
    assert metrics["success_ci_low"] < metrics["success_rate"] < metrics["success_ci_high"]
    assert metrics["per_task"]["fruit_in_bowl"]["scripted"]["success_rate"] == round(2 / 6, 6)
    for name in ("progress.png", "success_by_task.png"):
        width, height = Image.open(out / name).size
        assert width == 720 and height >= 260  # grows with the tasks listed

    html = (out / "index.html").read_text()
    for heading in ("Summary by task and policy", "Goal conditions", "Provenance", "Pictures"):
        assert f"<h2>{heading}</h2>" in html
    assert html.count('src="data:image/png;base64,') == 3  # two plots and the scene
    assert "kitchen_v000.png" in html and "c0ffee29" in html and "mujoco 3.3.7" in html
    assert "33.3%" in html and "MuJoCo: unstable" in html
    assert not re.search(r'(src|href)="(?!data:)', html)  # self-contained


def test_same_parquet_same_bytes(results_dir, tmp_path):
    build_report(results_dir, tmp_path / "a")
    build_report(results_dir, tmp_path / "b")
    for path in (tmp_path / "a").iterdir():
        assert path.read_bytes() == (tmp_path / "b" / path.name).read_bytes(), path.name


def test_stage_and_cli(results_dir, monkeypatch):
    from stages.report import main as stage

    root = results_dir.parent
    (root / "params.yaml").write_text(
        "report:\n  title: nightly check\n  scene_images: ['previews/*.png']\n  runs: [repro]\n"
    )
    monkeypatch.chdir(root)
    stage()
    metrics = json.loads((root / "results/metrics.json").read_text())
    assert (metrics["episodes"], metrics["runs"]) == (12, 1)  # the stage reports only the runs named
    assert "<title>nightly check</title>" in (root / "results/report/index.html").read_text()

    result = CliRunner().invoke(main, ["report", "build", "--out", "elsewhere"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["episodes"] == 24  # the CLI reports every run
    assert (root / "elsewhere/index.html").is_file()


def test_two_physics_engines_side_by_side(tmp_path, make_records):
    root = tmp_path / "results"
    write_run(root, "cross-mujoco", make_records("cross-mujoco", 29))
    records = make_records("cross-newton", 29)
    for row in records["episodes"]:
        row.update(backend="newton", backend_version="1.8.0")
    write_run(root, "cross-newton", records)
    build_report(root, tmp_path / "both", runs=["cross-mujoco", "cross-newton"])
    build_report(root, tmp_path / "one", runs=["cross-mujoco"])
    both = (tmp_path / "both" / "index.html").read_text()
    assert "<h2>The same tasks in each physics engine</h2>" in both
    section = both.split("<h2>The same tasks in each physics engine</h2>")[1].split("<h2>")[0]
    assert section.count("<tr>") == 1 + 2 * 2 * 2  # header + task x policy x engine
    assert "mujoco 3.3.7" in section and "newton 1.8.0" in section
    assert "each physics engine" not in (tmp_path / "one" / "index.html").read_text()
