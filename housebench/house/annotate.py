"""House ground truth from geometry: rooms, supports, obstacles, articulated parts, appliances.

A support is the top face of a furniture box that can hold a prop: boxes resting on it (within
``min_clearance``) are cut away (the largest free rectangle is kept), and the nearest box above
what is left gives its clearance. It must stay at least ``min_size`` on each side. Each room's floor
is a support too (``<room>/floor``), cut around everything standing on it and the robot's start.
"""

from __future__ import annotations

from collections.abc import Iterable

from housebench.annotations.schema import (
    ApplianceAnnotation,
    ArticulatedPart,
    Footprint,
    Handle,
    HouseAnnotations,
    Obstacle,
    ReachBand,
    RobotAnnotation,
    Room,
    Support,
)
from housebench.house.geometry import Box
from housebench.house.layout import House
from housebench.house.parts import Part
from housebench.io import r6, r6s
from housebench.robot import fetch
from housebench.robot.footprint import fetch_footprint

STRUCTURE = ("floor", "walls")  # owners that are the building, not furniture
Rect = tuple[float, float, float, float]


def _overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _plan(b: Box) -> Rect:
    x0, y0, _, x1, y1, _ = b.bounds
    return x0, y0, x1, y1


def free_rect(rect: Rect, blockers: Iterable[Rect]) -> Rect:
    """``rect`` cut around each blocker in turn, keeping the largest remaining piece each time."""
    for b in blockers:
        if not _overlap(rect, b):
            continue
        x0, y0, x1, y1 = rect
        pieces = [(x0, y0, b[0], y1), (b[2], y0, x1, y1), (x0, y0, x1, b[1]), (x0, b[3], x1, y1)]
        rect = max(pieces, key=lambda r: (max(r[2] - r[0], 0) * max(r[3] - r[1], 0), r))
    return rect


def _support(
    name: str, owner: str, height: float, rect: Rect, above: list[Box], min_size: float, min_clearance: float
) -> Support | None:
    if min(rect[2] - rect[0], rect[3] - rect[1]) < min_size:
        return None
    gaps = [b.bounds[2] - height for b in above if _overlap(rect, _plan(b))]
    clearance = r6(min(gaps)) if gaps else None
    if clearance is not None and clearance < min_clearance:
        return None
    return Support(name=name, owner=owner, height=r6(height), box=tuple(r6(v) for v in rect), clearance=clearance)


def find_supports(boxes: Iterable[Box], min_size: float = 0.16, min_clearance: float = 0.05) -> list[Support]:
    """Every furniture top face that can hold something, with its clearance (None: open above)."""
    boxes = [b for b in boxes if b.owner not in STRUCTURE]
    found = []
    for box in boxes:
        top = box.bounds[5]
        above = [o for o in boxes if o is not box and o.bounds[2] >= top - 1e-9]
        resting = [_plan(o) for o in above if o.bounds[2] - top < min_clearance]
        rect = free_rect(_plan(box), resting)
        support = _support(box.name, box.owner, top, rect, above, min_size, min_clearance)
        if support:
            found.append(support)
    return found


def floor_supports(house: House, fp: Footprint, min_size: float = 0.3) -> list[Support]:
    """The largest free patch of each room's floor (under nothing that the robot could hit)."""
    standing = [
        _plan(b)
        for b in [*house.boxes, *(q for p in house.parts for q in p.boxes)]
        if b.owner not in STRUCTURE and b.bounds[2] < fp.height
    ]
    x, y, r = house.robot_start[0], house.robot_start[1], fp.radius
    standing.append((x - r, y - r, x + r, y + r))
    found = []
    for room in house.rooms:
        rect = free_rect((room.x0, room.y0, room.x1, room.y1), standing)
        support = _support(f"{room.name}/floor", room.name, 0.0, rect, [], min_size, 0.0)
        if support:
            found.append(support)
    return found


def part_annotation(part: Part) -> ArticulatedPart:
    bounds = [b.bounds for b in part.boxes]
    box = (*(min(b[i] for b in bounds) for i in range(3)), *(max(b[i] for b in bounds) for i in range(3, 6)))
    handle = part.handle
    return ArticulatedPart(
        name=part.name,
        owner=part.owner,
        category=part.category,
        joint=part.kind,
        axis=r6s(part.axis),
        pivot=r6s(part.pivot),
        limits=r6s(part.limits),
        closed=0.0,
        open=r6(part.open),
        box=r6s(box),
        handle=Handle(
            center=r6s(handle.center), normal=r6s(part.normal), grasp=r6s(-c for c in part.normal), box=handle.bounds
        ),
    )


def house_annotations(house: House) -> HouseAnnotations:
    """Everything skills, sampler and evaluator read about the house (the ``house.json``)."""
    moving, fp = [b for p in house.parts for b in p.boxes], fetch_footprint()
    return HouseAnnotations(
        rooms=[Room(name=r.name, polygon=r.polygon) for r in house.rooms],
        supports=find_supports(house.boxes) + floor_supports(house, fp),
        obstacles=[Obstacle(name=b.name, box=b.bounds) for b in [*house.boxes, *moving] if b.owner != "floor"],
        robot=RobotAnnotation(
            name="fetch",
            start=house.robot_start,
            gripper_opening=fetch.GRIPPER_OPENING,
            footprint=fp,
            reach=[ReachBand(z=z, min=lo, max=hi) for z, lo, hi in fetch.REACH],
        ),
        articulated=[part_annotation(p) for p in house.parts],
        appliances=[
            ApplianceAnnotation(
                name=a.name,
                kind=a.kind,
                cavity=a.cavity.bounds if a.cavity else None,
                door=a.door,
                switch=a.switch,
                zones=[z.bounds for z in a.zones],
            )
            for a in house.appliances
        ],
        bounds=(0.0, 0.0, house.width, house.depth),
    )
