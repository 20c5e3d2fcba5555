"""The warm CoACD process: reused between requests, killed on timeout or death, restarted after."""

from __future__ import annotations

import os
import signal

import numpy as np
import pytest
import trimesh

from housebench.assets.coacd_worker import CoacdWorker

RING = trimesh.creation.annulus(r_min=0.03, r_max=0.05, height=0.02, sections=24)
QUICK = {
    "threshold": 0.1,
    "resolution": 100,
    "mcts_nodes": 3,
    "mcts_iterations": 10,
    "mcts_max_depth": 1,
    "max_convex_hull": 8,
    "seed": 0,
}


@pytest.fixture
def worker():
    worker = CoacdWorker()
    yield worker
    worker.close()


def test_one_warm_process_serves_request_after_request(worker):
    first = worker.run(RING.vertices, RING.faces, QUICK, timeout_s=60)
    pid = worker.pid
    second = worker.run(RING.vertices, RING.faces, QUICK, timeout_s=60)
    assert worker.pid == pid and pid != os.getpid()
    assert 1 < len(first) <= 8 and len(first) == len(second)  # a ring is not one convex piece
    assert all(np.array_equal(a[0], b[0]) for a, b in zip(first, second))  # seeded


def test_a_request_past_its_timeout_kills_the_process_and_the_next_starts_fresh(worker):
    worker.run(RING.vertices, RING.faces, QUICK, timeout_s=60)
    hung = worker.pid
    os.kill(hung, signal.SIGSTOP)  # a hang for certain, however fast the machine
    with pytest.raises(TimeoutError):
        worker.run(RING.vertices, RING.faces, QUICK, timeout_s=0.2)
    assert worker.pid is None
    assert worker.run(RING.vertices, RING.faces, QUICK, timeout_s=60) and worker.pid != hung


def test_a_dead_process_is_reported_and_replaced(worker):
    worker.run(RING.vertices, RING.faces, QUICK, timeout_s=60)
    dead = worker.pid
    os.kill(dead, signal.SIGKILL)
    with pytest.raises(ChildProcessError):
        worker.run(RING.vertices, RING.faces, QUICK, timeout_s=60)
    assert worker.run(RING.vertices, RING.faces, QUICK, timeout_s=60) and worker.pid not in (None, dead)
