"""Provenance of a result row: which code, scene and assets produced it."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from housebench.hashing import file_hash, text_hash, tree_hash


def code_commit(root: Path = Path(".")) -> str:
    """The git commit of the code (``HOUSEBENCH_COMMIT`` overrides; ``unknown`` outside git)."""
    if os.environ.get("HOUSEBENCH_COMMIT"):
        return os.environ["HOUSEBENCH_COMMIT"]
    proc = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=False)
    return proc.stdout.strip() if proc.returncode == 0 else "unknown"


def scene_hash(house_usd: Path, task_dir: Path, settled_dir: Path) -> str:
    """One hash over the layers that compose a settled scene: house, task layer, rest poses."""
    parts = [file_hash(house_usd), tree_hash(task_dir), tree_hash(settled_dir)]
    return text_hash("\n".join(parts))


def assets_hash(assets_dir: Path, names: list[str]) -> str:
    """One hash over the built assets a scene uses."""
    return text_hash("\n".join(f"{n}:{tree_hash(assets_dir / n)}" for n in sorted(set(names))))
