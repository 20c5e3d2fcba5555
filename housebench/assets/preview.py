"""Pictures of built assets: the visual mesh beside the collision hulls, one colour per hull.

Rendered offscreen with MuJoCo from the asset's ``body.xml`` (call
:func:`housebench.sim.offscreen.use_offscreen_gl` before MuJoCo is first imported). A contact sheet
lays many such pictures out in a labelled grid, so a whole asset set can be checked at a glance:
a hull that misses a handle, or one that fills a cavity, shows at once.
"""

from __future__ import annotations

import colorsys
from collections.abc import Iterable, Sequence
from pathlib import Path

import mujoco
import numpy as np
from PIL import Image, ImageDraw

from housebench.assets.droptest import load_asset_spec

VISUAL_GROUP, HULL_GROUP = 2, 3  # geom groups of body.xml (housebench.assets.build)
LABEL_HEIGHT = 18  # pixels under each picture for the asset's name


def hull_colour(index: int) -> list[float]:
    """A distinct opaque RGBA per hull (golden-ratio hues)."""
    return [*colorsys.hsv_to_rgb((index * 0.618034) % 1.0, 0.65, 0.95), 1.0]


def asset_picture(body_xml: Path, size: int = 240) -> np.ndarray:
    """``size`` x ``2 * size`` RGB: the visual mesh (left) and the collision hulls (right), seen
    from the same camera, slightly above."""
    return views(load_asset_spec(body_xml), (VISUAL_GROUP, HULL_GROUP), size)


def views(spec: mujoco.MjSpec, groups: Sequence[int], size: int = 240) -> np.ndarray:
    """One ``size`` x ``size`` view per geom group of ``spec``, side by side, from the same camera;
    the geoms of every group but :data:`VISUAL_GROUP` get one colour each."""
    for group in groups:
        if group != VISUAL_GROUP:
            for i, geom in enumerate(g for g in spec.geoms if g.group == group):
                geom.rgba = hull_colour(i)
    spec.visual.headlight.ambient = [0.45] * 3
    spec.visual.headlight.diffuse = [0.75] * 3
    model = spec.compile()
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    camera = mujoco.MjvCamera()
    camera.lookat[:] = model.stat.center
    camera.distance, camera.azimuth, camera.elevation = 1.5 * float(model.stat.extent), 135.0, -30.0
    renderer = mujoco.Renderer(model, size, size)
    try:
        pictures = []
        for group in groups:
            option = mujoco.MjvOption()
            option.geomgroup[:] = 0
            option.geomgroup[group] = 1
            renderer.update_scene(data, camera=camera, scene_option=option)
            pictures.append(renderer.render().copy())
    finally:
        renderer.close()
    return np.hstack(pictures)


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
