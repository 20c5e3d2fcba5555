"""Local worker processes that survive a worker's death: the episode it was running is retried once on another
worker, then becomes a crash row naming the death.

``multiprocessing.Pool`` waits forever for a result whose worker was killed, and ``ProcessPoolExecutor`` breaks
every pending job without saying whose worker died. Here each worker runs one job at a time over its own pipe, so
the parent knows which job a dead worker held (its process sentinel fires) and starts a fresh worker in its place.
Workers are spawned (a fresh interpreter, never a forked copy of a live GL or simulator context), die with the
parent (:func:`housebench.procs.die_with_parent`) and ignore Ctrl-C: the terminal's SIGINT reaches the parent,
which stops them (``finally``), so an interrupted run leaves no process and no half-sent result behind.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection, wait
from typing import Any

from housebench.procs import die_with_parent

ATTEMPTS = 2  # runs of a job whose worker dies: the first and one retry on another worker
STOP_S = 10.0  # seconds a stopping worker gets before it is killed


def _serve(conn: Connection, parent: int, fn: Callable[[Any], Any]) -> None:
    """A worker: run ``fn`` on each job the parent sends, send back its result, until told to stop (None)."""
    die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it stops us
    while (item := conn.recv()) is not None:
        index, job = item
        conn.send((index, fn(job)))


class _Worker:
    def __init__(self, ctx, fn: Callable[[Any], Any]) -> None:
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_serve, args=(child, os.getpid(), fn), daemon=True)
        self.proc.start()
        child.close()
        self.index: int | None = None  # the job it runs now

    def give(self, index: int, jobs: Sequence[Any]) -> None:
        """Hand it ``jobs[index]``; a worker that died while idle takes it anyway: its sentinel gives it back."""
        self.index = index
        try:
            self.conn.send((index, jobs[index]))
        except OSError:
            pass

    def stop(self) -> None:
        try:
            self.conn.send(None)
        except OSError:  # already gone
            pass

    def end(self) -> bool:
        """Wait for it to end (killed after :data:`STOP_S`); False, for filtering it out of the pool."""
        self.proc.join(STOP_S)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join()
        self.conn.close()
        return False


def death(proc: multiprocessing.Process) -> str:
    """How a worker process ended, for the crash row: ``killed by SIGKILL`` or ``exit code 3``."""
    code = proc.exitcode
    if code is not None and code < 0:
        return f"killed by {signal.Signals(-code).name}"
    return f"exit code {code}"


def run_jobs(
    jobs: Sequence[Any], fn: Callable[[Any], Any], workers: int, on_lost: Callable[[Any, str], Any]
) -> Iterator[tuple[int, Any]]:
    """``(index, fn(jobs[index]))`` for every job, as each finishes, over ``workers`` spawned processes. A job whose
    worker dies runs again on a fresh worker; after :data:`ATTEMPTS` deaths its result is ``on_lost(job, reason)``."""
    ctx = multiprocessing.get_context("spawn")
    todo: deque[int] = deque(range(len(jobs)))
    deaths = [0] * len(jobs)
    pool: list[_Worker] = []
    try:
        while todo or any(w.index is not None for w in pool):
            pool = [w for w in pool if w.index is not None or w.proc.is_alive() or w.end()]
            while todo and len(pool) < workers:
                pool.append(_Worker(ctx, fn))
            for worker in pool:
                if worker.index is None and todo:
                    worker.give(todo.popleft(), jobs)
            busy = [w for w in pool if w.index is not None]
            ready = set(wait([w.conn for w in busy] + [w.proc.sentinel for w in busy]))
            for worker in busy:
                if worker.conn not in ready and worker.proc.sentinel not in ready:
                    continue
                index, answer = worker.index, _answer(worker)
                worker.index = None
                if answer is not None:
                    yield index, answer
                    continue
                deaths[index] += 1
                reason = f"worker process {worker.proc.pid} died ({death(worker.proc)}) running the episode"
                if deaths[index] < ATTEMPTS:
                    todo.appendleft(index)  # retried first, by another (fresh) worker
                else:
                    yield index, on_lost(jobs[index], f"{reason}, {ATTEMPTS} times")
    finally:
        for worker in pool:  # idle ones finish cleanly; busy ones (an interrupted run) are killed now
            if worker.index is None:
                worker.stop()
            else:
                worker.proc.kill()
        for worker in pool:
            worker.end()


def _answer(worker: _Worker) -> Any | None:
    """The worker's result, or None when it died without one."""
    try:
        if worker.conn.poll():
            return worker.conn.recv()[1]
    except (EOFError, OSError):
        pass
    worker.proc.join(STOP_S)  # its sentinel fired, or its pipe broke: it is gone or going
    return None
