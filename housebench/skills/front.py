"""Where the base stands in front of an appliance's opening, clear of its open door.

:func:`opening_front` is the pose ``skills.front.front_m`` out from the middle of the opening the open door leaves free,
facing it; :func:`lead_in` is that pose for a carry into an appliance, when its door is open and the pose
keeps ``skills.front.lead_clear_m`` off the door (the microwave's; the fridge's door leaves no such pose): a carry
driven straight to the place's stance from aside sweeps the carried hand through the open door's swing, shutting
the door against the place.
"""

from __future__ import annotations

import math

import numpy as np

from housebench.annotations.schema import ApplianceAnnotation, HouseAnnotations, Support
from housebench.skills.base import SkillContext
from housebench.skills.door import Door, door_part, seg_dist
from housebench.skills.navigate import moving_boxes
from housebench.skills.side.opening import free_opening, open_edges
from housebench.skills.tuning import tuning
from housebench.state import Observation
from housebench.tasks import refs


def owner(house: HouseAnnotations, supports: list[Support]) -> ApplianceAnnotation | None:
    """The appliance every one of ``supports`` is inside, if any."""
    for app in house.appliances:
        inner = {s.name for s in refs.inside_supports(app.name, house)}
        if supports and all(s.name in inner for s in supports):
            return app
    return None


def opening_front(ctx: SkillContext, obs: Observation, door: str) -> tuple[float, float, float] | None:
    """The base pose ``skills.front.front_m`` out from the middle of the opening that the open ``door`` leaves free,
    facing it (None when its appliance has no surface inside)."""
    app = next(a for a in ctx.scene.house.appliances if a.door == door)
    inner = refs.inside_supports(app.name, ctx.scene.house)
    if not inner:
        return None
    low = min(inner, key=lambda s: s.height)
    edge = open_edges(ctx.scene.house, low)[0]
    top = low.height + (low.clearance or 0.0)
    box = free_opening(edge, moving_boxes(ctx, obs), low.height, top).box
    n = np.asarray(edge.normal)
    mid = np.array([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2])
    at = mid + n * (edge.coord - float(mid @ n) + tuning().front.front_m)
    return float(at[0]), float(at[1]), math.atan2(-n[1], -n[0])


def lead_in(ctx: SkillContext, obs: Observation, support: Support) -> tuple[float, float, float] | None:
    """The pose in front of the opening of the appliance ``support`` is in, when its door is open and
    that pose keeps ``skills.front.lead_clear_m`` off the door; else None."""
    app = owner(ctx.scene.house, [support])
    part = door_part(ctx, app.door) if app is not None and app.door else None
    if (
        part is None
        or part.joint != "revolute"
        or abs(obs.parts.get(part.name, part.closed) - part.closed) < tuning().navigate.open_part
    ):
        return None
    front = opening_front(ctx, obs, part.name)
    hinge, edge = Door(part).segment(obs.parts[part.name])
    clear = front is not None and seg_dist(np.asarray(front[:2]), hinge, edge) >= tuning().front.lead_clear_m
    return front if clear else None
