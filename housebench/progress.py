"""One progress display for every long stage: the stage's name, items done of the total, the rate and the time
left, drawn by tqdm on stderr. Inside a Prefect flow or task run (a flow calls the stage's function), the same
figures also go to a progress artifact of that run: the Prefect UI shows its percentage, and the display's line as
its description. Outside a run nothing talks to Prefect: no client, no server (a process that never imported
``prefect`` cannot be in a run, and this module does not import it then: the only Prefect in the library).

    with Progress("settle", total=len(variants), unit="scene") as bar:
        for task, variant in variants:
            ...
            bar.write(f"settle {task}/{variant}: passed")  # a line above the bar, the bar kept
            bar.update()

or ``for item in track(items, "annotate", unit="scene")``.
"""

from __future__ import annotations

import re
import sys
import time
import warnings
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

from tqdm import tqdm

LOG_EVERY_S = 30.0  # off a terminal (a log file, the rebuild flow's captured output): a line at most this often
PREFECT_EVERY_S = 5.0  # at most one artifact update per this many seconds (and always one at the end)
LINE = "{desc}: {n_fmt}/{total_fmt} {unit} [{elapsed}<{remaining}, {rate_fmt}]"  # the display without its bar

T = TypeVar("T")


def run_context() -> Any | None:
    """The running Prefect task run's context, else the flow run's, else None."""
    if "prefect" not in sys.modules:  # never imported here: no flow is running in this process
        return None
    from prefect.context import FlowRunContext, TaskRunContext

    return TaskRunContext.get() or FlowRunContext.get()


def artifact_key(stage: str) -> str:
    """``housebench-<stage>``, as Prefect's artifact keys must be: lowercase letters, digits and dashes."""
    return "housebench-" + (re.sub(r"[^a-z0-9]+", "-", stage.lower()).strip("-") or "stage")


class Progress:
    """``stage``: ``done`` of ``total`` ``unit`` (``done`` counts work finished before this run, such as episodes
    from the cache: the rate and the time left count only what runs now). ``display=False`` hides the terminal
    bar (a flow's log); the Prefect artifact follows the run context either way."""

    def __init__(self, stage: str, total: int, unit: str = "item", done: int = 0, display: bool = True):
        self.stage, self.total, self.unit, self.initial, self.n = stage, total, unit, done, done
        self.start = time.monotonic()
        tty = sys.stderr.isatty()
        self.bar = tqdm(
            total=total,
            initial=done,
            desc=stage,
            unit=unit,
            disable=not display,
            file=sys.stderr,
            mininterval=0.1 if tty else LOG_EVERY_S,
            dynamic_ncols=tty,
        )
        self.artifact = None
        if run_context() is not None:
            from prefect.artifacts import create_progress_artifact

            self.artifact = create_progress_artifact(
                progress=self.percent(), key=artifact_key(stage), description=self.line()
            )
        self.sent = time.monotonic()

    def line(self) -> str:
        """``stage: n/total unit [elapsed<left, rate]``: tqdm's own figures, without the bar."""
        elapsed = time.monotonic() - self.start
        return tqdm.format_meter(
            self.n, self.total, elapsed, prefix=self.stage, unit=self.unit, bar_format=LINE, initial=self.initial
        )

    def percent(self) -> float:
        return 100.0 * self.n / self.total if self.total else 100.0

    def update(self, n: int = 1) -> None:
        self.n += n
        self.bar.update(n)
        self._report(final=False)

    def write(self, text: str) -> None:
        """A line of output (stdout) above the bar, the bar redrawn under it."""
        self.bar.write(text, file=sys.stdout)

    def close(self) -> None:
        self.bar.close()
        self._report(final=True)
        self.artifact = None

    def _report(self, final: bool) -> None:
        """The artifact brought up to date: at most every :data:`PREFECT_EVERY_S`, and at the end. A failing API
        call warns once and stops the updates; the stage goes on."""
        if self.artifact is None or not (final or time.monotonic() - self.sent >= PREFECT_EVERY_S):
            return
        from prefect.artifacts import update_progress_artifact

        try:
            update_progress_artifact(artifact_id=self.artifact, progress=self.percent(), description=self.line())
        except Exception as err:  # noqa: BLE001 -- the UI's progress is not worth a failed stage
            warnings.warn(f"{self.stage}: the Prefect progress artifact is no longer updated: {err}", stacklevel=3)
            self.artifact = None
        self.sent = time.monotonic()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def track(items: Iterable[T], stage: str, unit: str = "item", display: bool = True) -> Iterator[T]:
    """Each of ``items``, counted done once the loop body that received it has finished."""
    items = list(items)
    with Progress(stage, len(items), unit, display=display) as bar:
        for item in items:
            yield item
            bar.update()
