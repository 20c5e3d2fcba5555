"""Running one per-asset step over many assets: one bad asset never stops the others.

The whole output folder is written atomically; each asset's subfolder is built in place and removed
again if its step fails. ``failed.json`` beside the subfolders lists every failure with its reason.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from housebench.assets.errors import AssetError
from housebench.io import atomic_dir, write_json


def asset_dirs(root: Path) -> list[str]:
    """Names of the asset subfolders of ``root`` (hidden entries and files skipped), sorted."""
    return sorted(p.name for p in Path(root).iterdir() if p.is_dir() and not p.name.startswith("."))


def run_each(names: Iterable[str], out_root: Path, step: Callable[[str, Path], None]) -> dict[str, str]:
    """Call ``step(name, out_root/name)`` for every name; returns the failures (name -> reason)."""
    failed: dict[str, str] = {}
    with atomic_dir(out_root) as tmp:
        for name in names:
            folder = tmp / name
            folder.mkdir()
            try:
                step(name, folder)
            except Exception as err:  # noqa: BLE001 -- any failure is recorded, the batch goes on
                shutil.rmtree(folder)
                failed[name] = str(err) if isinstance(err, AssetError) else f"{type(err).__name__}: {err}"
                print(f"{name}: FAILED: {failed[name]}", file=sys.stderr)
        write_json(tmp / "failed.json", {"version": 1, "failed": failed})
    return failed


def exit_code(names: list[str], failed: dict[str, str], strict: bool = False) -> int:
    """1 when nothing was built, or when ``strict`` and anything failed; else 0."""
    return int(not names or len(failed) == len(names) or (strict and bool(failed)))
