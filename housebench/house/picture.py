"""The labelled top-down picture of the house: an orthographic render plus room names.

:func:`topdown_view` is the one definition of the top-down camera's framing (the USD writer puts
the camera there; :func:`label_rooms` maps world points to its pixels).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from housebench.annotations.schema import HouseAnnotations

ASPECT = 4 / 3  # width / height of the top-down picture
MARGIN = 0.6  # metres around the house
PROP_RED = (200, 20, 20)


def topdown_view(width: float, depth: float) -> tuple[float, float, float]:
    """Centre x, centre y and the vertical extent (metres) of the top-down frame of a house."""
    span = max(width, depth * ASPECT) + MARGIN
    return width / 2, depth / 2, span / ASPECT


def _footprints(house: HouseAnnotations) -> dict[str, tuple[float, float, float, float]]:
    """Each furniture piece or appliance (a support's owner, not a room): the xy box around its surfaces."""
    boxes: dict[str, tuple[float, float, float, float]] = {}
    rooms = {r.name for r in house.rooms}
    for s in (s for s in house.supports if s.owner not in rooms):  # a room's floor is labelled as the room
        b = boxes.get(s.owner, s.box)
        boxes[s.owner] = (min(b[0], s.box[0]), min(b[1], s.box[1]), max(b[2], s.box[2]), max(b[3], s.box[3]))
    return boxes


def plan_pixel(house: HouseAnnotations, width: int, height: int) -> Callable[[float, float], tuple[float, float]]:
    """World (x, y) -> pixel of a top-down picture ``width`` x ``height`` of ``house``."""
    x0, y0, x1, y1 = house.bounds or (0.0, 0.0, 1.0, 1.0)
    cx, cy, extent = topdown_view(x1 - x0, y1 - y0)
    scale = height / extent
    return lambda x, y: (width / 2 + (x - x0 - cx) * scale, height / 2 - (y - y0 - cy) * scale)


def label_props(plan: Image.Image, house: HouseAnnotations, props: dict[str, tuple[float, float]]) -> Image.Image:
    """A copy of the labelled plan with each prop marked (a red dot) and named where it stands."""
    picture = plan.convert("RGB")
    draw = ImageDraw.Draw(picture)
    pixel = plan_pixel(house, *picture.size)
    font = ImageFont.load_default(size=max(10, picture.size[1] // 60))
    radius = max(3, picture.size[1] // 150)
    for name, (x, y) in sorted(props.items()):
        px, py = pixel(x, y)
        draw.ellipse((px - radius, py - radius, px + radius, py + radius), fill=PROP_RED, outline="white")
        draw.text(
            (px + 2 * radius, py), name, fill=PROP_RED, font=font, anchor="lm", stroke_width=2, stroke_fill="white"
        )
    return picture


def label_rooms(image: np.ndarray, house: HouseAnnotations) -> Image.Image:
    """``image`` (the top-down render, any size of aspect :data:`ASPECT`) with the walls drawn in
    (the camera looks from below the lintels, inside the walls), each room's name at its centre, each
    piece of furniture's name on it (smaller, blue) and the robot's start marked."""
    h, w = image.shape[:2]
    pixel = plan_pixel(house, w, h)
    picture = Image.fromarray(image)
    draw = ImageDraw.Draw(picture)
    for wall in house.obstacles:  # the plan cut: walls below the lintels, doorways open
        b = wall.box
        if wall.name.startswith("walls/") and b[2] < 1.0:
            (ax, ay), (bx, by) = pixel(b[0], b[4]), pixel(b[3], b[1])
            draw.rectangle((ax, ay, bx, by), fill=(60, 60, 64))
    small = ImageFont.load_default(size=max(9, h // 70))
    for owner, boxes in sorted(_footprints(house).items()):  # furniture and appliances, by their surfaces
        px, py = pixel((boxes[0] + boxes[2]) / 2, (boxes[1] + boxes[3]) / 2)
        draw.text(
            (px, py),
            owner.replace("_", " "),
            fill=(20, 40, 120),
            font=small,
            anchor="mm",
            stroke_width=1,
            stroke_fill=(255, 255, 255),
        )
    font = ImageFont.load_default(size=max(12, h // 40))
    for room in house.rooms:
        px, py = pixel(*np.mean(room.polygon, axis=0))
        draw.text(
            (px, py),
            room.name.replace("_", " "),
            fill=(20, 20, 20),
            font=font,
            anchor="mm",
            stroke_width=2,
            stroke_fill=(255, 255, 255),
        )
    rx, ry = pixel(*house.robot.start[:2])
    draw.text(
        (rx, ry - h // 30),
        "robot start",
        fill=(160, 20, 20),
        font=font,
        anchor="mm",
        stroke_width=2,
        stroke_fill=(255, 255, 255),
    )
    return picture


def plan_sketch(house: HouseAnnotations, width: int = 800, height: int = 600) -> Image.Image:
    """The labelled plan without a render: furniture and parts as grey boxes seen from above (what stands below
    the lintels), then :func:`label_rooms` (walls, names, the robot's start) on white."""
    picture = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(picture)
    pixel = plan_pixel(house, width, height)
    for o in sorted(house.obstacles, key=lambda o: o.box[5]):
        b = o.box
        if not o.name.startswith("walls/") and b[2] < 1.0:
            (ax, ay), (bx, by) = pixel(b[0], b[4]), pixel(b[3], b[1])
            shade = int(235 - 60 * min(b[5], 2.0) / 2.0)  # taller, darker
            draw.rectangle((ax, ay, bx, by), fill=(shade, shade, shade), outline=(150, 150, 150))
    return label_rooms(np.asarray(picture), house)
