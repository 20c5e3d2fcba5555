"""Long runs (issue 32), for real: a `dvc repro` killed during the rollout and run again runs only the missing
episodes (it says how many) and writes the tables of an uninterrupted run; Ctrl-C leaves no process behind and
nothing half-written.

The project is a copy of this one (its code, dvc.yaml, params.yaml) with the small build's scenes of a few
variants (:mod:`tests.builtdata`) in place of the stages before the rollout; `dvc repro --single-item rollout` runs
the rollout stage alone, as `dvc repro` runs it."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pyarrow.parquet as pq
import pytest
import yaml

from tests.conftest import ROOT
from tests.test_pipeline import copy_project

VARIANTS = (("put_fruit_in_container", "v000"), ("put_fruit_in_container", "v001"), ("put_fruit_in_container", "v002"))
EPISODES = 2  # per variant: 6 episodes, two at a time
TABLES = ("episodes", "conditions", "events", "choices", "states", "phases")
RUN_ONLY = ("wall_s", "host", "started_at")  # what differs between two runs of the same episode
COUNT = re.compile(r"rollout: (\d+) episodes \((\d+) run, (\d+) from the episode cache\)")


def project(tmp_path: Path) -> Path:
    """A DVC project whose rollout stage has its inputs: the small build's scenes of :data:`VARIANTS`."""
    from tests.builtdata import built

    repo = copy_project(tmp_path / "repo", everything=False)
    layout = built()
    rel = ["scenes/house", "annotations/house.json", "annotations/assets.json", "assets_built/sim"]
    for task, variant in VARIANTS:
        rel += [f"scenes/tasks/{task}/{variant}", f"scenes/settled/{task}/{variant}"]
        rel.append(f"annotations/scenes/{task}__{variant}.json")
    for path in rel:
        source, dest = layout.at(Path(path)), repo / path
        dest.parent.mkdir(parents=True, exist_ok=True)
        (shutil.copytree if source.is_dir() else shutil.copy2)(source, dest)
    params = yaml.safe_load((repo / "params.yaml").read_text())
    params["rollout"] |= {"policies": ["noop"], "episodes_per_variant": EPISODES, "workers": 2}
    (repo / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    return repo


def environment() -> dict:
    venv_bin = str(Path(sys.executable).parent)
    return {
        **os.environ,
        "PATH": os.pathsep.join([venv_bin, os.environ.get("PATH", "")]),
        "PYTHONPATH": str(ROOT),
        "HOUSEBENCH_MJCF_CACHE": str(ROOT / ".cache" / "mjcf"),  # keyed by content: speed, not bytes
    }


def start(repo: Path, *extra: str) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "dvc", "repro", "--single-item", *extra, "rollout"]
    # its own process group, as a terminal's foreground job: Ctrl-C reaches the whole group
    return subprocess.Popen(
        cmd,
        cwd=repo,
        env=environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )


def entries(repo: Path) -> list[Path]:
    return sorted((repo / ".cache/episodes").glob("[!.]*.json"))


def interrupt(proc: subprocess.Popen, repo: Path, at_least: int, sig: int) -> list[int]:
    """Once the cache holds ``at_least`` episodes (workers busy on more), send ``sig``: SIGKILL to dvc alone, SIGINT
    to its process group (Ctrl-C). Returns the pids of dvc's family at that moment."""
    deadline, family = time.monotonic() + 300, []
    while len(entries(repo)) < at_least:
        assert proc.poll() is None, proc.communicate()[0][-3000:]
        assert time.monotonic() < deadline, "the rollout never got that far"
        time.sleep(0.05)
    family = [p.pid for p in psutil.Process(proc.pid).children(recursive=True)]
    if sig == signal.SIGKILL:
        os.kill(proc.pid, sig)
    else:
        os.killpg(proc.pid, sig)
    proc.communicate(timeout=120)
    return family


def gone(pids: list[int], seconds: float = 30) -> list[int]:
    def alive(pid: int) -> bool:
        try:
            return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
        except psutil.NoSuchProcess:
            return False

    deadline = time.monotonic() + seconds
    while (left := [p for p in pids if alive(p)]) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def finish(proc: subprocess.Popen) -> tuple[int, int, int]:
    out = proc.communicate(timeout=600)[0]
    assert proc.returncode == 0, out[-3000:]
    return tuple(int(n) for n in COUNT.search(out).groups())


def tables(repo: Path) -> dict[str, list[dict]]:
    read = {t: pq.read_table(repo / f"results/{t}/run=repro").to_pylist() for t in TABLES}
    return {t: [{k: v for k, v in row.items() if k not in RUN_ONLY} for row in rows] for t, rows in read.items()}


def half_written(repo: Path) -> list[Path]:
    """Temp files and folders of unfinished writes: results partitions, cache entries."""
    return [*repo.glob("results/*/.run=repro.tmp-*"), *(repo / ".cache/episodes").glob(".*")]


@pytest.mark.slow
def test_a_killed_repro_resumes_with_only_the_missing_episodes_and_the_same_tables(tmp_path):
    repo = project(tmp_path)
    total = len(VARIANTS) * EPISODES

    killed = interrupt(start(repo), repo, 1, signal.SIGKILL)  # mid-rollout: one episode kept, two running
    assert killed and not gone(killed), "the stage or its workers outlived the killed dvc repro"
    kept = len(entries(repo))
    assert 1 <= kept < total

    stopped = interrupt(start(repo), repo, kept + 1, signal.SIGINT)  # the resumed run, Ctrl-C'd in its turn
    assert not gone(stopped), "Ctrl-C left a process behind"
    assert not half_written(repo), half_written(repo)
    assert not (repo / "results/episodes/run=repro").exists()  # DVC removed the old output; nothing new half-made
    for entry in entries(repo):
        json.loads(entry.read_text())  # every kept episode whole
    kept = len(entries(repo))
    assert kept < total

    assert finish(start(repo)) == (total, total - kept, kept)  # only the missing episodes ran
    resumed = tables(repo)
    assert len(resumed["episodes"]) == total and all(e["status"] != "crash" for e in resumed["episodes"])

    shutil.move(repo / ".cache/episodes", tmp_path / "kept")  # an uninterrupted run, from an empty cache
    assert finish(start(repo, "--force")) == (total, total, 0)
    assert tables(repo) == resumed
