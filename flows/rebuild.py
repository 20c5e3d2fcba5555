"""Rebuild flow: every DVC stage of ``dvc.yaml`` as a Prefect task, run in DAG order.

DVC decides what is stale (an up-to-date stage costs a second); Prefect adds retries, per-stage logs
and run history. Stages run one at a time: DVC holds a repository lock during ``repro``, and each
stage already spreads its own work across the cores.

    python -m flows.rebuild [--root .] [STAGE ...]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import networkx as nx
from prefect import flow, get_run_logger, task

from housebench.progress import track


def stage_order(root: Path) -> list[str]:
    """Names of the stages of ``dvc.yaml`` under ``root``, dependencies first."""
    from dvc.repo import Repo

    with Repo(str(root)) as repo:
        graph = repo.index.graph  # edges point from a stage to the stages it depends on
        order = list(reversed(list(nx.lexicographical_topological_sort(graph, key=lambda s: s.name))))
        return [stage.name for stage in order]


@task(retries=2, retry_delay_seconds=5, task_run_name="dvc repro {stage}")
def repro_stage(stage: str, root: str) -> str:
    """``dvc repro --single-item <stage>`` in ``root``; its output goes to the task's log."""
    logger = get_run_logger()
    # stage commands call `python`: make it this interpreter, whatever the caller's PATH says
    env = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])}
    proc = subprocess.run(
        [sys.executable, "-m", "dvc", "repro", "--single-item", stage],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    for line in (proc.stdout + proc.stderr).splitlines():
        if line.strip():
            logger.info(line)
    if proc.returncode:
        last = (proc.stderr.strip() or proc.stdout.strip() or "no output").splitlines()[-1]
        raise RuntimeError(f"dvc repro {stage} failed (exit {proc.returncode}): {last}")
    return stage


@flow(name="housebench-rebuild", log_prints=True)
def rebuild(root: str = ".", stages: list[str] | None = None) -> list[str]:
    """Reproduce ``stages`` (default: all) of the DVC pipeline in ``root``, in DAG order."""
    order = stage_order(Path(root))
    unknown = sorted(set(stages or ()) - set(order))
    if unknown:
        raise ValueError(f"{root}/dvc.yaml: unknown stage(s) {', '.join(unknown)}")
    chosen = [name for name in order if not stages or name in stages]
    return [repro_stage(name, str(Path(root).resolve())) for name in track(chosen, "rebuild", "stage")]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("stages", nargs="*", help="stages to reproduce (default: all)")
    parser.add_argument("--root", default=".", help="the DVC project (default: current directory)")
    args = parser.parse_args(argv)
    rebuild(root=args.root, stages=args.stages or None)


if __name__ == "__main__":
    main()
