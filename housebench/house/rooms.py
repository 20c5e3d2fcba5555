"""The catalogue of each room type but the kitchen (:mod:`.kitchen`): which pieces, placed by which rule.

Pieces carry the names the tasks use (``dining_table``, ``bookcase_tall``, ``nightstand_left``...) in the
first room of a type; a second room of the type prefixes its pieces with the room's name
(``bedroom_2_bed``). Against a wall: beds, cabinets, bookcases, desks, the sofa with its coffee table before
it; free-standing: the dining table with its chairs. A bathroom holds no cabinet (open shelves only).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from housebench.house.appliances import Appliance
from housebench.house.arrange import SIDES, Space, drawn, put_free, put_on_wall
from housebench.house.furniture import BATHTUB, SINK, TOILET, TV, Built, bed, block, bookcase, cabinet, seat, table
from housebench.house.parts import drawer

Name = Callable[[str], str]
Furnished = tuple[list[Built], list[Appliance]]
CHAIR = 0.45


def _shelf(space: Space, name: str, spec: dict[str, Any], rng: np.random.Generator) -> Built:
    f = put_on_wall(space, name, spec["width"], spec["depth"], rng)
    return bookcase(name, f, spec["width"], spec["depth"], spec["height"], spec["levels"])


def living_room(space: Space, p: dict[str, Any], rng: np.random.Generator, n: Name) -> Furnished:
    """The sofa with the coffee table 0.45 m before it, the tv stand, the low bookcase, the side table."""
    gap, table_d = 0.45, 0.5
    sofa = put_on_wall(space, n("sofa"), 1.8, 0.9, rng, ahead=gap + table_d)
    built = [seat(n("sofa"), sofa, 1.8, 0.9, 0.42, 0.85, arms=True)]
    built.append(table(n("coffee_table"), sofa.shifted(0.0, -gap - table_d), 1.0, table_d, 0.42))
    stand = put_on_wall(space, n("tv_stand"), 1.4, 0.45, rng, reach=drawn(0.45, p["parts"]))
    built.append(cabinet(n("tv_stand"), stand, 1.4, 0.45, 0.5, ["drawers:1", "drawers:1"], p["parts"]))
    built.append(block(n("tv"), stand.shifted(0.0, 0.15), TV))
    built.append(_shelf(space, n("bookcase_low"), p["bookcase_low"], rng))
    side = put_on_wall(space, n("side_table"), 0.45, 0.45, rng, near=(sofa.x, sofa.y))
    built.append(table(n("side_table"), side, 0.45, 0.45, 0.55))
    return built, []


def dining_room(space: Space, p: dict[str, Any], rng: np.random.Generator, n: Name) -> Furnished:
    """The table free-standing with two chairs at one long side, the sideboard (drawers) against a wall."""
    w, d = 1.6, 0.9
    sb = put_on_wall(space, n("sideboard"), 1.2, 0.45, rng, drawn(0.45, p["parts"]))
    f = put_free(space, n("dining_table"), w, d + CHAIR + 0.05, 0.85, rng)
    built = [cabinet(n("sideboard"), sb, 1.2, 0.45, 0.8, ["drawers:2", "drawers:2"], p["parts"])]
    built.append(table(n("dining_table"), f, w, d, 0.75))
    for i, du in enumerate((-0.4, 0.4)):  # behind the table, facing it
        built.append(seat(n(f"dining_chair_{i + 1}"), f.shifted(du, d + 0.05), CHAIR, CHAIR, CHAIR, 0.9))
    return built, []


def bedroom(space: Space, p: dict[str, Any], rng: np.random.Generator, n: Name) -> Furnished:
    """The wardrobe, the bed's head on a wall, nightstands near it (floor beside them: the bed keeps the base from
    before them), and in the first bedroom the dresser and the desk."""
    parts = p["parts"]
    wd = put_on_wall(space, n("wardrobe"), 1.2, 0.6, rng, sides=SIDES)  # the most wall and floor first
    head = put_on_wall(space, n("bed"), 1.6, 2.0, rng)
    built = [
        bed(n("bed"), head, 1.6, 2.0),
        cabinet(n("wardrobe"), wd, 1.2, 0.6, 2.0, ["door_left", "door_right"], parts),
    ]
    back = head.shifted(0.0, 2.0)  # the middle of the headboard
    sides = ("left", "right") if n("bed") == "bed" else ("left",)
    for side in sides:
        f = put_on_wall(
            space, n(f"nightstand_{side}"), 0.45, 0.4, rng, drawn(0.4, parts), (0.45, 0.45), near=(back.x, back.y)
        )
        built.append(cabinet(n(f"nightstand_{side}"), f, 0.45, 0.4, 0.55, ["drawers:1"], parts))
    if n("bed") == "bed":
        dr = put_on_wall(space, "dresser", 1.0, 0.5, rng, drawn(0.5, parts))
        built.append(cabinet("dresser", dr, 1.0, 0.5, 0.9, ["drawers:3"], parts))
        desk = put_on_wall(space, "bedroom_desk", 1.1, 0.6, rng)
        built.append(table("bedroom_desk", desk, 1.1, 0.6, 0.75))
    return built, []


def study(space: Space, p: dict[str, Any], rng: np.random.Generator, n: Name) -> Furnished:
    """The desk with its drawer, the tall bookcase, the filing cabinet, each against a wall."""
    desk = put_on_wall(space, n("study_desk"), 1.4, 0.7, rng, drawn(0.6, p["parts"]))
    pull = drawer(f"{n('study_desk')}/drawer_1", desk, (-0.3, 0.3), (0.58, 0.7), 0.55, p["parts"])
    built = [(table(n("study_desk"), desk, 1.4, 0.7, 0.75)[0], [pull])]
    built.append(_shelf(space, n("bookcase_tall"), p["bookcase_tall"], rng))
    fc = put_on_wall(space, n("filing_cabinet"), 0.45, 0.55, rng, drawn(0.55, p["parts"]))
    built.append(cabinet(n("filing_cabinet"), fc, 0.45, 0.55, 0.75, ["drawers:2"], p["parts"]))
    return built, []


def bathroom(space: Space, p: dict[str, Any], rng: np.random.Generator, n: Name) -> Furnished:
    """Bathtub, toilet, sink and towel shelf against the walls; no cabinet."""
    built = [block(n("bathtub"), put_on_wall(space, n("bathtub"), 1.7, 0.75, rng, reach=0.7), BATHTUB)]
    built.append(block(n("toilet"), put_on_wall(space, n("toilet"), 0.44, 0.75, rng, reach=0.7), TOILET))
    built.append(block(n("sink"), put_on_wall(space, n("sink"), 0.56, 0.45, rng, reach=0.7), SINK))
    shelf = put_on_wall(space, n("towel_shelf"), 0.6, 0.3, rng, reach=0.7)
    built.append(bookcase(n("towel_shelf"), shelf, 0.6, 0.3, 1.2, [0.4, 0.8]))
    return built, []


def laundry(space: Space, p: dict[str, Any], rng: np.random.Generator, n: Name) -> Furnished:
    """Washer and dryer (closed blocks) and an open shelf."""
    built = []
    for name in ("washer", "dryer"):
        f = put_on_wall(space, n(name), 0.6, 0.6, rng, reach=0.7)
        built.append(block(n(name), f, {"body": ((-0.3, 0.0, 0.0), (0.3, 0.6, 0.85))}))
    shelf = put_on_wall(space, n("laundry_shelf"), 0.8, 0.35, rng, reach=0.7)
    built.append(bookcase(n("laundry_shelf"), shelf, 0.8, 0.35, 1.6, [0.4, 0.8, 1.2]))
    return built, []


def hallway(space: Space, p: dict[str, Any], rng: np.random.Generator, n: Name) -> Furnished:
    """An empty passage."""
    return [], []


ROOMS = {
    "living_room": living_room,
    "dining_room": dining_room,
    "bedroom": bedroom,
    "study": study,
    "bathroom": bathroom,
    "laundry": laundry,
    "hallway": hallway,
}
