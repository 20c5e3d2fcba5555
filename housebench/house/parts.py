"""Articulated parts: hinged doors, drawers, push buttons and rotary keys, each with a handle.

Every part is closed at ``q = 0`` and opens towards positive ``q`` (radians for revolute parts,
metres for prismatic ones). Boxes are given at the closed pose; the handle is the box named
``<part>/handle``. Parts are built on a furniture :class:`Frame`, in front of its face ``v = 0``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from housebench.house.geometry import Box, Frame, Vec3
from housebench.io import r6

HANDLE_GAP = 0.03  # free space between a handle bar and its panel, for the fingers
CLEAR = 0.002  # gap between a closed part and the face it closes against (parts collide with the house)
BAR = 0.018  # handle bar cross-section
HANDLE_TOP = 1.1  # the highest handle of a tall door (fridge, wardrobe), metres


@dataclass(frozen=True)
class Part:
    name: str  # "<owner>/<part>": the joint's name in SimState.joints
    category: str  # door, drawer, button or knob
    kind: str  # revolute or prismatic
    boxes: tuple[Box, ...]  # the moving geometry at q = 0; one is "<name>/handle"
    pivot: Vec3  # a world point on the joint axis
    axis: Vec3  # world unit axis; positive q opens
    limits: tuple[float, float]
    open: float  # the value that counts as fully open (pressed, switched on)
    normal: Vec3  # outward normal of the handle's face
    stiffness: float  # spring towards q = 0 (N m/rad or N/m)
    damping: float  # N m s/rad or N s/m

    @property
    def owner(self) -> str:
        return self.name.split("/")[0]

    @property
    def handle(self) -> Box:
        return next(b for b in self.boxes if b.name == f"{self.name}/handle")


def _dynamics(category: str, p: dict[str, Any]) -> dict[str, float]:
    d = p[category]
    return {"stiffness": float(d.get("stiffness", 0.0)), "damping": float(d["damping"])}


def door(
    name: str,
    f: Frame,
    u: tuple[float, float],
    z: tuple[float, float],
    hinge: str,
    p: dict[str, Any],
) -> Part:
    """A panel over ``u x z`` of the face, hinged on its left or right edge; opens outwards. The
    handle bar is near the free edge: mid-height on short panels, near the top of taller ones but no
    higher than :data:`HANDLE_TOP` (within the robot's reach)."""
    t = p["panel"] + CLEAR
    panel = f.box(f"{name}/panel", (u[0], -t, z[0]), (u[1], -CLEAR, z[1]))
    free = u[1] - 0.06 if hinge == "left" else u[0] + 0.06
    zc = min(z[1] - 0.15, HANDLE_TOP) if z[1] - z[0] > 0.6 else (z[0] + z[1]) / 2
    half = min(0.08, (z[1] - z[0]) / 4)
    bar = (-t - HANDLE_GAP - BAR, -t - HANDLE_GAP)
    handle = f.box(f"{name}/handle", (free - BAR / 2, bar[0], zc - half), (free + BAR / 2, bar[1], zc + half))
    pivot_u = u[0] if hinge == "left" else u[1]
    axis = (0.0, 0.0, 1.0 if hinge == "left" else -1.0)
    return Part(
        name,
        "door",
        "revolute",
        (panel, handle),
        f.point(pivot_u, -t, z[0]),
        axis,
        (0.0, r6(p["door_range"])),
        r6(p["door_open"]),
        f.front,
        **_dynamics("door", p),
    )


def drawer(
    name: str, f: Frame, u: tuple[float, float], z: tuple[float, float], depth: float, p: dict[str, Any]
) -> Part:
    """A drawer: front panel over ``u x z`` plus an open tray ``depth`` deep; pulls straight out."""
    t, w = p["panel"] + CLEAR, 0.012
    inner = (u[0] + 0.02, u[1] - 0.02)
    top = z[1] - 0.03
    boxes = [
        f.box(f"{name}/front", (u[0], -t, z[0]), (u[1], -CLEAR, z[1])),
        f.box(f"{name}/bottom", (inner[0], -CLEAR, z[0] + 0.01), (inner[1], depth, z[0] + 0.01 + w)),
        f.box(f"{name}/back", (inner[0], depth - w, z[0] + 0.01), (inner[1], depth, top)),
        f.box(f"{name}/side_left", (inner[0], -CLEAR, z[0] + 0.01), (inner[0] + w, depth, top)),
        f.box(f"{name}/side_right", (inner[1] - w, -CLEAR, z[0] + 0.01), (inner[1], depth, top)),
    ]
    uc, zc, half = (u[0] + u[1]) / 2, (z[0] + z[1]) / 2, min(0.08, (u[1] - u[0]) / 4)
    boxes.append(
        f.box(
            f"{name}/handle",
            (uc - half, -t - HANDLE_GAP - BAR, zc - BAR / 2),
            (uc + half, -t - HANDLE_GAP, zc + BAR / 2),
        )
    )
    travel = r6(p["drawer_travel"] * depth)
    return Part(
        name,
        "drawer",
        "prismatic",
        tuple(boxes),
        f.point(uc, -t, zc),
        f.front,
        (0.0, travel),
        travel,
        f.front,
        **_dynamics("drawer", p),
    )


def button(name: str, f: Frame, u: float, z: float, size: float, p: dict[str, Any]) -> Part:
    """A square push button standing ``travel + CLEAR`` proud of the face; pressing pushes it in
    (``q`` = depth pressed), fully pressed it stops ``CLEAR`` short of the face."""
    travel = r6(p["button_travel"])
    back = travel + CLEAR
    t = 0.012 + back
    face = f.box(f"{name}/handle", (u - size / 2, -t, z - size / 2), (u + size / 2, -back, z + size / 2))
    inward = tuple(-c + 0.0 for c in f.front)
    return Part(
        name,
        "button",
        "prismatic",
        (face,),
        f.point(u, -t, z),
        inward,  # type: ignore[arg-type]
        (0.0, travel),
        travel,
        f.front,
        **_dynamics("button", p),
    )


def knob(name: str, f: Frame, u: float, z: float, p: dict[str, Any]) -> Part:
    """A rotary power key on the face, turned a quarter turn about the face normal to switch on."""
    t = 0.03 + CLEAR
    key = f.box(f"{name}/handle", (u - 0.02, -t, z - 0.02), (u + 0.02, -CLEAR, z + 0.02))
    return Part(
        name,
        "knob",
        "revolute",
        (key,),
        f.point(u, -t, z),
        f.front,
        (0.0, r6(math.pi / 2)),
        r6(math.pi / 2),
        f.front,
        **_dynamics("knob", p),
    )
