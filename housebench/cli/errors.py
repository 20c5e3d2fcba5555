"""The one-line error of a command: what it echoes from input (a name, a path) with control characters
escaped, so an ESC sequence cannot clear the terminal and a newline cannot split the line."""

from __future__ import annotations

import click

from housebench.names import printable

MAX_LINE = 1000  # characters of one error line


def fail(message: str) -> click.ClickException:
    """The :class:`click.ClickException` (exit 1) of ``message``, escaped."""
    return click.ClickException(printable(str(message), MAX_LINE))


def exit_bad_input(message: str) -> None:
    """Print ``message`` escaped on stderr and exit 2 (bad input, for ``task``/``skill``/``evaluate``)."""
    click.echo(printable(str(message), MAX_LINE), err=True)
    raise SystemExit(2)
