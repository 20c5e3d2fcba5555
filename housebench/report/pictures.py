"""The report's pictures and their captions: one rule for the DVC stage, the CLI and the nightly flow.

A scene preview ``.../<task>/<variant>/preview.png`` is captioned with its task's instruction and
success rule (from ``tasks/<task>.json``); the house plan and the asset sheet say what they show.

Pictures come only from inside the project folder: ``report.scene_images`` holds glob patterns
relative to it (an absolute pattern or one with ``..`` is refused), a match that resolves outside it
(a symlink) is refused, and every picture must be a PNG of bounded size and pixels, checked before it
is embedded.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from glob import glob
from pathlib import Path, PurePosixPath
from typing import Annotated

from PIL import Image
from pydantic import AfterValidator, Field

from housebench.inputs import MAX_IMAGE, InputError, read_bytes
from housebench.names import check_name
from housebench.params import Section
from housebench.tasks.spec import load_spec

MAX_PIXELS = 4096 * 4096


def _relative_pattern(pattern: str) -> str:
    path = PurePosixPath(pattern)
    if path.is_absolute() or ".." in path.parts or "\\" in pattern:
        raise ValueError(f"{pattern!r} must be a pattern relative to the project folder, without '..'")
    return pattern


class ReportParams(Section):
    """The ``report:`` section of ``params.yaml``."""

    title: str = Field(min_length=1, max_length=200)
    scene_images: list[Annotated[str, AfterValidator(_relative_pattern)]] = Field(max_length=100)
    runs: list[str] = Field(min_length=1, max_length=1000)  # the runs the DVC report covers
    control: Annotated[str, AfterValidator(check_name)]  # the policy every other is set beside


def check_picture(path: Path) -> Path:
    """``path`` if it is a regular PNG file of bounded size and pixels; else ``InputError`` (one line)."""
    data = read_bytes(path, MAX_IMAGE, "picture")
    try:
        with Image.open(io.BytesIO(data)) as image:
            kind, (width, height) = image.format, image.size
    except (OSError, ValueError, Image.DecompressionBombError):
        raise InputError(path, "picture", "not an image") from None
    if kind != "PNG":
        raise InputError(path, "picture", f"a {kind} image; the report embeds PNG")
    if width * height > MAX_PIXELS:
        raise InputError(path, "picture", f"{width}x{height} pixels, over the limit of {MAX_PIXELS}")
    return path


def inside(path: Path, root: Path = Path()) -> Path:
    """``path`` if it resolves inside ``root``; else ``InputError`` (one line)."""
    if not Path(path).resolve().is_relative_to(Path(root).resolve()):
        raise InputError(path, "picture", f"outside the project folder {Path(root).resolve()}")
    return Path(path)


SCENE_PICTURES = {"preview.png": "", "plan.png": " (plan: props in red where they rest)"}
KNOWN = {
    "topdown.png": "Top-down plan of the house: rooms and furniture labelled, the robot start marked",
    "assets.png": "Every built asset: visual mesh beside its collision hulls (drop-test failures marked FAILED)",
}


def caption(path: Path, specs_dir: Path) -> str:
    """What ``path`` shows, in one line."""
    path = Path(path)
    if path.name == "topdown.png" and path.parent.name != "house":  # scenes/house/<id>/topdown.png
        return f"{KNOWN[path.name]}: house {path.parent.name} (README, Many houses)"
    if path.name in KNOWN:
        return KNOWN[path.name]
    scene = path.name in SCENE_PICTURES
    where = "/".join(path.parts[-3:-1] if scene else path.parts[-3:])
    spec_file = Path(specs_dir) / f"{path.parts[-3]}.json" if len(path.parts) >= 3 else None
    if not scene or spec_file is None or not spec_file.is_file():
        return where
    where = f"{where}{SCENE_PICTURES[path.name]}"
    spec = load_spec(spec_file)  # a broken spec is a one-line SpecError, never a silent bare caption
    rule = "; ".join(spec.doc.success) if spec.doc else "see the task's goal"
    return f"{where}: “{spec.instruction}” Success: {rule}."


def report_pictures(patterns: Sequence[str], specs_dir: Path, root: Path = Path()) -> list[tuple[Path, str]]:
    """Every file matching ``patterns`` (globs relative to ``root``), sorted, with its caption; each
    inside ``root``."""
    found = sorted({Path(p) for pattern in map(_relative_pattern, patterns) for p in glob(str(Path(root) / pattern))})
    return [(inside(p, root), caption(p, specs_dir)) for p in found]
