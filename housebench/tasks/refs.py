"""Names in task files resolved against the house annotations (one rule for sampler and evaluator).

- a support reference is a support's name (``bookcase_tall/level_1``), its owner (``dining_table``:
  every surface of it) or a place alias of the task (``"places": {"bookcase": ["bookcase_low",
  "bookcase_tall"]}``: any surface of any of them);
- an appliance's inside is every surface of it within its cavity (fridge shelves, microwave floor);
- a part reference is a part's name (``fridge/door``), its owner (``microwave``: every part of it)
  or ``all`` (every articulated part of the house).
"""

from __future__ import annotations

from housebench.annotations.schema import ApplianceAnnotation, ArticulatedPart, HouseAnnotations, Support

ALL_PARTS = "all"


def supports(ref: str, places: dict[str, list[str]], house: HouseAnnotations) -> list[Support]:
    """The supports ``ref`` names (empty when it names none)."""
    names = places.get(ref, [ref])
    return [s for s in house.supports if s.name in names or s.owner in names]


def appliance(name: str, house: HouseAnnotations) -> ApplianceAnnotation | None:
    return next((a for a in house.appliances if a.name == name), None)


def inside_supports(name: str, house: HouseAnnotations) -> list[Support]:
    """The surfaces inside appliance ``name``'s cavity (empty for no such appliance or cavity)."""
    found = appliance(name, house)
    if found is None or found.cavity is None:
        return []
    x0, y0, z0, x1, y1, z1 = found.cavity
    return [
        s
        for s in house.supports
        if s.owner == name
        and z0 <= s.height < z1
        and x0 <= (s.box[0] + s.box[2]) / 2 <= x1
        and y0 <= (s.box[1] + s.box[3]) / 2 <= y1
    ]


def parts(ref: str, house: HouseAnnotations) -> list[ArticulatedPart]:
    """The articulated parts ``ref`` names (empty when it names none)."""
    return [p for p in house.articulated if ref in (ALL_PARTS, p.name, p.owner)]


def boxes(ref: str, house: HouseAnnotations) -> list[tuple[float, ...]]:
    """The 3-D boxes of what ``ref`` names in the house: obstacles named ``ref`` or ``ref/...``,
    articulated parts (by name or owner) and supports (by name or owner, as a thin slab)."""
    found = [o.box for o in house.obstacles if o.name == ref or o.name.startswith(f"{ref}/")]
    found += [p.box for p in parts(ref, house) if ref != ALL_PARTS]
    found += [(s.box[0], s.box[1], s.height, s.box[2], s.box[3], s.height) for s in supports(ref, {}, house)]
    return found
