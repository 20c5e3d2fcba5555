"""Shared fixtures: a real Prefect server on loopback, the repository root, and episode jobs on the small
built data of :mod:`tests.builtdata` (the pipeline's own stages on the variants the tests name)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

# MuJoCo picks its GL backend at first import: offscreen EGL (Mesa on the CPU) for every test.
os.environ.setdefault("MUJOCO_GL", "egl")

ROOT = Path(__file__).resolve().parents[1]


def _uses_built_data(item: pytest.Item) -> bool:
    """Whether a test asks for the small build: its fixture, or its module holds one of its helpers."""
    if "built_layout" in getattr(item, "fixturenames", ()):
        return True
    module = getattr(item, "module", None)
    helpers = (getattr(module, name, None) for name in ("built", "built_job", "built_episode"))
    return any(getattr(h, "__module__", None) in ("tests.builtdata", "tests.conftest") for h in helpers)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Build the small data before the first test, outside every test's timeout, when a selected test uses
    it (with the slow pairs when a selected slow test does); a failed build fails those tests, saying why."""
    users = [item for item in session.items if _uses_built_data(item)]
    if not users:
        return
    from tests import builtdata

    try:
        layout, seconds = builtdata.prepare(slow=any(item.get_closest_marker("slow") for item in users))
    except builtdata.BuildError:
        return
    session.config.stash[BUILT_KEY] = f"small built data: {layout.root.name} ready in {seconds:.1f} s ({layout.root})"


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    if BUILT_KEY in config.stash:
        terminalreporter.write_line(f"tests/builtdata.py: {config.stash[BUILT_KEY]}")


BUILT_KEY = pytest.StashKey[str]()


@pytest.fixture(scope="session")
def built_layout():
    """The small build of :mod:`tests.builtdata` (its default pairs), as a ``Layout``; built once."""
    from tests.builtdata import built

    return built()


def built_job(task: str, variant: str, policy: str, horizon_s: float, pose_noise_m: float = 0.002):
    """An episode job on the small build's scene of ``task/variant`` (a pair listed in tests/builtdata.py)."""
    from housebench.rollout.episode import EpisodeJob
    from tests.builtdata import built

    layout = built(task, variant)
    return EpisodeJob(
        run="test",
        task=task,
        variant=variant,
        seed=0,
        policy=policy,
        backend="mujoco",
        scene=layout.settled_scene(task, variant),
        task_file=layout.task_dir(task, variant) / "task.json",
        annotations=layout.scene_annotations(task, variant),
        horizon_s=horizon_s,
        control_dt=0.1,
        pose_noise_m=pose_noise_m,
    )


def built_episode(task: str, variant: str, horizon_s: float):
    """An opened, reset noop episode on a built scene, its skill context and first observation."""
    from housebench.skills.base import SkillContext

    episode = built_job(task, variant, "noop", horizon_s=horizon_s).open()
    obs = episode.reset(0)
    return episode, SkillContext(task=episode.task, scene=episode.scene, control_dt=0.1, initial=obs.state), obs


def run_skill(episode, ctx, obs, skill):
    """Drive ``skill`` in ``episode`` until it (or the episode) ends: its failure (None) and the last observation."""
    from housebench.skills.drive import Stepper, tried

    runner = Stepper(tried(skill, ctx, obs))
    while (action := runner.step(obs)) is not None and not episode.done:
        obs = episode.step(action)
    assert runner.done, f"the episode's horizon ended before {skill.name} did"
    return runner.result[0], obs


class _Stop(Exception):
    """The played flow reached the skill it was played up to."""


class Played:
    """A flow's skills played without physics: each one is recorded and its outcome is ``outcome(skill, obs)``
    (default: done, the observation unchanged); with ``until``, the flow stops at the first skill of that type."""

    def __init__(self, outcome=None, until: str | None = None) -> None:
        self.skills, self.outcome, self.until = [], outcome or (lambda skill, obs: (None, obs)), until

    def __call__(self, skill, obs):
        self.skills.append(skill)
        if type(skill).__name__ == self.until:
            raise _Stop
        return self.outcome(skill, obs)
        yield  # a generator that yields no action: no physics runs

    def play(self, brain, obs) -> list:
        """Run ``brain`` (a script or an appliance flow whose skills this plays) to its end or to ``until``:
        the skills it chose."""
        try:
            for _ in brain.run(obs):
                raise AssertionError("a played flow asked for an action")
        except _Stop:
            pass
        return self.skills


PREFECT_QUIET = {
    "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    "DO_NOT_TRACK": "1",
    "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "90",
    "PREFECT_LOGGING_LEVEL": "WARNING",
}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def prefect_server(tmp_path_factory) -> dict[str, str]:
    """Start ``prefect server start`` on 127.0.0.1; yield the environment that points at it."""
    home = tmp_path_factory.mktemp("prefect-home")
    port = _free_port()
    env = {**os.environ, **PREFECT_QUIET, "PREFECT_HOME": str(home), "PREFECT_API_URL": f"http://127.0.0.1:{port}/api"}
    log = (home / "server.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "prefect", "server", "start", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 120
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=2)
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail(f"prefect server did not start: {(home / 'server.log').read_text()[-2000:]}")
            time.sleep(1)
    yield env
    proc.terminate()
    proc.wait(timeout=30)
    log.close()
