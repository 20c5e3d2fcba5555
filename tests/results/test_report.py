"""The report reads the Parquet and writes a self-contained page, PNG plots and metrics, stably."""

import json
import re

import pytest
from click.testing import CliRunner
from PIL import Image

from housebench.cli import main
from housebench.report.build import build_report
from housebench.report.summary import wilson


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
        "skill_failures.png",
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
    assert html.count('src="data:image/png;base64,') == 4  # three plots and the scene
    assert "<h2>Where skills fail</h2>" in html
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


def test_skill_failures_name_the_last_failed_skill_once_per_episode(results_dir):
    from housebench.report.summary import summarize
    from housebench.results.writer import connect

    con = connect(results_dir, None)
    sections = summarize(con)
    failed = con.sql("select count(*) from episodes where policy = 'scripted' and not success").fetchall()[0][0]
    con.close()
    rows = sections["skill_failures"]
    assert {(r["policy"], r["skill"], r["reason"]) for r in rows} == {("scripted", "place", "dropped")}
    assert sum(r["episodes"] for r in rows) == failed > 0
