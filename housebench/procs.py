"""Processes that die with their parent: an interrupted run leaves nothing running.

:func:`die_with_parent` asks Linux (``prctl(PR_SET_PDEATHSIG)``) to kill the calling process when
the process (strictly: the thread) that started it ends. Stage processes call it first (their parent
is ``dvc repro``, the Prefect task or the shell), and every worker process calls it as it starts
(asset pools, the CoACD worker, rollout pools), so killing ``dvc repro`` takes the stage and its
workers with it however it is killed.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int | None = None, sig: int = signal.SIGKILL) -> None:
    """Have this process receive ``sig`` when its parent ends (Linux; elsewhere nothing happens).

    ``parent``: the pid of the process that started this one. A worker gets it from its starter (as
    ``initargs=(os.getpid(),)``), so a parent that died while the worker was still starting up is
    noticed too: the worker then ends at once instead of working on for nobody."""
    if not sys.platform.startswith("linux"):
        return
    parent = os.getppid() if parent is None else parent
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
    if os.getppid() != parent:  # the parent ended before the request was in place
        os.kill(os.getpid(), sig)
