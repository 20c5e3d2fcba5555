"""House ground truth from geometry: supports are the top faces of furniture boxes with room above.

A top face is a support when it is large enough to hold a prop (``min_size`` on each side) and the
nearest box above it, overlapping it in plan, leaves at least ``min_clearance`` of free height.
"""

from __future__ import annotations

from collections.abc import Iterable

from housebench.annotations.schema import (HouseAnnotations, Obstacle, RobotAnnotation, Room,
                                           Support)
from housebench.house.layout import Box, House
from housebench.robot import fetch

STRUCTURE = ("floor", "walls")  # owners that are the building, not furniture


def _overlaps(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[3] and b[0] < a[3] and a[1] < b[4] and b[1] < a[4]


def find_supports(boxes: Iterable[Box], min_size: float = 0.15,
                  min_clearance: float = 0.05) -> list[Support]:
    """Every furniture top face that can hold something, with its clearance (None: open above)."""
    boxes = list(boxes)
    supports = []
    for box in boxes:
        b = box.bounds
        if box.owner in STRUCTURE or min(b[3] - b[0], b[4] - b[1]) < min_size:
            continue
        above = [o.bounds[2] - b[5] for o in boxes
                 if o is not box and o.bounds[2] >= b[5] - 1e-9 and _overlaps(b, o.bounds)]
        clearance = round(min(above), 6) if above else None
        if clearance is not None and clearance < min_clearance:
            continue
        supports.append(Support(name=box.name, owner=box.owner, height=b[5],
                                box=(b[0], b[1], b[3], b[4]), clearance=clearance))
    return supports


def house_annotations(house: House) -> HouseAnnotations:
    """Room polygon, supports, obstacles (every furniture and wall box) and the robot."""
    w, d = house.width, house.depth
    return HouseAnnotations(
        rooms=[Room(name="room", polygon=[(0.0, 0.0), (w, 0.0), (w, d), (0.0, d)])],
        supports=find_supports(house.boxes),
        obstacles=[Obstacle(name=b.name, box=b.bounds) for b in house.boxes if b.owner != "floor"],
        robot=RobotAnnotation(name="fetch", start=house.robot_start, reach=fetch.REACH,
                              gripper_opening=fetch.GRIPPER_OPENING),
    )
