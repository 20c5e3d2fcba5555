"""The report reads the Parquet and writes a self-contained page, PNG plots and metrics, stably."""

import csv
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
    metrics = build_report(results_dir, out, [(scene, "fruit_in_bowl/v000: Put the apple in the bowl.")])

    assert sorted(p.name for p in out.iterdir()) == [
        "index.html",
        "metrics.json",
        "progress.png",
        "progress_by_task.csv",
        "skill_failures.png",
        "success_by_task.csv",
        "success_by_task.png",
    ]
    assert json.loads((out / "metrics.json").read_text()) == metrics
    assert sorted(metrics) == ["noop", "scripted"]  # one short row per policy for `dvc metrics show`
    assert metrics["scripted"]["episodes"] == 12 and metrics["scripted"]["success_rate"] == round(4 / 12, 6)
    assert metrics["scripted"]["crash_rate"] == round(2 / 12, 6)
    assert metrics["noop"]["success_ci_low"] == 0.0 < metrics["noop"]["success_ci_high"]
    rows = list(csv.DictReader((out / "success_by_task.csv").open()))
    assert len(rows) == 4 and {r["policy"] for r in rows} == {"noop", "scripted"}
    for name in ("progress.png", "success_by_task.png"):
        width, height = Image.open(out / name).size
        assert width == 720 and height >= 260  # grows with the tasks listed

    html = (out / "index.html").read_text()
    for anchor in (
        "glance",
        "tasks",
        "failures",
        "crashes",
        "assets",
        "skill-failures",
        "skills",
        "provenance",
        "pictures",
        "episodes",
    ):
        assert f"id={anchor}>" in html
    assert html.count('src="data:image/png;base64,') == 4  # three plots and the scene
    assert "Put the apple in the bowl." in html and "c0ffee29" in html and "mujoco 3.3.7" in html
    assert "33.3%" in html and "MuJoCo: unstable" in html
    assert not re.search(r'(src|href)="(?!data:)', html)  # self-contained


def test_report_tells_success_from_progress_and_the_control(results_dir, tmp_path):
    build_report(results_dir, tmp_path / "r")
    html = (tmp_path / "r/index.html").read_text()
    glance = html[html.index("id=glance") : html.index("id=tasks")]
    assert "24 episodes" in glance and "horizon 10 s per episode" in glance
    assert "(the control, state track)" in glance and "holds its start pose" in glance
    assert "partial credit, not success" in glance
    # scripted: 4 of 12 episodes against 0 of 12 for the control, 95% intervals overlap: flagged
    assert "intervals overlap the control&#x27;s: not told apart" in html
    # failures grouped by predicate and item from the conditions columns (no floats in the key)
    failures = html[html.index("id=failures") : html.index("id=crashes")]
    assert "<td>fruit_in_bowl</td><td>noop</td><td>inside</td><td>pear</td><td>6 of 6 episodes</td>" in failures
    # a drill-down per episode: its verdict per condition and its events
    episodes = html[html.index("id=episodes") :]
    assert episodes.count("<details>") == 24 and "skill_end" in episodes and "FAILED" in episodes
    assert episodes.count("apple: pos (1.0, 2.0, 0.0)") == 22  # the final state of every episode not crashed


def test_same_parquet_same_bytes(results_dir, tmp_path):
    build_report(results_dir, tmp_path / "a")
    build_report(results_dir, tmp_path / "b")
    for path in (tmp_path / "a").iterdir():
        assert path.read_bytes() == (tmp_path / "b" / path.name).read_bytes(), path.name


def test_stage_and_cli(results_dir, monkeypatch, tmp_path):
    from stages.report import main as stage

    root = results_dir.parent
    (root / "tasks").mkdir()
    (root / "tasks/fruit_in_bowl.json").write_text(TASK)
    (root / "scenes/settled/fruit_in_bowl/v000").mkdir(parents=True)
    Image.new("RGB", (8, 6), (200, 120, 40)).save(root / "scenes/settled/fruit_in_bowl/v000/preview.png")
    (root / "params.yaml").write_text(
        "report:\n  title: nightly check\n  scene_images: ['scenes/settled/*/*/preview.png']\n"
        "  runs: [repro]\n  control: noop\n"
    )
    monkeypatch.chdir(root)
    stage()
    metrics = {p.stem: json.loads(p.read_text()) for p in (root / "results/metrics").iterdir()}
    assert sorted(metrics) == ["noop", "scripted"] and metrics["noop"]["episodes"] == 6  # only the runs named
    html = (root / "results/report/index.html").read_text()
    assert "<title>nightly check</title>" in html
    assert "fruit_in_bowl/v000: “Put the apple in the bowl.” Success: the apple inside the bowl." in html

    before = (root / "results/report/index.html").read_bytes()
    result = CliRunner().invoke(main, ["report", "build", "--out", "results/report"])
    assert result.exit_code == 1 and "DVC report stage's output" in result.output
    result = CliRunner().invoke(main, ["report", "build"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["noop"]["episodes"] == 12  # the CLI reports every run
    cli_html = (root / "report/index.html").read_text()  # its own folder, git-ignored
    assert "Success: the apple inside the bowl." in cli_html  # the same captioned pictures as the stage
    assert (root / "results/report/index.html").read_bytes() == before  # the DVC output untouched


TASK = json.dumps(
    {
        "version": 1,
        "instruction": "Put the apple in the bowl.",
        "doc": {"description": "d", "randomizations": [], "success": ["the apple inside the bowl"]},
        "objects": {
            "apple": {"asset": "apple", "role": "fruit", "supports": ["table"]},
            "bowl": {"asset": "bowl", "role": "container", "supports": ["table"]},
        },
        "goal": {"predicate": "inside", "items": ["apple"], "container": "bowl"},
    }
)


def test_asset_health_lists_drop_test_verdicts_hulls_and_refusals(results_dir, tmp_path):
    from housebench.io import write_json
    from housebench.report.inputs import asset_health

    root = tmp_path / "project"
    drops = {
        "bowl": {"passed": True, "failures": [], "rest_z": 0.0, "tilt_deg": 0.1, "drift": 0.0},
        "duck": {"passed": False, "failures": ["tipped onto another rest: tilted 9.4 deg (max 5.0)"]},
    }
    write_json(root / "assets_built/droptest.json", {"version": 1, "assets": drops})
    for name, hulls in (("bowl", 12), ("duck", 3)):
        write_json(root / f"assets_built/sim/{name}/meta.json", {"hull_count": hulls, "collision_method": "coacd"})
    write_json(root / "assets_built/imported/failed.json", {"version": 1, "failed": {"lamp": "sample.urdf: no mesh"}})
    rows = asset_health(root)
    assert [(r["name"], r["verdict"], r["hulls"]) for r in rows] == [
        ("bowl", "passed", 12),
        ("duck", "FAILED", 3),
        ("lamp", "refused at import", ""),
    ]
    build_report(results_dir, tmp_path / "r", assets=rows)
    html = (tmp_path / "r/index.html").read_text()
    health = html[html.index("id=assets") : html.index("id=choices")]
    assert "2 of 3 assets failed" in health and "tipped onto another rest" in health and "no mesh" in health
    assert asset_health(tmp_path / "nothing_built") is None


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
    assert "<h2 id=backends>The same tasks in each physics engine</h2>" in both
    section = both.split("<h2 id=backends>The same tasks in each physics engine</h2>")[1].split("<h2")[0]
    assert section.count("<tr>") == 1 + 2 * 2 * 2  # header + task x policy x engine
    assert "mujoco 3.3.7" in section and "newton 1.8.0" in section
    assert "each physics engine" not in (tmp_path / "one" / "index.html").read_text()


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
