"""Atomic outputs and canonical JSON: a failed stage leaves no half-written file or folder."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


@contextmanager
def atomic_dir(target: Path) -> Iterator[Path]:
    """Yield a temp dir beside ``target``; on success it replaces ``target``, on error it vanishes."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        yield tmp
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    old = target.with_name(f".{target.name}.old")
    if target.exists():
        shutil.rmtree(old, ignore_errors=True)
        target.rename(old)
    tmp.chmod(0o755)
    tmp.rename(target)
    shutil.rmtree(old, ignore_errors=True)


def r6(value: float) -> float:
    """Round to a micrometre; ``+ 0.0`` turns -0.0 into 0.0 (byte-stable output)."""
    return round(float(value), 6) + 0.0


def r6s(values: Iterable[float]) -> tuple[float, ...]:
    """:func:`r6` of each value."""
    return tuple(map(r6, values))


def dumps_json(data: Any) -> str:
    """Canonical JSON: sorted keys, two-space indent, trailing newline (same data, same bytes)."""
    return json.dumps(data, indent=2, sort_keys=True, allow_nan=False) + "\n"


def write_json(path: Path, data: Any) -> None:
    """Write canonical JSON atomically (temp file + rename)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(dumps_json(data))
    os.replace(tmp, path)
