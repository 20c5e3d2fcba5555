"""Every path a command or the Python API reads is a regular file inside its place (issue 33): a FIFO
never hangs ``scene state``; task and variant names that are paths are refused by ``make_env``, ``episode
video`` and the layout they share; error lines echo names with control characters escaped."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from housebench.cli import main
from housebench.paths import Layout
from tests.conftest import ROOT

HOSTILE = ["/etc", "../../outside", "clear_shelf/../../x", "..", "a\x1b[2Jb"]


def test_scene_state_on_a_fifo_is_refused_not_waited_on(tmp_path):
    fifo = tmp_path / "scene.usda"
    os.mkfifo(fifo)
    proc = subprocess.run(
        [sys.executable, "-m", "housebench", "scene", "state", str(fifo), "--out", str(tmp_path / "s.json")],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1 and "scene.usda: file: not a regular file" in proc.stderr, proc.stderr
    assert not (tmp_path / "s.json").exists()


@pytest.mark.parametrize("task", HOSTILE)
def test_the_layout_refuses_task_names_that_are_paths(task):
    for where in (Layout().task_dir, Layout().settled_scene, Layout().scene_annotations):
        with pytest.raises(ValueError, match="^task: .* (is not a name|characters long)"):
            where(task, "v000")
    with pytest.raises(ValueError, match="^variant: "):
        Layout().settled_scene("clear_shelf", "../v000")


@pytest.mark.parametrize("task", HOSTILE[:3])
def test_make_env_refuses_a_task_outside_the_layout(task):
    from housebench.rollout.gym_env import make_env

    with pytest.raises(ValueError, match="^task: "):
        make_env(task, render_mode=None)


def test_episode_video_refuses_a_task_outside_the_layout(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["episode", "video", "/etc", "v000", "--out", "e.mp4"])
    assert result.exit_code == 2 and "task: '/etc' is not a name" in result.output, result.output
    assert not (tmp_path / "e.mp4").exists()


@pytest.mark.parametrize(
    "args",
    [
        ["task", "validate", "{bad}"],
        ["skill", "validate", "{bad}", "--annotations", "{bad}"],
        ["scene", "check", "{bad}"],
        ["scene", "render", "{bad}", "--out", "ok.png"],
        ["evaluate", "--task", "{bad}", "--state", "{bad}"],
        ["results", "state", "--results", "{bad}", "--run", "repro", "--out", "st", "x"],
    ],
    ids=lambda args: " ".join(args[:2]),
)
def test_error_lines_escape_control_characters(tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    bad = str(tmp_path / "a\x1b[2J\nb.json")
    result = CliRunner().invoke(main, [a.replace("{bad}", bad) for a in args])
    assert result.exit_code in (1, 2) and result.output.count("\n") == 1, repr(result.output)
    assert "\x1b" not in result.output and "\\x1b[2J\\nb.json" in result.output, repr(result.output)
