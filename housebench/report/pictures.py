"""The report's pictures and their captions: one rule for the DVC stage, the CLI and the nightly flow.

A scene preview ``.../<task>/<variant>/preview.png`` is captioned with its task's instruction and
success rule (from ``tasks/<task>.json``); the house plan and the asset sheet say what they show.
"""

from __future__ import annotations

from collections.abc import Sequence
from glob import glob
from pathlib import Path

from housebench.tasks.spec import load_spec

KNOWN = {
    "topdown.png": "Top-down plan of the house: rooms, furniture and doors labelled",
    "assets.png": "Every built asset: visual mesh beside its collision hulls (drop-test failures marked FAILED)",
}


def caption(path: Path, specs_dir: Path) -> str:
    """What ``path`` shows, in one line."""
    path = Path(path)
    if path.name in KNOWN:
        return KNOWN[path.name]
    where = "/".join(path.parts[-3:-1] if path.name == "preview.png" else path.parts[-3:])
    spec_file = Path(specs_dir) / f"{path.parts[-3]}.json" if len(path.parts) >= 3 else None
    if path.name != "preview.png" or spec_file is None or not spec_file.is_file():
        return where
    spec = load_spec(spec_file)  # a broken spec is a one-line SpecError, never a silent bare caption
    rule = "; ".join(spec.doc.success) if spec.doc else "see the task's goal"
    return f"{where}: “{spec.instruction}” Success: {rule}."


def report_pictures(patterns: Sequence[str], specs_dir: Path, root: Path = Path()) -> list[tuple[Path, str]]:
    """Every file matching ``patterns`` (globs relative to ``root``), sorted, with its caption."""
    found = sorted({Path(p) for pattern in patterns for p in glob(str(Path(root) / pattern))})
    return [(p, caption(p, specs_dir)) for p in found]
