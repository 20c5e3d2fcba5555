"""Running one per-asset step over many assets, across cores: one bad asset never stops the others.

The whole output folder is written atomically; each asset's subfolder is built in place and removed
again if its step fails. ``failed.json`` beside the subfolders lists every failure with its reason.
With ``workers > 1`` the steps run in a pool of fresh (spawned) processes, so ``step`` must be
picklable (a module-level function, or a ``functools.partial`` of one); results do not depend on
the number of workers. A worker that dies outright (a crash in native code, ``os._exit``) breaks the
pool: the steps it left unfinished run again, each in a process of its own, so only the culprit
fails. (``workers: 1`` runs in the calling process, without that protection.)
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from housebench.assets.errors import AssetError
from housebench.io import atomic_dir, write_json
from housebench.names import name_problem
from housebench.procs import die_with_parent
from housebench.progress import Progress

Step = Callable[[str, Path], Any]


def asset_dirs(root: Path) -> list[str]:
    """Names of the asset subfolders of ``root`` (hidden entries and files skipped), sorted."""
    return sorted(p.name for p in Path(root).iterdir() if p.is_dir() and not p.name.startswith("."))


def _attempt(step: Step, name: str, folder: Path) -> tuple[bool, Any]:
    """``(True, result)`` or ``(False, reason)``; a failed asset's folder is removed."""
    try:
        return True, step(name, folder)
    except Exception as err:  # noqa: BLE001 -- any failure is recorded, the batch goes on
        shutil.rmtree(folder)
        return False, str(err) if isinstance(err, AssetError) else f"{type(err).__name__}: {err}"


def _spawned(workers: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(
        workers, mp_context=get_context("spawn"), initializer=die_with_parent, initargs=(os.getpid(),)
    )


def _alone(step: Step, name: str, folder: Path) -> tuple[bool, Any]:
    """:func:`_attempt` again from an empty folder, in a process of its own."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    with _spawned(1) as pool:
        try:
            return pool.submit(_attempt, step, name, folder).result()
        except BrokenProcessPool:
            shutil.rmtree(folder, ignore_errors=True)
            return False, "the process building it died (a crash in native code?)"


def _outcomes(step: Step, jobs: list[tuple[str, Path]], workers: int, bar: Progress) -> list[tuple[bool, Any]]:
    if workers <= 1 or len(jobs) <= 1:
        outcomes = []
        for name, folder in jobs:
            outcomes.append(_attempt(step, name, folder))
            bar.update()
        return outcomes
    with _spawned(min(workers, len(jobs))) as pool:
        futures = [pool.submit(_attempt, step, name, folder) for name, folder in jobs]
        for _ in as_completed(futures):
            bar.update()  # a step that broke the pool counts too: it runs again alone below
    broken = [k for k, future in enumerate(futures) if isinstance(future.exception(), BrokenProcessPool)]
    outcomes = {k: future.result() for k, future in enumerate(futures) if k not in broken}
    with ThreadPoolExecutor(workers) as threads:
        outcomes.update(zip(broken, threads.map(lambda k: _alone(step, *jobs[k]), broken)))
    return [outcomes[k] for k in range(len(jobs))]


def run_each(
    names: list[str], out_root: Path, step: Step, workers: int = 1, stage: str | None = None
) -> tuple[dict[str, Any], dict[str, str]]:
    """Call ``step(name, out_root/name)`` for every name on up to ``workers`` processes; returns
    the results of the steps that worked and the failures (name -> reason), both in name order. A
    name that breaks the name rule (:mod:`housebench.names`) fails without a folder. The progress display
    names ``stage`` (default: ``out_root``'s name)."""
    done: dict[str, Any] = {}
    failed = {name: f"asset folder name: {problem}" for name in names if (problem := name_problem(name))}
    for name, reason in failed.items():
        print(f"{name}: FAILED: {reason}", file=sys.stderr)
    with atomic_dir(out_root) as tmp:
        jobs = [(name, tmp / name) for name in names if name not in failed]
        for _, folder in jobs:
            folder.mkdir()
        with Progress(stage or Path(out_root).name, len(jobs), "asset") as bar:
            outcomes = _outcomes(step, jobs, workers, bar)
        for (name, _), (ok, value) in zip(jobs, outcomes):
            if ok:
                done[name] = value
            else:
                failed[name] = value
                print(f"{name}: FAILED: {value}", file=sys.stderr)
        write_json(tmp / "failed.json", {"version": 1, "failed": dict(sorted(failed.items()))})
    return done, dict(sorted(failed.items()))


def exit_code(names: list[str], failed: dict[str, str], strict: bool = False) -> int:
    """1 when nothing was built, or when ``strict`` and anything failed; else 0."""
    return int(not names or len(failed) == len(names) or (strict and bool(failed)))
