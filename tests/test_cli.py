"""The command line: every area is reachable and documented from `housebench --help`."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from housebench.cli import main
from tests.conftest import ROOT

AREAS = ["asset", "dataset", "episode", "evaluate", "policy", "report", "results", "rollout", "scene", "skill", "task"]


def test_help_lists_every_area():
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    listed = [line.split()[0] for line in result.output.split("Commands:")[1].strip().splitlines()]
    assert listed == AREAS


@pytest.mark.parametrize("area", AREAS)
def test_every_area_has_help(area):
    result = CliRunner().invoke(main, [area, "--help"])
    assert result.exit_code == 0 and "Usage:" in result.output


@pytest.mark.parametrize(
    "command",
    [[str(Path(sys.executable).parent / "housebench")], [sys.executable, "-m", "housebench"]],
    ids=["script", "module"],
)
def test_console_script_runs(command):
    proc = subprocess.run([*command, "--version"], capture_output=True, text=True)
    assert proc.returncode == 0 and "housebench, version" in proc.stdout


def test_asset_import_with_a_bad_params_file_is_one_line(tmp_path):
    (tmp_path / "params.yaml").write_text("collision:\n  bogus: 1\n")
    result = CliRunner().invoke(
        main,
        [
            "asset",
            "import",
            str(ROOT / "assets_raw/apple/result"),
            "--out",
            str(tmp_path / "out"),
            "--params",
            str(tmp_path / "params.yaml"),
        ],
    )
    assert result.exit_code != 0 and not (tmp_path / "out").exists()
    assert f"{tmp_path / 'params.yaml'}: collision.bogus: unknown key" in str(result.exception or result.output)


HEAVY = ("trimesh", "pymeshlab", "pxr", "mujoco", "coacd", "manifold3d", "gymnasium")
LOADED_BY_HELP = """
import sys
from click.testing import CliRunner
from housebench.cli import main
result = CliRunner().invoke(main, sys.argv[1:] + ["--help"])
assert result.exit_code == 0, result.output
print(" ".join(sorted({m.split(".")[0] for m in sys.modules} & set(sys.argv[0].split(",")))))
"""


@pytest.mark.parametrize("area", [[], *([a] for a in AREAS)])
def test_help_imports_no_mesh_usd_or_simulator_library(area):
    """`housebench [area] --help` starts without the heavy libraries (a fresh process for each)."""
    out = subprocess.run(
        [sys.executable, "-c", LOADED_BY_HELP.replace("sys.argv[0]", repr(",".join(HEAVY))), *area],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.strip() == "", f"housebench {' '.join(area)} --help imported {out.strip()}"


@pytest.mark.parametrize("stage", ["house", "droptest", "settle"])
def test_rendering_stage_imports_no_simulator_before_choosing_gl(stage):
    """MuJoCo reads ``MUJOCO_GL`` once, at its first import: a stage that renders must not import it
    before its ``main`` calls ``use_offscreen_gl`` (else `dvc repro` without MUJOCO_GL set cannot render)."""
    code = f"import sys, stages.{stage}; print('mujoco' in sys.modules)"
    env = {k: v for k, v in os.environ.items() if k != "MUJOCO_GL"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False", f"stages.{stage} imports mujoco at import time"
