"""A house's looks: its style (drawn from the house's seed), the tileable textures of its surfaces, generated
with numpy, and which surface every box of the house shows.

A style names, for each textured surface class (floor, wall, ceiling, wood, fabric, counter), a pattern, two
colours (sRGB, as MuJoCo and the PNGs take them) the pattern mixes and the size in metres of one tile of the
texture. Every texture is periodic in both directions (noise is made periodic by filtering white noise in the
Fourier domain; boards, tiles and threads repeat a whole number of times), so tiles meet without a seam. Boxes
of the appliances, the bathroom fixtures, the television and the handles keep their flat colour.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

Colour = tuple[float, float, float]
SURFACES = ("floor", "wall", "ceiling", "wood", "fabric", "counter")  # the textured classes, in a fixed order
FABRIC_OWNERS = ("sofa", "armchair", "bed")
COUNTER_OWNERS = ("counter", "kitchen_island")
FLAT_OWNERS = ("fridge", "microwave", "stove", "bathtub", "toilet", "sink")  # keep their display colour
FLAT_NAMES = ("tv",)  # ... and these owners by their exact name (the tv stand is wood)
STYLE_SALT = 3101  # keeps the style's draw apart from the layout's, which uses the bare seed
BOARDS = 6  # planks across one floor tile
BOARD_SEAMS = 2  # seams along one board per tile
TILES = 2  # ceramic tiles across one floor tile
GROUT = 0.04  # grout width, a fraction of one ceramic tile
THREADS = 16  # threads across one fabric tile
GRAIN_RINGS = 5.0  # growth rings across one wood tile


@dataclass(frozen=True)
class Finish:
    """One surface class of a style: ``pattern`` mixes ``dark`` into ``light``; one tile spans ``tile_m``."""

    pattern: str
    light: Colour
    dark: Colour
    tile_m: float


def _style(floor: Finish, wall: Colour, wood: tuple[Colour, Colour], fabric: Colour, counter: Colour) -> dict:
    def shade(c: Colour, by: float) -> Colour:
        return tuple(round(v * by, 3) for v in c)  # type: ignore[return-value]

    return {
        "floor": floor,
        "wall": Finish("plaster", wall, shade(wall, 0.85), 1.5),
        "ceiling": Finish("plaster", (0.95, 0.95, 0.93), (0.85, 0.85, 0.83), 1.5),
        "wood": Finish("grain", *wood, 0.6),
        "fabric": Finish("weave", fabric, shade(fabric, 0.7), 0.2),
        "counter": Finish("speckle", counter, shade(counter, 0.6), 0.5),
    }


# style -> surface class -> finish
STYLES: dict[str, dict[str, Finish]] = {
    "oak": _style(
        Finish("planks", (0.78, 0.6, 0.4), (0.58, 0.4, 0.24), 1.2),
        (0.93, 0.9, 0.84),
        ((0.74, 0.55, 0.34), (0.55, 0.38, 0.22)),
        (0.4, 0.48, 0.6),
        (0.7, 0.7, 0.68),
    ),
    "walnut": _style(
        Finish("planks", (0.48, 0.32, 0.2), (0.3, 0.19, 0.11), 1.2),
        (0.88, 0.83, 0.74),
        ((0.45, 0.3, 0.19), (0.28, 0.17, 0.1)),
        (0.45, 0.5, 0.3),
        (0.35, 0.34, 0.33),
    ),
    "nordic": _style(
        Finish("planks", (0.9, 0.84, 0.74), (0.76, 0.68, 0.56), 1.2),
        (0.88, 0.89, 0.9),
        ((0.88, 0.8, 0.66), (0.72, 0.62, 0.48)),
        (0.7, 0.7, 0.72),
        (0.92, 0.92, 0.9),
    ),
    "cottage": _style(
        Finish("tiles", (0.76, 0.45, 0.3), (0.55, 0.3, 0.2), 0.6),
        (0.95, 0.91, 0.8),
        ((0.8, 0.62, 0.4), (0.62, 0.44, 0.26)),
        (0.65, 0.25, 0.22),
        (0.82, 0.76, 0.66),
    ),
    "tiled": _style(
        Finish("tiles", (0.82, 0.82, 0.8), (0.6, 0.6, 0.6), 0.8),
        (0.8, 0.87, 0.9),
        ((0.7, 0.52, 0.33), (0.5, 0.35, 0.21)),
        (0.2, 0.45, 0.48),
        (0.2, 0.2, 0.22),
    ),
}


def surface_of(box_name: str) -> str | None:
    """The textured class a house box shows (by its owner), or None for a flat-coloured one."""
    owner = box_name.split("/")[0]
    if box_name.endswith("/handle") or owner.startswith(FLAT_OWNERS) or owner in FLAT_NAMES:
        return None
    if owner == "floor":
        return "floor"
    if owner == "walls":
        return "wall"
    if owner.startswith(FABRIC_OWNERS):
        return "fabric"
    if owner.startswith(COUNTER_OWNERS):
        return "counter"
    return "wood"


def house_style(seed: int, styles: list[str]) -> str:
    """The style of the house with ``seed``, drawn from ``styles`` (same seed and list, same style)."""
    return styles[int(np.random.default_rng([STYLE_SALT, seed]).integers(len(styles)))]


def _noise(rng: np.random.Generator, px: int, cycles: float, stretch: float = 1.0) -> np.ndarray:
    """Periodic smooth noise, unit variance: white noise low-passed to about ``cycles`` features across the tile
    (``stretch`` times as many down the rows as across them)."""
    fy = np.fft.fftfreq(px)[:, None] * px / (cycles * stretch)
    fx = np.fft.rfftfreq(px)[None, :] * px / cycles
    field = np.fft.irfft2(np.fft.rfft2(rng.standard_normal((px, px))) * np.exp(-(fx**2 + fy**2)), s=(px, px))
    return field / (field.std() or 1.0)


def _plaster(rng: np.random.Generator, px: int) -> np.ndarray:
    return 0.5 + 0.18 * _noise(rng, px, 3) + 0.1 * _noise(rng, px, 24)


def _grain(rng: np.random.Generator, px: int) -> np.ndarray:
    """Growth rings along the rows, bent by stretched noise."""
    y = np.arange(px)[:, None] / px
    rings = np.sin(2 * np.pi * (GRAIN_RINGS * y + 0.35 * _noise(rng, px, 2, stretch=3)))
    return 0.5 + 0.3 * rings + 0.1 * _noise(rng, px, 32, stretch=0.2)


def _planks(rng: np.random.Generator, px: int) -> np.ndarray:
    """Boards across the rows, each its own tone and grain, with darker seams between them and along them."""
    board = np.arange(px) * BOARDS // px
    grain = _grain(rng, px)
    tone = rng.uniform(-0.2, 0.2, BOARDS)[board][:, None]
    t = grain * 0.7 + 0.15 + tone
    rows = np.arange(px)
    t[(rows * BOARDS) % px < max(1, px // 128), :] = 1.1  # seams between boards
    for b in range(BOARDS):
        at = rows[board == b]
        for x in (rng.uniform(0, 1) + np.arange(BOARD_SEAMS) / BOARD_SEAMS) % 1:
            t[at, int(x * px)] = 1.1
    return t


def _tiles(rng: np.random.Generator, px: int) -> np.ndarray:
    y, x = np.mgrid[0:px, 0:px] * TILES / px
    tile = (y.astype(int) * TILES + x.astype(int)) % (TILES * TILES)
    t = 0.35 + rng.uniform(-0.15, 0.15, TILES * TILES)[tile] + 0.08 * _noise(rng, px, 20)
    grout = (np.minimum(y % 1, x % 1) < GROUT) | (np.maximum(y % 1, x % 1) > 1 - GROUT)
    t[grout] = 1.0
    return t


def _weave(rng: np.random.Generator, px: int) -> np.ndarray:
    y, x = np.mgrid[0:px, 0:px] * 2 * np.pi * THREADS / px
    return 0.45 + 0.25 * np.sin(x) * np.sin(y) + 0.12 * _noise(rng, px, 6) + 0.08 * _noise(rng, px, 40)


def _speckle(rng: np.random.Generator, px: int) -> np.ndarray:
    dots = (rng.uniform(0, 1, (px, px)) > 0.97) * 0.6
    return 0.3 + 0.15 * _noise(rng, px, 5) + 0.12 * _noise(rng, px, 48) + dots


PATTERNS: dict[str, Callable[[np.random.Generator, int], np.ndarray]] = {
    "plaster": _plaster,
    "grain": _grain,
    "planks": _planks,
    "tiles": _tiles,
    "weave": _weave,
    "speckle": _speckle,
}


def texture(finish: Finish, px: int, seed: int, surface: str) -> np.ndarray:
    """The ``px`` x ``px`` RGB (uint8) texture of ``surface`` in a house with ``seed``: rows run along the
    texture's t, columns along s."""
    rng = np.random.default_rng([STYLE_SALT, seed, SURFACES.index(surface)])
    t = np.clip(PATTERNS[finish.pattern](rng, px), 0.0, 1.0)[..., None]
    rgb = np.asarray(finish.light) * (1 - t) + np.asarray(finish.dark) * t
    return np.round(255 * np.clip(rgb, 0, 1)).astype(np.uint8)
