"""Atomic outputs and canonical JSON: a failed stage leaves no half-written file or folder, and an
output never replaces what housebench did not create."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from housebench.names import printable

MARK = ".housebench-output"  # written into a guarded output folder: housebench made it, may replace it
XATTR = "user.housebench-output"  # set on an output file: housebench made it, may replace it
# The project's own folders: a command's --out never points into them (DVC stages write there, through
# their own code, and a stray file would break the next stage or every query). The project is the
# nearest folder with a dvc.yaml above the working folder, and the checkout housebench runs from.
PROJECT_FOLDERS = (
    ".dvc",
    ".git",
    "annotations",
    "assets",
    "assets_built",
    "assets_raw",
    "bench",
    "flows",
    "housebench",
    "notebooks",
    "results",
    "scenes",
    "stages",
    "tasks",
    "tests",
)


class OutputError(ValueError):
    """An output place that must not be written or replaced; the message is one line naming it."""


def check_output(target: Path, protect: Iterable[Path] = (), guard: bool = False, force: bool = False) -> None:
    """Refuse ``target`` as an output folder when it is the filesystem root, the working folder or one
    of its ancestors, or contains (or is) a ``protect`` path; with ``guard``, also an existing folder
    that is not empty and was not made by housebench (no :data:`MARK`), unless ``force``."""
    where = Path(target).resolve()
    cwd = Path.cwd().resolve()
    if where == cwd or where in cwd.parents:
        raise OutputError(f"{target}: output: the working folder or one of its ancestors; choose a new folder")
    for path in protect:
        if Path(path).resolve().is_relative_to(where):
            raise OutputError(f"{target}: output: would replace {path}; choose a new folder")
    if where.exists() and not where.is_dir():
        raise OutputError(f"{target}: output: exists and is not a folder")
    if guard and not force and foreign(where):
        raise OutputError(f"{target}: output: exists and was not made by housebench (--force replaces it)")


def project_roots() -> list[Path]:
    """The project folders an output must stay out of (see :data:`PROJECT_FOLDERS`)."""
    cwd = Path.cwd().resolve()
    here = next((p for p in (cwd, *cwd.parents) if (p / "dvc.yaml").is_file()), None)
    checkout = Path(__file__).resolve().parents[1]
    return sorted({p for p in (here, checkout if (checkout / "dvc.yaml").is_file() else None) if p})


def check_out(target: Path, kind: str, force: bool = False, into: str | None = None) -> Path:
    """The output rule of every command that writes (its ``--out``). ``target`` (a ``"file"`` or a
    ``"dir"``) is refused when it is ``.``/``..``, the working folder or an ancestor, a symlink (an
    output never goes through a link; ``force`` replaces the link itself), the project root or inside
    one of its :data:`PROJECT_FOLDERS` (but ``into``, the one project folder the command is meant to
    write), or when it exists and is of the wrong kind or was not made by housebench (unless ``force``).
    Returns ``target``; one-line :class:`OutputError` otherwise."""
    target = Path(target)
    shown = printable(str(target))
    if not str(target) or target.name in ("", ".", ".."):
        raise OutputError(f"{shown}: output: names no new {'file' if kind == 'file' else 'folder'}")
    if target.is_symlink() and not force:
        raise OutputError(f"{shown}: output: a symlink (never written through; --force replaces the link itself)")
    where = target.resolve()
    cwd = Path.cwd().resolve()
    if where == cwd or where in cwd.parents:
        raise OutputError(f"{shown}: output: the working folder or one of its ancestors; choose a new one")
    for root in project_roots():
        if where == root or root in where.parents and where.relative_to(root).parts[0] in PROJECT_FOLDERS:
            if into is None or not where.is_relative_to(root / into):
                part = where.relative_to(root).parts[:1] if where != root else ()
                raise OutputError(f"{shown}: output: inside the project's own {'/'.join(part) or 'root'} folder")
    if kind == "dir":
        if where.exists() and not where.is_dir():
            raise OutputError(f"{shown}: output: exists and is not a folder")
        if not force and foreign(where):
            raise OutputError(f"{shown}: output: exists and was not made by housebench (--force replaces it)")
    else:
        _check_file(target, force)
    return target


def _check_file(target: Path, force: bool) -> None:
    shown = printable(str(target))
    if target.is_symlink() and not force:
        raise OutputError(f"{shown}: output: a symlink (never written through; --force replaces the link itself)")
    if not target.is_symlink() and target.exists() and not target.is_file():
        raise OutputError(f"{shown}: output: exists and is not a regular file")
    if not force and target.is_file() and not made_here(target):
        raise OutputError(f"{shown}: output: exists and was not made by housebench (--force replaces it)")


def made_here(path: Path) -> bool:
    """Whether the file ``path`` carries :data:`XATTR` (housebench wrote it; a copy does not)."""
    try:
        return os.getxattr(path, XATTR, follow_symlinks=False) == b"1"
    except OSError:  # no such attribute, or a file system without user attributes
        return False


@contextmanager
def atomic_file(target: Path, force: bool = False) -> Iterator[Path]:
    """Yield a temp file path beside ``target`` (same suffix, so writers that go by it pick the format);
    on success it replaces ``target`` (marked :data:`XATTR`), on error it vanishes. ``target`` passes the
    file rule of :func:`check_out` (its project-folder part is the CLI's); a symlink at ``target`` is
    refused, or with ``force`` replaced by the file, never written through."""
    target = Path(target)
    _check_file(target, force)
    target.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temps(target)
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.tmp-{os.getpid()}-", suffix=target.suffix, dir=target.parent)
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        tmp.chmod(0o644)
        try:
            os.setxattr(tmp, XATTR, b"1")
        except OSError:  # no user attributes here: the next run needs --force to replace it
            pass
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def foreign(target: Path) -> bool:
    """Whether ``target`` is a folder with content that housebench did not make (no :data:`MARK`)."""
    target = Path(target)
    return target.is_dir() and not (target / MARK).is_file() and any(target.iterdir())


def _remove(path: Path) -> None:
    """Remove a folder, or the symlink itself where ``path`` is one (never what it points at)."""
    if path.is_symlink() or path.is_file():
        path.unlink()
    else:
        shutil.rmtree(path, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_stale_temps(target: Path) -> list[Path]:
    """Remove the temp folders of :func:`atomic_dir` beside ``target`` left by killed runs (their
    process is gone); returns what was removed."""
    target = Path(target)
    stale = []
    for path in target.parent.glob(f".{target.name}.tmp-*"):
        pid = path.name.removeprefix(f".{target.name}.tmp-").split("-")[0]
        if pid.isdigit() and not _alive(int(pid)):
            _remove(path)
            stale.append(path)
    return stale


@contextmanager
def atomic_dir(target: Path, protect: Iterable[Path] = (), guard: bool = False, force: bool = False) -> Iterator[Path]:
    """Yield a temp dir beside ``target``; on success it replaces ``target``, on error it vanishes.

    ``target`` passes :func:`check_output` first; a guarded output gets :data:`MARK`, so a later
    guarded run may replace it. Temp folders of killed runs beside ``target`` are removed."""
    target = Path(target)
    check_output(target, protect, guard, force)
    target.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temps(target)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.tmp-{os.getpid()}-", dir=target.parent))
    old = target.with_name(f".{target.name}.tmp-{os.getpid()}-old")
    try:
        yield tmp
        if guard:
            (tmp / MARK).write_text("made by housebench; replaced by the next run that writes here\n")
        tmp.chmod(0o755)
        if target.exists() or target.is_symlink():
            target.rename(old)
        try:
            tmp.rename(target)
        except OSError:
            if old.exists() or old.is_symlink():
                old.rename(target)
            raise
    finally:
        _remove(tmp)
        _remove(old)


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
