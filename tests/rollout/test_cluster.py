"""A real Ray cluster (issue 32): a head node and worker nodes that cannot see the repository (no housebench to
import, and, where the machine allows it, the checkout's folder an empty tmpfs for them); the driver ships the code
(``py_modules``) and each episode's scene, asset and task files (the object store). The batch's tables equal a local
run's but for what differs between two runs of one episode, and every episode ran on a worker node."""

from __future__ import annotations

import dataclasses
import os
import signal
import threading
import time

import pytest

from housebench.rollout.batch import run_batch
from housebench.rollout.cluster import RayParams
from housebench.rollout.records import records
from tests.conftest import ROOT, built_job
from tests.raycluster import LocalCluster

RUN_ONLY = ("wall_s", "host", "started_at")  # what differs between two runs of the same episode
KILL_WAIT_S = 120.0  # for an episode to start on the node to kill

pytest.importorskip("ray")


def cluster_jobs() -> list:
    """Two tasks' noop episodes and one scripted episode that succeeds (a verdict worth comparing)."""
    return [
        built_job("put_fruit_in_container", "v000", "noop", horizon_s=5.0),
        built_job("chill_drink", "v000", "noop", horizon_s=5.0),
        dataclasses.replace(built_job("put_fruit_in_container", "v000", "scripted", horizon_s=120.0), seed=1),
    ]


def rows(outcomes) -> dict[str, list[dict]]:
    tables = records(outcomes)
    return {t: [{k: v for k, v in row.items() if k not in RUN_ONLY} for row in rs] for t, rs in tables.items()}


def test_worker_nodes_without_the_repository_run_the_batch_as_a_local_run_does():
    jobs = cluster_jobs()
    local = run_batch(jobs, "local", workers=1, progress=False)
    assert not [o.crash for o in local if o.crash]
    with LocalCluster(workers=2) as cluster:
        seen = cluster.drive(jobs, RayParams(address=cluster.address))
        left = cluster.stop()
    workers, outcomes = seen["workers"], seen["outcomes"]
    assert len(workers) == 2
    for node in seen["bare"]:
        assert node["housebench"] is None, node  # the worker node's Python has no housebench of its own
        assert not node["cwd"].startswith(str(ROOT)), node
        if cluster.hidden:
            assert node["repo"] in (None, []), node  # the checkout's folder is empty there
    for node in seen["shipped"]:  # the rollout's job: the shipped package, unpacked on the node
        assert node["housebench"] and not node["housebench"].startswith(str(ROOT)), node
    assert not [o.crash for o in outcomes if o.crash]
    assert {o.node for o in outcomes} <= workers and all(o.node for o in outcomes)
    assert [o.job for o in outcomes] == jobs  # the rows name the project's paths, not the node's copies
    assert [o.verdict.success for o in outcomes] == [o.verdict.success for o in local] == [False, False, True]
    assert rows(outcomes) == rows(local)
    assert left == []  # every node's processes ended with the node


def test_a_lost_worker_nodes_episodes_run_again_on_another():
    """A worker node killed (SIGKILL to its processes) while it runs an episode: Ray runs that episode again on the
    node left, and the batch's tables equal a local run's."""
    jobs = cluster_jobs()[2:] * 2  # two scripted episodes of several seconds each, one per node
    local = run_batch(jobs, "local", workers=1, progress=False)
    with LocalCluster(workers=2) as cluster:
        victim_name, victim, _ = cluster.nodes[-1]
        files = cluster.root / victim_name / "tmp" / "housebench-ray-files"  # made when an episode starts there
        killed = threading.Event()

        def kill_once_busy() -> None:
            deadline = time.monotonic() + KILL_WAIT_S
            while not files.exists() and time.monotonic() < deadline:
                time.sleep(0.2)
            if files.exists():
                time.sleep(1.0)  # into the episode, not its set-up
                os.killpg(victim.pid, signal.SIGKILL)
                killed.set()

        killer = threading.Thread(target=kill_once_busy)
        killer.start()
        seen = cluster.drive(jobs, RayParams(address=cluster.address))
        killer.join()
        cluster.stop()
    assert killed.is_set(), "no episode started on the node to kill"
    outcomes = seen["outcomes"]
    assert not [o.crash for o in outcomes if o.crash]
    assert len({o.node for o in outcomes}) == 1  # both ended on the node left
    assert rows(outcomes) == rows(local)
