"""Content hashes for provenance and caches, and the one size bound of those caches (least recently used
entries pruned first)."""

from __future__ import annotations

import ast
import hashlib
from pathlib import Path


def file_hash(path: Path) -> str:
    """SHA-256 of one file's bytes, hex."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def tree_hash(root: Path) -> str:
    """SHA-256 over every file below ``root`` (relative path + bytes), in sorted order."""
    root = Path(root)
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(file_hash(path).encode())
    return digest.hexdigest()


def text_hash(text: str) -> str:
    """SHA-256 of a string's UTF-8 bytes, hex."""
    return hashlib.sha256(text.encode()).hexdigest()


PACKAGE_ROOT = Path(__file__).resolve().parent  # housebench/


def _source(module: str, root: Path) -> Path | None:
    """The file of a module or package of the package at ``root`` (None: not one of its modules)."""
    parts = module.split(".")
    if parts[0] != root.name:
        return None
    base = root.joinpath(*parts[1:])
    return next((p for p in (base.with_suffix(".py"), base / "__init__.py") if p.is_file()), None)


def module_files(module: str, root: Path = PACKAGE_ROOT) -> list[Path]:
    """The source files of ``module`` and of every module of the same package (at ``root``) that it
    imports, transitively (imports inside functions included), found by reading the sources, never
    by importing them."""
    seen: set[Path] = set()
    todo = [module]
    while todo:
        path = _source(todo.pop(), root)
        if path is None or path in seen:
            continue
        seen.add(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                todo += [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                todo += [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
    return sorted(seen)


def code_hash(module: str, root: Path = PACKAGE_ROOT) -> str:
    """SHA-256 over the source of ``module`` and the package code it imports (:func:`module_files`)."""
    digest = hashlib.sha256()
    for path in module_files(module, root):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(file_hash(path).encode())
    return digest.hexdigest()


def prune_cache(root: Path, pattern: str, max_bytes: int, keep: Path | None = None) -> list[Path]:
    """Remove the least recently used files of ``root`` matching ``pattern`` (oldest modification time first; a
    cache touches an entry on each hit), never ``keep``, until at most ``max_bytes`` remain; the removed
    files. The rule of every bounded cache here (compiled models, finished episodes)."""
    entries = []
    for path in Path(root).glob(pattern):
        try:
            stat = path.stat()
        except FileNotFoundError:  # another process pruned it
            continue
        entries.append((stat.st_mtime, stat.st_size, path))
    total, removed = sum(size for _, size, _ in entries), []
    for _, size, path in sorted(entries):
        if total <= max_bytes:
            break
        if path == keep:
            continue
        path.unlink(missing_ok=True)
        total -= size
        removed.append(path)
    return removed
