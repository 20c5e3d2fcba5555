"""LeRobot's own loader opens the exported dataset and reads the recorded frames back.

LeRobot (torch, Python >= 3.12) lives in its own environment, ``.venv-lerobot`` at the repository root
(``python3.12 -m venv .venv-lerobot && .venv-lerobot/bin/pip install "lerobot[dataset]"``); the check runs
there as a separate process (``housebench/demos/check_lerobot.py``), or in this process where lerobot is
importable. Without either, the test skips, saying so."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import numpy as np
import pytest
from click.testing import CliRunner

from housebench.cli import main
from housebench.demos.lerobot_v3 import frame_arrays
from housebench.demos.recording import load_recording
from tests.conftest import ROOT

CHECK = ROOT / "housebench/demos/check_lerobot.py"
LEROBOT_PYTHON = ROOT / ".venv-lerobot/bin/python"


def lerobot_check(datasets: list) -> list[dict]:
    """What LeRobot reads from each of ``datasets`` (one process: torch is imported once)."""
    if importlib.util.find_spec("lerobot") is not None:
        python = sys.executable
    elif LEROBOT_PYTHON.exists():
        python = str(LEROBOT_PYTHON)
    else:
        pytest.skip("lerobot is not installed here nor in .venv-lerobot (see this module's doc)")
    proc = subprocess.run([python, str(CHECK), *map(str, datasets)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return [json.loads(line) for line in proc.stdout.strip().splitlines()[-len(datasets) :]]


def test_lerobots_loader_reads_the_recorded_frames(recordings, tmp_path):
    command = ["dataset", "export", *map(str, recordings), "--out", str(tmp_path / "ds"), "--failures"]
    result = CliRunner().invoke(main, command)
    assert result.exit_code == 0, result.output
    recs = [load_recording(path) for path in recordings]
    for rec, loaded in zip(recs, lerobot_check([tmp_path / "ds" / rec.meta["task"] for rec in recs])):
        expected = frame_arrays(rec, "state")
        frames = len(expected["action"])
        assert (loaded["episodes"], loaded["frames"]) == (1, frames)
        assert loaded["fps"] == round(1 / (rec.meta["control_dt"] * ((rec.meta["images"] or {}).get("every", 1))))
        episode = loaded["per_episode"][0]
        assert episode["length"] == frames and episode["done"] and episode["success"] == rec.success
        assert episode["task"] == rec.meta["instruction"]
        for key, values in expected.items():
            assert np.array_equal(np.array(episode["first"][key], dtype=np.float32), values[0]), key
            assert np.array_equal(np.array(episode["last"][key], dtype=np.float32), values[-1]), key
        assert episode["subtasks"], "the skill labels arrive as LeRobot subtask rows"
        assert set(loaded["stats_keys"]) >= set(expected)
        assert loaded["batch"]["action"] == [4, 10, 12], "a batch of 10-step action chunks, as lerobot-train draws"
        if rec.meta["images"]:
            width, height = rec.meta["images"]["size"]
            assert episode["images"] == {"observation.images.head": [3, height, width]}
