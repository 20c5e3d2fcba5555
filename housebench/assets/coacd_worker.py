"""CoACD in a warm worker process of its own.

CoACD can crash or hang on hostile meshes, so it never runs in the caller's process. Starting a
fresh Python with numpy and CoACD costs about 0.15 s, as much as a whole small decomposition, so
one worker stays up and serves request after request over a pipe. A request that runs past its
timeout, or a worker that dies, kills the worker and raises; the next request starts a fresh one.
"""

from __future__ import annotations

import os
from multiprocessing import get_context
from multiprocessing.connection import Connection

import numpy as np

from housebench.procs import die_with_parent

Mesh = tuple[np.ndarray, np.ndarray]


def _serve(conn: Connection, parent: int) -> None:
    """The worker's loop: ``(vertices, faces, kwargs)`` in, ``coacd.run_coacd``'s hulls out."""
    import coacd

    die_with_parent(parent)
    coacd.set_log_level("error")
    while True:
        try:
            vertices, faces, kwargs = conn.recv()
        except EOFError:
            return
        parts = coacd.run_coacd(coacd.Mesh(vertices, faces), **kwargs)
        conn.send([(np.asarray(v, float), np.asarray(f, np.int64)) for v, f in parts])


class CoacdWorker:
    """A lazily started CoACD process; :meth:`run` is ``coacd.run_coacd`` with a timeout."""

    def __init__(self) -> None:
        self._process = None
        self._conn: Connection | None = None

    def run(self, vertices: np.ndarray, faces: np.ndarray, kwargs: dict, timeout_s: float) -> list[Mesh]:
        """The hulls, or ``TimeoutError`` / ``ChildProcessError`` (the worker is then gone)."""
        if self._process is None:
            context = get_context("spawn")
            self._conn, child = context.Pipe()
            self._process = context.Process(target=_serve, args=(child, os.getpid()), daemon=True)
            self._process.start()
            child.close()
        try:
            self._conn.send((np.asarray(vertices, float), np.asarray(faces, np.int64), kwargs))
            done = self._conn.poll(timeout_s)
            hulls = self._conn.recv() if done else None
        except (EOFError, OSError) as err:
            self.close()
            raise ChildProcessError("the CoACD process died") from err
        if not done:
            self.close()
            raise TimeoutError(f"CoACD ran over {timeout_s} s")
        return hulls

    @property
    def pid(self) -> int | None:
        """The worker's process id while it is up."""
        return self._process.pid if self._process is not None else None

    def close(self) -> None:
        """Stop the worker (a running request is abandoned)."""
        if self._process is not None:
            self._process.kill()
            self._process.join()
            self._conn.close()
            self._process = self._conn = None


WORKER = CoacdWorker()  # one per process; started on first use
