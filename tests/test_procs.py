"""Interrupted runs leave nothing running (issue 16): workers die with the process that started
them, however it is killed, and a stage re-run after a kill gives the same bytes."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from tests.conftest import ROOT

ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def sleepy_step(name: str, out: Path) -> None:
    """A batch step that announces its worker's pid, then works for two minutes."""
    (out.parents[1] / "pids" / name).write_text(str(os.getpid()))
    time.sleep(120)


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _wait_gone(pids: list[int], seconds: float = 15) -> list[int]:
    deadline = time.monotonic() + seconds
    while (alive := [p for p in pids if _alive(p)]) and time.monotonic() < deadline:
        time.sleep(0.1)
    return alive


def _kill_when(parent: subprocess.Popen, ready, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not ready():
        assert parent.poll() is None, parent.communicate()
        assert time.monotonic() < deadline, "the run never got going"
        time.sleep(0.1)
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait()


def test_batch_workers_die_with_their_parent(tmp_path):
    (tmp_path / "pids").mkdir()
    code = (
        "from housebench.assets.batch import run_each; from tests.test_procs import sleepy_step\n"
        f"run_each(['a', 'b'], {str(tmp_path / 'out')!r}, sleepy_step, workers=2)\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", code], env=ENV, cwd=tmp_path)
    _kill_when(parent, lambda: len(list((tmp_path / "pids").iterdir())) == 2)
    workers = [int(p.read_text()) for p in (tmp_path / "pids").iterdir()]
    assert not _wait_gone(workers), "batch workers outlived the killed parent"


def test_a_busy_coacd_worker_dies_with_its_parent(tmp_path):
    code = (
        "import threading, time, trimesh; from housebench.assets.coacd_worker import WORKER\n"
        "mesh = trimesh.creation.torus(0.3, 0.1, 256, 128)  # slow to decompose at this resolution\n"
        "kwargs = {'threshold': 0.01, 'resolution': 8000, 'mcts_iterations': 500, 'mcts_nodes': 40}\n"
        "threading.Thread(target=WORKER.run, args=(mesh.vertices, mesh.faces, kwargs, 600), daemon=True).start()\n"
        "while WORKER.pid is None: time.sleep(0.05)\n"
        "time.sleep(2); print(WORKER.pid, flush=True); time.sleep(600)\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", code], env=ENV, cwd=tmp_path, stdout=subprocess.PIPE, text=True)
    worker = int(parent.stdout.readline())
    assert psutil.Process(worker).cpu_percent(interval=0.5) > 10  # busy decomposing, not idle
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait()
    assert not _wait_gone([worker]), "the CoACD worker outlived its parent"


def _import_workspace(root: Path) -> None:
    from housebench.assets.standins import generate

    (root / "assets").mkdir(parents=True)
    shutil.copy(ROOT / "assets/specs.yaml", root / "assets/specs.yaml")
    shutil.copy(ROOT / "params.yaml", root / "params.yaml")
    generate(("apple", "bowl", "mug", "pen", "book", "plate"), root / "assets_raw", seed=0)


@pytest.mark.slow
def test_a_killed_stage_leaves_nothing_running_and_reruns_byte_identically(tmp_path):
    from housebench.hashing import tree_hash

    killed, clean = tmp_path / "killed", tmp_path / "clean"
    for root in (killed, clean):
        _import_workspace(root)
    stage = [sys.executable, "-m", "stages.import_assets"]
    parent = subprocess.Popen(stage, env=ENV, cwd=killed, stderr=subprocess.DEVNULL)
    built = killed / "assets_built"
    family: list[int] = []

    def working() -> bool:  # an asset half-built in the stage's temp folder, by its workers
        family[:] = [p.pid for p in psutil.Process(parent.pid).children(recursive=True)]
        return bool(family) and any(built.glob(".imported.tmp-*/*/visual.obj"))

    _kill_when(parent, working)
    assert not _wait_gone(family), "the stage's workers outlived it"
    assert list(built.glob(".imported.tmp-*"))  # the killed run's temp folder ...
    for root in (killed, clean):
        subprocess.run(stage, env=ENV, cwd=root, check=True, capture_output=True, timeout=600)
    assert not list(built.glob(".imported.tmp-*"))  # ... is gone after the re-run
    assert tree_hash(built / "imported") == tree_hash(clean / "assets_built/imported")
