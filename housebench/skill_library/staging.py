"""Where both brains set an item down beside a door appliance: one rule, apart from the skills, so the symbolic
planner (the plan stage) reads it without importing any skill."""

from __future__ import annotations

from housebench.annotations.schema import ApplianceAnnotation, HouseAnnotations, Support
from housebench.skills.tuning import tuning
from housebench.tasks.geometry import box_distance


def staging_surface(house: HouseAnnotations, appliance: ApplianceAnnotation) -> Support | None:
    """Where both brains set an item down beside ``appliance`` to free the hand (a door) or to take it again from
    the side: the open top of no appliance, within ``skills.appliance.stage_heights_m`` (no floor, and low enough for
    a place from above), whose box edge comes nearest the cavity's centre (None when the house has none).

    The edge, not the surface's centre: a long counter whose end stands beside the microwave is nearer than a small
    table whose middle is, and a side pick reaches only so deep from the edge the base stands at."""
    x0, y0, _, x1, y1, _ = appliance.cavity
    middle = ((x0 + x1) / 2, (y0 + y1) / 2)
    owners = {a.name for a in house.appliances}
    low, high = tuning().appliance.stage_heights_m
    tops = [s for s in house.supports if s.clearance is None and s.owner not in owners and low <= s.height <= high]
    return min(tops, key=lambda s: box_distance(s.box, middle), default=None)
