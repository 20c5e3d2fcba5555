"""The ``--out`` option of every command that writes: the output rule (:func:`housebench.io.check_out`)
applied when click reads the option, before the command does any work.

Every command with an ``--out`` uses :func:`out_option`; ``tests/security/test_every_out.py`` walks the
command tree and fails for one that does not, so a new writer cannot forget the rule. The command then
writes through :func:`housebench.io.atomic_file` or :func:`housebench.io.atomic_dir` (all of it or none).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from housebench.cli.errors import fail
from housebench.io import OutputError, atomic_dir, atomic_file, check_out

FORCE_HELP = "replace --out even if it exists and housebench did not make it"


class OutputPath(click.ParamType):
    """A ``--out`` path checked against the output rule: ``kind`` is ``"file"`` or ``"dir"`` (a folder
    replaced as a whole) or ``"container"`` (a folder written into, whose entries the command guards
    itself); ``into`` is the one project folder the command is meant to write (else none)."""

    name = "path"

    def __init__(self, kind: str, into: str | None = None) -> None:
        assert kind in ("file", "dir", "container"), kind
        self.kind, self.into = kind, into

    def convert(self, value, param, ctx) -> Path:
        force = bool(ctx is not None and ctx.params.get("force"))
        kind = "dir" if self.kind == "container" else self.kind
        try:
            return check_out(Path(value), kind, force=force or self.kind == "container", into=self.into)
        except OutputError as err:  # one line, exit 1, like every other refused output
            raise fail(str(err)) from None


def out_option(kind: str, help: str, into: str | None = None, **options) -> Callable:
    """``--out`` (an :class:`OutputPath`) and, except for a container, an eager ``--force`` flag (read
    before ``--out``, so the rule knows it)."""

    def decorate(command: Callable) -> Callable:
        command = click.option("--out", type=OutputPath(kind, into), help=help, **options)(command)
        if kind != "container":
            command = click.option("--force", is_flag=True, is_eager=True, help=FORCE_HELP)(command)
        return command

    return decorate


@contextmanager
def out_file(out: Path, force: bool) -> Iterator[Path]:
    """:func:`housebench.io.atomic_file` with a refusal as the command's one-line error."""
    try:
        with atomic_file(out, force) as tmp:
            yield tmp
    except OutputError as err:
        raise fail(str(err)) from None


@contextmanager
def out_dir(out: Path, force: bool, protect: Iterable[Path] = ()) -> Iterator[Path]:
    """:func:`housebench.io.atomic_dir` of a guarded folder (marked, never replacing a foreign one unless
    ``force``) with a refusal as the command's one-line error."""
    try:
        with atomic_dir(out, protect, guard=True, force=force) as tmp:
            yield tmp
    except OutputError as err:
        raise fail(str(err)) from None
