"""The report's pictures: only from inside the project, and only real images.

``report.scene_images`` holds glob patterns relative to the project folder; a pattern that is
absolute or climbs out (``..``) is refused, and so is a match that resolves outside the folder (a
symlink). Every picture must be a PNG of bounded size and pixels, checked before it is embedded.
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
from housebench.params import Section

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


def inside(path: Path, root: Path = Path(".")) -> Path:
    """``path`` if it resolves inside ``root``; else ``InputError`` (one line)."""
    if not Path(path).resolve().is_relative_to(Path(root).resolve()):
        raise InputError(path, "picture", f"outside the project folder {Path(root).resolve()}")
    return Path(path)


def gallery(patterns: Sequence[str], root: Path = Path(".")) -> list[Path]:
    """Every file the relative ``patterns`` match under ``root``, sorted, each inside ``root``."""
    found = {Path(p) for pattern in map(_relative_pattern, patterns) for p in glob(pattern, root_dir=root)}
    return [inside(Path(root) / p, root) for p in sorted(found)]
