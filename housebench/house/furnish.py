"""Furniture for each room, placed against its walls (or free-standing) relative to the room.

Positions are measured from the room's lower-left corner, so the plan's jitter carries the
furniture along; ``jig()`` adds the seed's own small shift along the wall. No cabinet in the
bathroom (open shelves only). ``p`` is the ``house`` params section (``parts`` for the fronts).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from housebench.house.appliances import Appliance, fridge, microwave, stove
from housebench.house.furniture import BATHTUB, SINK, TOILET, TV, Built, bed, block, bookcase, cabinet, seat, table
from housebench.house.geometry import Box
from housebench.house.parts import Part, drawer
from housebench.house.plan import Room

Jig = Callable[[], float]
COUNTER = (0.6, 0.9)  # kitchen counter depth and height
CORNER = 1.25  # the west counter starts here: past the south counter's door swing (0.62 + 0.6)
WEST = 1.4  # west counter length: the fridge after it ends 0.85-1.25 m short of the north wall (by the seed)
ISLAND_X = 2.9  # island centre: 0.75 m or more between it and the fridge's open door, the way to that pocket


def kitchen(r: Room, p: dict[str, Any], jig: Jig) -> tuple[list[Built], list[Appliance]]:
    """Counters on the south and west walls, the stove beside the south counter, the fridge north of
    the west counter, a free-standing island facing south near the north wall. The west counter
    starts past the south counter's door swing; every front has free floor in front of it, and the
    fridge leaves floor to the north wall for the base that pushes its open door's outer face shut, the
    base's way there passes between the door and the island, and the microwave stands at the west
    counter's south end, 0.9 m short of the fridge (the arm pushing its door shut, from the north of it,
    clears the fridge's handle)."""
    parts, (depth, height) = p["parts"], COUNTER
    south = r.against("S", 1.2, depth)
    west_at = CORNER + WEST / 2 + jig()
    west = r.against("W", west_at, depth)
    fr = fridge("fridge", r.against("W", west_at + WEST / 2 + 0.4, 0.7), 0.7, 0.7, 1.8, [0.5, 0.9, 1.3], parts)
    mw = microwave("microwave", west.shifted(WEST / 2 - 0.3, 0.2), 0.5, 0.38, 0.3, height, parts)
    st = stove("stove", r.against("S", 2.75 + jig(), depth), 0.6, depth, height, parts)
    fronts = ["door_left", "door_right", "drawers:2", "drawers:2"]
    built = [
        cabinet("counter_south", south, 2.4, depth, height, fronts, parts),
        cabinet("counter_west", west, WEST, depth, height, ["door_left", "door_right", "drawers:3"], parts),
        cabinet(
            "kitchen_island",
            r.centred(ISLAND_X + jig(), r.y1 - r.y0 - 0.8, 0.7, "S"),
            1.4,
            0.7,
            height,
            ["drawers:2", "drawers:2"],
            parts,
        ),
        *((b, q) for b, q, _ in (fr, mw, st)),
    ]
    return built, [fr[2], mw[2], st[2]]


def dining_room(r: Room, p: dict[str, Any], jig: Jig) -> tuple[list[Built], list[Appliance]]:
    cx = (r.x1 - r.x0) / 2 + jig()
    chairs = [
        seat(f"dining_chair_{i + 1}", r.centred(cx + dx, 2.8, 0.45, "S"), 0.45, 0.45, 0.45, 0.9)
        for i, dx in enumerate((-0.4, 0.4))
    ]
    return [
        table("dining_table", r.centred(cx, 2.0, 0.9, "N"), 1.6, 0.9, 0.75),
        *chairs,
        cabinet("sideboard", r.against("S", cx + 1.0, 0.45), 1.2, 0.45, 0.8, ["door_left", "door_right"], p["parts"]),
    ], []


def living_room(r: Room, p: dict[str, Any], jig: Jig) -> tuple[list[Built], list[Appliance]]:
    """The tv on the south wall, the sofa on the north wall with the coffee table before it, and on the
    east wall the low bookcase, the side table and the armchair, each with floor in front for the base."""
    low = p["bookcase_low"]
    stand = r.against("S", 2.3 + jig(), 0.45)
    return [
        cabinet("tv_stand", stand, 1.4, 0.45, 0.5, ["drawers:1", "drawers:1"], p["parts"]),
        block("tv", stand.shifted(0.0, 0.15), TV),
        seat("sofa", r.against("N", 2.6 + jig(), 0.9), 1.8, 0.9, 0.42, 0.85, arms=True),
        table("coffee_table", r.centred(2.6, r.y1 - r.y0 - 1.6, 0.5, "S"), 1.0, 0.5, 0.42),
        table("side_table", r.against("E", 1.8, 0.45), 0.45, 0.45, 0.55),  # between bookcase_low and armchair
        bookcase(
            "bookcase_low",
            r.against("E", 0.9 + jig(), low["depth"]),
            low["width"],
            low["depth"],
            low["height"],
            low["levels"],
        ),
        seat("armchair", r.against("E", 2.6, 0.8), 0.8, 0.8, 0.42, 0.85, arms=True),
    ], []


def bathroom(r: Room, p: dict[str, Any], jig: Jig) -> tuple[list[Built], list[Appliance]]:
    return [
        block("bathtub", r.against("N", 0.9, 0.75), BATHTUB),
        block("toilet", r.against("W", 1.9 + jig(), 0.75), TOILET),
        block("sink", r.against("S", 2.2 + jig(), 0.45), SINK),
        bookcase("towel_shelf", r.against("N", 2.6 + jig(), 0.3), 0.6, 0.3, 1.2, [0.4, 0.8]),
    ], []


def bedroom(r: Room, p: dict[str, Any], jig: Jig) -> tuple[list[Built], list[Appliance]]:
    """The bed and nightstands on the north wall with free walls beside them, the wardrobe and the
    dresser in the south corners, the desk free-standing south of the bed's foot."""
    parts, mid = p["parts"], (r.x1 - r.x0) / 2
    stands = [
        cabinet(f"nightstand_{side}", r.against("N", mid + dx, 0.4), 0.45, 0.4, 0.55, ["drawers:1"], parts)
        for side, dx in (("left", -1.1), ("right", 1.1))
    ]
    return [
        bed("bed", r.against("N", mid, 2.0), 1.6, 2.0),
        *stands,
        cabinet("wardrobe", r.against("E", 0.75 + jig(), 0.6), 1.2, 0.6, 2.0, ["door_left", "door_right"], parts),
        table("bedroom_desk", r.centred(mid - 0.2, 1.3, 0.6, "S"), 1.1, 0.6, 0.75),
        cabinet("dresser", r.against("S", 0.6, 0.5), 1.0, 0.5, 0.9, ["drawers:3"], parts),
    ], []


def study(r: Room, p: dict[str, Any], jig: Jig) -> tuple[list[Built], list[Appliance]]:
    parts, tall = p["parts"], p["bookcase_tall"]
    desk = r.against("N", 2.2 + jig(), 0.7)
    pull = drawer("study_desk/drawer_1", desk, (-0.3, 0.3), (0.58, 0.7), 0.55, parts)  # under the top
    return [
        (table("study_desk", desk, 1.4, 0.7, 0.75)[0], [pull]),
        seat("study_chair", r.centred(2.2, r.y1 - r.y0 - 1.2, 0.45, "N"), 0.45, 0.45, 0.45, 0.9),
        bookcase(
            "bookcase_tall",
            r.against("W", 1.9 + jig(), tall["depth"]),
            tall["width"],
            tall["depth"],
            tall["height"],
            tall["levels"],
        ),
        cabinet("filing_cabinet", r.against("E", 1.0, 0.55), 0.45, 0.55, 0.75, ["drawers:2"], parts),
    ], []


ROOMS = {
    "kitchen": kitchen,
    "dining_room": dining_room,
    "living_room": living_room,
    "bathroom": bathroom,
    "bedroom": bedroom,
    "study": study,
}


def furnish(rooms: list[Room], p: dict[str, Any], jig: Jig) -> tuple[list[Box], list[Part], list[Appliance]]:
    """Every room's furniture: static boxes, articulated parts and appliances."""
    boxes, parts, appliances = [], [], []
    for room in rooms:
        built, found = ROOMS[room.name](room, p, jig)
        for b, q in built:
            boxes += b
            parts += q
        appliances += found
    return boxes, parts, appliances
