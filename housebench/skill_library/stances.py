"""Where the base goes for a library call: a free stance on rings round the target, or the next call's own (a side
pick's or place's), the arm tucked or in the carry pose as the drive needs; ``navigate``, ``approach``, ``face`` and
``retreat``'s skills."""

from __future__ import annotations

import math

import numpy as np

from housebench.annotations.schema import Support
from housebench.house.query import HouseQuery
from housebench.house.reach import candidates, near_cells
from housebench.house.stance import stance_free
from housebench.planning.base_path import NoPath
from housebench.skill_library.choose import for_call
from housebench.skill_library.contracts import World
from housebench.skill_library.extra_skills import Sequence
from housebench.skills.base import Reason, Skill, SkillContext, SkillFailure
from housebench.skills.body import Pose
from housebench.skills.carry import Carry
from housebench.skills.front import lead_in
from housebench.skills.navigate import Navigate, arrive, obstacle_boxes, part_box, planner
from housebench.skills.side import SidePick, SidePlace
from housebench.skills.tuning import tuning
from housebench.skills.view import held
from housebench.state import Observation
from housebench.tasks import geometry, refs


def target_box(world: World, obs: Observation, name: str) -> tuple[float, ...]:
    """The world box of an object (where it is now) or of a named piece of the house."""
    if name in world.scene.objects:
        return geometry.world_box(obs.objects[name], world.scene.objects[name].asset)
    found = refs.boxes(name, world.scene.house)
    if not found:
        raise SkillFailure("navigate", Reason.UNSUPPORTED, target=name)
    lo, hi = np.min([b[:3] for b in found], axis=0), np.max([b[3:] for b in found], axis=0)
    return (*map(float, lo), *map(float, hi))


def stance(world: World, ctx: SkillContext, obs: Observation, name: str, skip=()) -> tuple[float, float, float]:
    """A free base pose facing ``name``'s box centre on rings around it (``skills.runtime.stance_rings_m``), at
    most ``max_gap_m`` from its box, inside a room, on the reachable floor (the skills' own footprint and floor
    grid)."""
    box = target_box(world, obs, name)
    centre = ((box[0] + box[3]) / 2, (box[1] + box[4]) / 2)
    reach = max(box[3] - box[0], box[4] - box[1]) / 2
    base_planner = planner(ctx, obs, skip)
    grid = base_planner.grid
    try:
        reachable = grid.reachable(*base_planner.world(base_planner.nearest_free(obs.base[:2])))
    except NoPath as err:  # hemmed in (by a dropped prop): the node fails, the episode goes on
        raise SkillFailure("navigate", Reason.NO_PATH, error=str(err)) from None
    boxes = obstacle_boxes(ctx, obs, skip)
    rooms = HouseQuery(ctx.scene.house)

    def accept(pose) -> bool:  # inside a room: a ring pose beyond an outer wall is off the floor grid
        gap = math.hypot(max(box[0] - pose[0], 0.0, pose[0] - box[3]), max(box[1] - pose[1], 0.0, pose[1] - box[4]))
        inside = rooms.room_at(pose[0], pose[1]) is not None
        return (
            inside
            and gap <= tune.max_gap_m
            and near_cells(reachable, grid, pose, tune.reachable_m)
            and stance_free(pose, boxes)
        )

    tune = tuning().runtime
    for pose in candidates(centre, accept, tuple(reach + d for d in tune.stance_rings_m)):
        return pose
    raise SkillFailure("navigate", Reason.UNREACHABLE, target=name)


def navigate(args, world: World, ctx: SkillContext, obs: Observation) -> Skill:
    """With an empty hand the arm tucked to a door or button (as open and close drive in) and away from
    beside an open door (an arm out turning there sweeps the door's swing), unfolded at the stance; else in
    the carry pose, facing the way there and turned at the stance (:func:`arrive`: a held item rides a long
    straight drive better than a turn on the way; into an appliance, in front of its opening first:
    :func:`lead_in`). The stance is the next call's own where that is a side pick or place of the target
    (:func:`next_stance`), else a ring pose round the target (:func:`stance`)."""
    name = args["target"]
    if held(obs) is None and name in world.query.parts:
        return Sequence("navigate", Pose("tuck"), Navigate(stance(world, ctx, obs, name), why=name))
    own = next_stance(name, world, ctx, obs)
    pose = own or stance(world, ctx, obs, name)
    if held(obs) is None and beside_open_door(world, obs):
        return Sequence("navigate", Pose("tuck"), Navigate(pose, why=name), Carry())
    front = lead_in(ctx, obs, support) if own and (support := named_support(world, name)) else None
    if front is not None:  # into an appliance: in front of its opening first, then on to the place's stance
        return Sequence(
            "navigate",
            Carry(),
            Navigate(front, why=f"in front of {name}", look=name),
            *arrive(pose, front, ctx, obs, name),
        )
    return Sequence("navigate", Carry(), *arrive(pose, obs.base, ctx, obs, name))


def named_support(world: World, name: str) -> Support | None:
    """The support ``name`` names (None for an object or a part)."""
    if name in world.scene.objects:
        return None
    found = refs.supports(name, world.places, world.scene.house)
    return found[0] if found else None


def next_stance(name: str, world: World, ctx: SkillContext, obs: Observation) -> tuple[float, float, float] | None:
    """The base pose of the plan's next call when it is a side pick or place of ``name`` (an item in or
    bound for a fridge or microwave), or None: from a ring pose the side skill's own approach turns the arm,
    or the held item, through the appliance's side and its open door's swing."""
    verb, args = world.next_call or ("", {})
    if verb not in ("pick", "place") or name not in (args.get("object"), args.get("support")):
        return None
    try:
        parts = for_call(verb, args, world, ctx, obs)
        return parts[0].stance(ctx, obs) if isinstance(parts[0], (SidePick, SidePlace)) else None
    except SkillFailure:  # none reaches from here: the call says so itself
        return None


def beside_open_door(world: World, obs: Observation) -> bool:
    """Whether an open door stands within ``skills.runtime.door_near_m`` of the base."""
    x, y, _ = obs.base
    near = tuning().runtime.door_near_m
    for name, q in obs.parts.items():
        part = world.query.parts.get(name)
        if part is not None and part.category == "door" and abs(q - part.closed) > tuning().navigate.open_part:
            box = part_box(part, q)
            if math.hypot(max(box[0] - x, 0.0, x - box[3]), max(box[1] - y, 0.0, y - box[4])) < near:
                return True
    return False


def face(args, world: World, ctx: SkillContext, obs: Observation) -> Skill:
    box = target_box(world, obs, args["target"])
    x, y, _ = obs.base
    yaw = math.atan2((box[1] + box[4]) / 2 - y, (box[0] + box[3]) / 2 - x)
    return Navigate((x, y, yaw), why=args["target"])


def retreat(args, world: World, ctx: SkillContext, obs: Observation) -> Skill:
    x, y, yaw = obs.base
    back = tuning().runtime.retreat_m
    return Navigate((x - back * math.cos(yaw), y - back * math.sin(yaw), yaw), why=args["target"])
