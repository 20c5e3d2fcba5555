"""The learned baseline (examples/housebench_bc_policy): what its network sees and says is in the robot's base frame,
so a start moved or turned looks the same, and decoding inverts encoding; its training reads an exported dataset
through LeRobot's loader (where LeRobot's environment is, as tests/demos/test_lerobot_load.py)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess

import numpy as np
import pytest
from click.testing import CliRunner

from housebench.cli import main
from housebench.demos.lerobot_v3 import frame_arrays
from housebench.demos.recording import load_recording
from tests.conftest import ROOT

BC_DIR = ROOT / "examples/housebench_bc_policy"


def _features():
    """The package's numpy-only module, loaded from its file: the package itself (torch) is not installed here, and
    putting its folder on the path would show its entry point to every later test."""
    spec = importlib.util.spec_from_file_location("housebench_bc_features", BC_DIR / "housebench_bc/features.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


features = _features()
ACTION_DIMS, CHUNK, INPUT_DIMS = features.ACTION_DIMS, features.CHUNK, features.INPUT_DIMS
decode, encode, inputs = features.decode, features.encode, features.inputs

JOINTS = [f"j{i}" for i in range(8)]
LEROBOT_PYTHON = ROOT / ".venv-lerobot/bin/python"


def world(rng: np.random.Generator) -> dict[str, float]:
    named = {f"joints.{j}": rng.uniform(-1, 1) for j in JOINTS}
    named.update({"base.x": rng.uniform(-5, 5), "base.y": rng.uniform(-5, 5), "base.yaw": rng.uniform(-3, 3)})
    named.update({f"ee_pos.{k}": rng.uniform(-5, 5) for k in "xyz"})
    named["gripper_opening"] = rng.uniform(0, 0.1)
    named.update({f"objects.apple.{k}": rng.uniform(-5, 5) for k in "xyz"})
    quat = rng.normal(size=4)
    named.update(zip((f"objects.apple.{k}" for k in ("qw", "qx", "qy", "qz")), quat / np.linalg.norm(quat)))
    return named


def moved(named: dict[str, float], dx: float, dy: float, turn: float) -> dict[str, float]:
    """The whole world turned by ``turn`` about the origin and shifted by (dx, dy)."""
    c, s = np.cos(turn), np.sin(turn)
    out = dict(named)
    for x, y in (("base.x", "base.y"), ("ee_pos.x", "ee_pos.y"), ("objects.apple.x", "objects.apple.y")):
        out[x], out[y] = c * named[x] - s * named[y] + dx, s * named[x] + c * named[y] + dy
    out["base.yaw"] = named["base.yaw"] + turn
    qw, qz = np.cos(turn / 2), np.sin(turn / 2)  # the yaw quaternion, times the object's
    w, x, y, z = (named[f"objects.apple.{k}"] for k in ("qw", "qx", "qy", "qz"))
    out.update(zip(("objects.apple.qw", "objects.apple.qx", "objects.apple.qy", "objects.apple.qz"),
                   (qw * w - qz * z, qw * x - qz * y, qw * y + qz * x, qw * z + qz * w)))  # fmt: skip
    return out


def actions(named: dict[str, float], rng: np.random.Generator) -> np.ndarray:
    """A chunk of absolute actions near ``named``."""
    a = rng.uniform(-1, 1, size=(CHUNK, ACTION_DIMS))
    a[:, 8], a[:, 9] = named["base.x"] + a[:, 8] * 0.1, named["base.y"] + a[:, 9] * 0.1
    a[:, 10] = named["base.yaw"] + a[:, 10] * 0.2
    return a


def moved_actions(a: np.ndarray, dx: float, dy: float, turn: float) -> np.ndarray:
    """The chunk's base targets moved with the world as :func:`moved` moves it."""
    c, s = np.cos(turn), np.sin(turn)
    out = a.copy()
    out[:, 8], out[:, 9] = c * a[:, 8] - s * a[:, 9] + dx, s * a[:, 8] + c * a[:, 9] + dy
    out[:, 10] = a[:, 10] + turn
    return out


@pytest.mark.parametrize("seed", range(5))
def test_the_inputs_and_targets_are_the_same_for_a_moved_and_turned_start(seed):
    rng = np.random.default_rng(seed)
    named = world(rng)
    dx, dy, turn = rng.uniform(-3, 3), rng.uniform(-3, 3), rng.uniform(-3, 3)
    there = moved(named, dx, dy, turn)
    x = inputs(named, JOINTS, "apple")
    assert x.shape == (INPUT_DIMS,)
    assert np.allclose(x, inputs(there, JOINTS, "apple"), atol=1e-4)
    chunk = actions(named, rng)
    assert np.allclose(
        encode(chunk, named, JOINTS), encode(moved_actions(chunk, dx, dy, turn), there, JOINTS), atol=1e-4
    )


@pytest.mark.parametrize("seed", range(5))
def test_decoding_inverts_encoding(seed):
    rng = np.random.default_rng(seed)
    named = world(rng)
    chunk = actions(named, rng)
    targets = encode(chunk, named, JOINTS)
    assert targets.shape == (CHUNK, ACTION_DIMS)
    for step, target in zip(chunk, targets):
        assert np.allclose(decode(target.astype(np.float64), named, JOINTS), step, atol=1e-5)


def test_training_reads_the_exported_dataset_through_lerobots_loader(recordings, tmp_path):
    if not LEROBOT_PYTHON.exists():
        pytest.skip("no .venv-lerobot (see tests/demos/test_lerobot_load.py's doc)")
    rec = load_recording(recordings[-1])
    command = ["dataset", "export", str(recordings[-1]), "--out", str(tmp_path / "ds"), "--failures"]
    result = CliRunner().invoke(main, command)
    assert result.exit_code == 0, result.output
    item = rec.meta["names"]["objects"][0]
    command = [str(LEROBOT_PYTHON), "-m", "housebench_bc.train", str(tmp_path / "ds" / rec.meta["task"])]
    command += ["--item", item, "--out", str(tmp_path / "bc.pt"), "--steps", "20", "--device", "cpu"]
    env = {**os.environ, "PYTHONPATH": str(BC_DIR)}
    proc = subprocess.run(command, capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["episodes"] == 1 and report["frames"] == len(frame_arrays(rec, "state")["action"])
    assert np.isfinite(report["train_mse"]) and (tmp_path / "bc.pt").stat().st_size > 0
