"""Offscreen rendering without a display: MuJoCo picks its GL backend from ``MUJOCO_GL`` when it is
first imported, so every entry point that renders calls :func:`use_offscreen_gl` before importing it.
Kept out of import time (imports have no side effects); a value the user set wins."""

from __future__ import annotations

import os

DEFAULT_GL = "egl"  # Mesa on the CPU here, the GPU driver where there is one; "osmesa" also works


def use_offscreen_gl() -> None:
    """Set ``MUJOCO_GL`` to :data:`DEFAULT_GL` unless it is already set."""
    os.environ.setdefault("MUJOCO_GL", DEFAULT_GL)
