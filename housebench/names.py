"""The one name rule for tasks, task objects, place aliases and asset folders.

A name is a whole-string match of :data:`PATTERN` (letters, digits, single underscores; no ``__``,
which joins a task and its variant in file names), at most :data:`MAX_LEN` characters (so every
file name built from two names and a temp suffix stays well under the 255 bytes a file system
holds), and not one of the :data:`RESERVED` words that housebench gives a meaning of its own.
"""

from __future__ import annotations

import re

MAX_LEN = 64
PATTERN = r"[A-Za-z][A-Za-z0-9]*(_[A-Za-z0-9]+)*"
RESERVED = frozenset({"all", "any", "house", "robot", "failed", "none", "null", "true", "false"})
_NAME = re.compile(PATTERN)


def name_problem(name: object) -> str | None:
    """Why ``name`` is not a valid name, or None when it is."""
    if not isinstance(name, str):
        return f"{name!r} is not a string"
    if len(name) > MAX_LEN:
        return f"{name[:20]!r}... is {len(name)} characters long (at most {MAX_LEN})"
    if not _NAME.fullmatch(name):
        return f"{name!r} is not a name (letters, digits and single underscores, starting with a letter)"
    if name.lower() in RESERVED:
        return f"{name!r} is a reserved name ({', '.join(sorted(RESERVED))})"
    return None


def check_name(name: object) -> str:
    """``name`` if valid, else ``ValueError`` with the reason (pydantic reports it at the key)."""
    problem = name_problem(name)
    if problem:
        raise ValueError(problem)
    return name  # type: ignore[return-value]


def printable(text: str, limit: int = 200) -> str:
    """``text`` safe to echo in a one-line error: control characters (an ESC sequence, a newline) escaped, at
    most ``limit`` characters."""
    out = "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in str(text))
    return out if len(out) <= limit else out[: limit - 3] + "..."
