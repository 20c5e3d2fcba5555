"""Content hashes for provenance and caches."""

from __future__ import annotations

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
