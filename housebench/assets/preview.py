"""Contact sheets of built assets: many pictures in a labelled grid, one colour per collision hull.

The pictures themselves (visual mesh beside hulls) come from a simulator backend
(:mod:`housebench.sim.asset_preview`); a whole asset set can then be checked at a glance.
"""

from __future__ import annotations

import colorsys
from collections.abc import Iterable

import numpy as np
from PIL import Image, ImageDraw

LABEL_HEIGHT = 18  # pixels under each picture for the asset's name


def hull_colour(index: int) -> list[float]:
    """A distinct opaque RGBA per hull (golden-ratio hues)."""
    return [*colorsys.hsv_to_rgb((index * 0.618034) % 1.0, 0.65, 0.95), 1.0]


FAILED_RED = (200, 0, 0)


def contact_sheet(pictures: dict[str, np.ndarray], columns: int = 4, failed: Iterable[str] = ()) -> Image.Image:
    """The pictures in a grid of ``columns`` columns, each labelled with its name; a ``failed`` one
    (e.g. its drop test) is framed in red and labelled ``<name> FAILED`` on a red strip."""
    failed = set(failed)
    height, width = next(iter(pictures.values())).shape[:2]
    rows = -(-len(pictures) // columns)
    sheet = Image.new("RGB", (columns * width, rows * (height + LABEL_HEIGHT)), "white")
    draw = ImageDraw.Draw(sheet)
    for k, (name, picture) in enumerate(pictures.items()):
        x, y = (k % columns) * width, (k // columns) * (height + LABEL_HEIGHT)
        sheet.paste(Image.fromarray(picture), (x, y))
        if name in failed:
            draw.rectangle((x, y + height, x + width - 1, y + height + LABEL_HEIGHT - 1), fill=FAILED_RED)
            draw.rectangle((x, y, x + width - 1, y + height - 1), outline=FAILED_RED, width=3)
            draw.text((x + 4, y + height + 3), f"{name} FAILED", fill="white")
        else:
            draw.text((x + 4, y + height + 3), name, fill="black")
    return sheet
