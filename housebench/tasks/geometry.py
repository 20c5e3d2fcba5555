"""Plain geometry over poses and annotations, shared by the predicates, the sampler and the thermal
model: object boxes in the world, container cavities, and how far an articulated part is from closed.
"""

from __future__ import annotations

import math

import numpy as np

from housebench.annotations.schema import ArticulatedPart, AssetAnnotation, ContainerProfile
from housebench.state import ObjectState, SimState


class GoalError(ValueError):
    """The goal cannot be judged on this input (unknown slot, support or part, missing state, ...)."""


def joint_value(state: SimState, joint: str) -> float:
    """A joint's value in ``state`` (a one-line :class:`GoalError` when the state lacks it)."""
    if joint not in state.joints:
        raise GoalError(f"joint '{joint}' is missing from the state")
    return state.joints[joint]


def rotation(quat: tuple[float, float, float, float]) -> np.ndarray:
    """3x3 rotation matrix of a (w, x, y, z) quaternion (normalised first)."""
    q = np.asarray(quat, dtype=float)
    norm = float(np.linalg.norm(q))
    if norm == 0.0:
        raise GoalError(f"quaternion {tuple(quat)} has zero length")
    w, x, y, z = q if norm == 1.0 else q / norm
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
    )


def world_box(pose: ObjectState, asset: AssetAnnotation) -> tuple[float, ...]:
    """Axis-aligned world box ``[xmin, ymin, zmin, xmax, ymax, zmax]`` of the object's extent box."""
    (sx, sy, sz), off = asset.size, asset.bottom_offset
    corners = np.array([[x, y, z] for x in (-sx / 2, sx / 2) for y in (-sy / 2, sy / 2) for z in (-off, sz - off)])
    world = corners @ rotation(pose.quat).T + np.asarray(pose.pos)
    return (*map(float, world.min(0)), *map(float, world.max(0)))


def bottom(pose: ObjectState, asset: AssetAnnotation) -> float:
    """World z of the lowest corner of the object's box."""
    return world_box(pose, asset)[2]


def centre(pose: ObjectState, asset: AssetAnnotation) -> np.ndarray:
    """World position of the centre of the object's box."""
    return np.asarray(pose.pos) + rotation(pose.quat) @ [0.0, 0.0, asset.size[2] / 2 - asset.bottom_offset]


def in_cavity(
    point: np.ndarray, container: ObjectState, profile: ContainerProfile, below: float, above: float
) -> tuple[bool, str]:
    """Whether ``point`` lies in the container's cavity (:meth:`ContainerProfile.holds`), and what was
    measured, in the container's frame."""
    return profile.holds((np.asarray(point) - np.asarray(container.pos)) @ rotation(container.quat), below, above)


def box_distance(box, xy) -> float:
    """How far the point ``xy`` lies outside the 2-D ``box`` (xmin, ymin, xmax, ymax); 0 inside it."""
    xmin, ymin, xmax, ymax = box[:4]
    return math.hypot(max(xmin - xy[0], 0, xy[0] - xmax), max(ymin - xy[1], 0, xy[1] - ymax))


def in_box(point: np.ndarray, box: tuple[float, ...]) -> bool:
    """Whether ``point`` lies in the axis-aligned box ``[xmin, ymin, zmin, xmax, ymax, zmax]`` (faces in)."""
    return all(box[i] <= point[i] <= box[i + 3] for i in range(3))


def part_closed(part: ArticulatedPart, q: float, max_rad: float, max_m: float) -> tuple[bool, str]:
    """Whether joint value ``q`` is within ``max_rad`` (revolute) or ``max_m`` (prismatic) of closed."""
    limit, unit = (max_rad, "rad") if part.joint == "revolute" else (max_m, "m")
    off = abs(q - part.closed)
    return off <= limit, f"{part.name}: {off:.6f} {unit} from closed (max {limit})"


def switched_on(part: ArticulatedPart, q: float) -> bool:
    """A button or knob counts as on (pressed, turned) at least half way from closed to open."""
    return abs(q - part.closed) >= 0.5 * abs(part.open - part.closed)


def footprint(size: tuple[float, float, float], yaw: float) -> tuple[float, float]:
    """Half extents (x, y) of the axis-aligned box around a ``size`` box turned by ``yaw``."""
    c, s = abs(math.cos(yaw)), abs(math.sin(yaw))
    return c * size[0] / 2 + s * size[1] / 2, s * size[0] / 2 + c * size[1] / 2
