"""Reading input files: regular files of bounded size, text decoded as UTF-8 whatever the locale.

A FIFO, a device (``/dev/zero``), a folder or a file over its limit is refused with one line naming
the file, before anything large is read; a FIFO is opened without blocking, so it never hangs.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from housebench.names import printable

MB = 1 << 20
MAX_JSON = 64 * MB  # task specs, variants, states, annotations
MAX_YAML = 1 * MB  # params.yaml, assets/specs.yaml
MAX_URDF = 1 * MB
MAX_MESH = 128 * MB  # OBJ, GLB, MTL
MAX_IMAGE = 64 * MB  # textures, report pictures
MAX_USD = 512 * MB  # a USD layer named on the command line


class InputError(ValueError):
    """A bad input file; ``str()`` is the one line ``<file>: <field>: <reason>``."""

    def __init__(self, file: Path | str, field: str, reason: str) -> None:
        self.file, self.field, self.reason = str(file), field, reason
        super().__init__(f"{printable(str(file))}: {field}: {reason}")  # a file name may hold an ESC or a newline


def _open(path: Path, limit: int, field: str) -> int:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise InputError(path, field, "not found") from None
    except OSError as err:
        raise InputError(path, field, err.strerror or type(err).__name__) from None
    info = os.fstat(fd)
    reason = None
    if not stat.S_ISREG(info.st_mode):
        reason = "not a regular file"
    elif info.st_size > limit:
        reason = f"{info.st_size} bytes, over the limit of {limit}"
    if reason:
        os.close(fd)
        raise InputError(path, field, reason)
    return fd


def check_file(path: Path, limit: int, field: str = "file") -> Path:
    """``path`` if it is a regular file of at most ``limit`` bytes (for readers that open it themselves)."""
    os.close(_open(Path(path), limit, field))
    return Path(path)


def read_bytes(path: Path, limit: int, field: str = "file") -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes."""
    with os.fdopen(_open(Path(path), limit, field), "rb") as file:
        data = file.read(limit + 1)
    if len(data) > limit:  # grew since it was checked
        raise InputError(path, field, f"over the limit of {limit} bytes")
    return data


def read_text(path: Path, limit: int, field: str = "file") -> str:
    """:func:`read_bytes` decoded as UTF-8."""
    data = read_bytes(path, limit, field)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise InputError(path, field, f"not UTF-8 text (byte {err.start})") from None
