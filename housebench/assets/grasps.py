"""Grasp primitives for a parallel gripper, from the asset's visual mesh and annotation facts.

- ``top_pinch``: from above, across the narrowest horizontal cross-section of the footprint.
- ``rim_pinch``: a container's wall at the rim, on its -X side.
- ``handle_pinch``: across a handle (tag ``handle``; the handle sticks out along +X of the body).
- ``edge_pinch_after_push``: a flat object wider than the gripper, pushed over a support's edge and
  pinched across its thickness.

Each needs the object width plus ``clearance`` to fit the jaw ``opening``; when none fits, the
reason is returned instead.
"""

from __future__ import annotations

import numpy as np
from pydantic import Field
from scipy.spatial import ConvexHull

from housebench.annotations.schema import ContainerProfile, GraspPrimitive
from housebench.io import r6s
from housebench.params import Section


class Gripper(Section):
    """The parallel gripper grasps are planned for (``physics:`` params ``gripper``)."""

    opening: float = Field(0.1, gt=0, le=1)  # widest jaw opening, metres
    clearance: float = Field(0.01, ge=0, le=1)  # free space the jaws need beyond the object's width
    finger_depth: float = Field(0.02, gt=0, le=1)  # how far the fingertips reach down over the object
    min_height: float = Field(0.005, ge=0, le=1)  # lowest object a top pinch can take
    flat_height: float = Field(0.04, ge=0, le=1)  # objects at most this tall (or tagged ``flat``) count as flat


def narrowest(xy: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    """Width, unit direction and centre of the narrowest cross-section of a 2-D point set (1 deg)."""
    ring = xy[ConvexHull(xy).vertices]
    angles = np.radians(np.arange(180))
    dirs = np.column_stack([np.cos(angles), np.sin(angles)])
    spans = ring @ dirs.T
    i = int(np.argmin(np.ptp(spans, axis=0)))
    d, n = dirs[i], np.array([-dirs[i][1], dirs[i][0]])
    across, along = spans[:, i], ring @ n
    centre = d * (across.max() + across.min()) / 2 + n * (along.max() + along.min()) / 2
    return float(np.ptp(across)), d, centre


def _fits(width: float, g: Gripper) -> bool:
    return width + g.clearance <= g.opening


def grasp_primitives(
    vertices: np.ndarray, tags: list[str], container: ContainerProfile | None, g: Gripper
) -> tuple[list[GraspPrimitive], str | None]:
    """The primitives that fit, and the reason when none does."""
    height = float(vertices[:, 2].max())
    width, d, centre = narrowest(vertices[:, :2])
    found: list[GraspPrimitive] = []
    if _fits(width, g) and height >= g.min_height:
        z = max(height - g.finger_depth, height / 2)
        found.append(
            GraspPrimitive(kind="top_pinch", point=r6s([*centre, z]), axis=r6s([*d, 0]), width=round(width, 6))
        )
    if container is not None:
        wall = -float(vertices[:, 0].min()) - container.inner_half_extents[0]  # -X: away from a handle
        if _fits(wall, g):
            x = -(container.inner_half_extents[0] + wall / 2)
            found.append(
                GraspPrimitive(
                    kind="rim_pinch",
                    point=r6s([x, 0, container.rim_z - g.finger_depth / 2]),
                    axis=(1.0, 0.0, 0.0),
                    width=round(wall, 6),
                )
            )
    if "handle" in tags:
        handle = vertices[vertices[:, 0] > np.abs(vertices[:, 1]).max() + 0.002]
        if len(handle) and _fits(float(np.ptp(handle[:, 1])), g):
            mid = (handle.min(0) + handle.max(0)) / 2
            found.append(
                GraspPrimitive(
                    kind="handle_pinch",
                    point=r6s(mid),
                    axis=(0.0, 1.0, 0.0),
                    width=round(float(np.ptp(handle[:, 1])), 6),
                )
            )
    flat = "flat" in tags or height <= g.flat_height
    if flat and not _fits(width, g) and _fits(height, g):
        edge = centre + d * (width / 2 - g.finger_depth / 2)
        found.append(
            GraspPrimitive(
                kind="edge_pinch_after_push",
                point=r6s([*edge, height / 2]),
                axis=(0.0, 0.0, 1.0),
                width=round(height, 6),
            )
        )
    if found:
        return found, None
    return [], (
        f"narrowest width {width:.3f} m + {g.clearance:.3f} m clearance exceeds the "
        f"{g.opening:.3f} m opening{'' if flat else ', and it is not flat'}"
        f"{'' if container else ', no rim'}{'' if 'handle' in tags else ', no handle'}"
    )
