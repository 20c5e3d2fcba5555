"""The command line: every area is reachable and documented from `housebench --help`."""

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from housebench.cli import main

AREAS = ["asset", "evaluate", "report", "results", "scene", "task"]


def test_help_lists_every_area():
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    listed = [line.split()[0] for line in result.output.split("Commands:")[1].strip().splitlines()]
    assert listed == AREAS


@pytest.mark.parametrize("area", AREAS)
def test_every_area_has_help(area):
    result = CliRunner().invoke(main, [area, "--help"])
    assert result.exit_code == 0 and "Usage:" in result.output


@pytest.mark.parametrize("command", [[str(Path(sys.executable).parent / "housebench")],
                                     [sys.executable, "-m", "housebench"]], ids=["script", "module"])
def test_console_script_runs(command):
    proc = subprocess.run([*command, "--version"], capture_output=True, text=True)
    assert proc.returncode == 0 and "housebench, version" in proc.stdout
