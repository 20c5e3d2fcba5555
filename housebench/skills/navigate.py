"""navigate: drive the base to a pose along an A* path over the free floor (arm held as it is); with the arm
out of the tuck, through cells with room for it where there are such (:func:`arm_room`)."""

from __future__ import annotations

import hashlib
import math

import networkx as nx
import numpy as np

from housebench.annotations.schema import ArticulatedPart, Footprint, HouseAnnotations
from housebench.house.floor import FloorGrid, free_grid, grid_axes
from housebench.house.query import HouseQuery
from housebench.house.stance import HIGH, MARGIN, TOP_BOX
from housebench.planning.base_path import BasePlanner, NoPath, grid_graph
from housebench.skills.base import Reason, Skill, SkillContext, SkillGen
from housebench.skills.legs import base_joints, drive_path, turn_clear
from housebench.skills.motion import arm_clear
from housebench.skills.tuning import tuning
from housebench.skills.view import tucked, wrap
from housebench.state import Observation
from housebench.tasks.geometry import world_box


def part_points(part: ArticulatedPart, points, q: float) -> np.ndarray:
    """World ``points`` (n x 3) of ``part`` at its closed pose, moved with it to joint value ``q``."""
    points = np.atleast_2d(np.asarray(points, float))
    axis, moved = np.array(part.axis), q - part.closed
    if part.joint == "prismatic":
        return points + axis * moved
    rel = points - np.array(part.pivot)
    c, s = np.cos(moved), np.sin(moved)
    rel = rel * c + np.cross(axis, rel) * s + np.outer(rel @ axis, axis) * (1 - c)  # Rodrigues
    return np.array(part.pivot) + rel


def part_box(part: ArticulatedPart, q: float) -> tuple[float, ...]:
    """The world box round ``part``'s annotated box moved to joint value ``q``."""
    lo, hi = np.array(part.box[:3]), np.array(part.box[3:])
    corners = np.array(
        [[(lo, hi)[i][0], (lo, hi)[j][1], (lo, hi)[k][2]] for i in (0, 1) for j in (0, 1) for k in (0, 1)]
    )
    corners = part_points(part, corners, q)
    return (*map(float, corners.min(axis=0)), *map(float, corners.max(axis=0)))


def prop_boxes(ctx: SkillContext, obs: Observation, skip: tuple[str, ...] = ()) -> list[tuple[float, ...]]:
    """Every prop's box where it is now (but ``skip``)."""
    return [
        tuple(world_box(pose, ctx.scene.objects[name].asset))
        for name, pose in obs.objects.items()
        if name not in skip and name in ctx.scene.objects
    ]


def obstacle_boxes(ctx: SkillContext, obs: Observation, skip: tuple[str, ...] = ()) -> list[tuple[float, ...]]:
    """The house's obstacle boxes and what moves (:func:`moving_boxes`); an open door's or drawer's
    boxes where it stands closed are left out (its box where it stands now replaces them)."""
    moved = tuple(name + "/" for name in _open_parts(ctx, obs, skip))
    return [o.box for o in ctx.scene.house.obstacles if not o.name.startswith(moved)] + moving_boxes(ctx, obs, skip)


def _open_parts(ctx: SkillContext, obs: Observation, skip: tuple[str, ...]) -> dict[str, tuple[ArticulatedPart, float]]:
    """(part, joint value) of every open door or drawer but ``skip``, by name."""
    query = HouseQuery(ctx.scene.house)
    out = {}
    for name, q in obs.parts.items():
        part = query.parts.get(name)
        movable = part is not None and part.category in ("door", "drawer") and name not in skip
        if movable and abs(q - part.closed) > tuning().navigate.open_part:
            out[name] = (part, q)
    return out


def open_part_boxes(ctx: SkillContext, obs: Observation, skip: tuple[str, ...] = ()) -> list[tuple[float, ...]]:
    """Every open door's or drawer's box where it stands now (but ``skip``)."""
    return [part_box(part, q) for part, q in _open_parts(ctx, obs, skip).values()]


def moving_boxes(ctx: SkillContext, obs: Observation, skip: tuple[str, ...] = ()) -> list[tuple[float, ...]]:
    """Every open door's or drawer's box where it stands now and every prop's box where it is now (but
    ``skip``: props or parts)."""
    return open_part_boxes(ctx, obs, skip) + prop_boxes(ctx, obs, skip)


HouseFloor = tuple[tuple[float, float, float, float], FloorGrid, nx.Graph, np.ndarray]
_FLOORS: dict[str, HouseFloor] = {}  # per house (its annotations' hash): one process plans in few houses
FLOORS_KEPT = 4  # houses kept (a cache's size, not a tuning)
ARM_SIDE = TOP_BOX[2] + MARGIN  # m: the carry arm's reach to the side (the stance footprint's, with its margin)


def _house_floor(ctx: SkillContext) -> HouseFloor:
    """The bounds of the house's free-floor grid, its free cells without props, their graph and the cells
    with room for the carry arm (:func:`arm_room`), built once per house and process (every episode of a
    worker plans in the same house; nothing mutates them)."""
    arm_top = tuning().navigate.arm_top_m
    key = hashlib.sha256(ctx.scene.house.model_dump_json().encode()).hexdigest() + f"/{arm_top!r}"
    if key not in _FLOORS:
        if len(_FLOORS) >= FLOORS_KEPT:
            _FLOORS.pop(next(iter(_FLOORS)))
        _FLOORS[key] = _build_house_floor(ctx.scene.house, arm_top)
    return _FLOORS[key]


def _build_house_floor(house: HouseAnnotations, arm_top: float) -> HouseFloor:
    query = HouseQuery(house)
    res = query.resolution
    xs, ys = grid_axes(query.bounds, res)
    bounds = (float(xs[0]) - res / 2, float(ys[0]) - res / 2)
    bounds += (bounds[0] + len(xs) * res, bounds[1] + len(ys) * res)
    free = free_grid((o.box for o in house.obstacles), bounds, house.robot.footprint, res)
    return bounds, free, grid_graph(free.free), arm_room([o.box for o in house.obstacles], bounds, res, arm_top)


def arm_room(boxes: list[tuple[float, ...]], bounds: tuple[float, ...], res: float, arm_top: float) -> np.ndarray:
    """The cells whose centre keeps :data:`ARM_SIDE` off every one of ``boxes`` between the stance
    footprint's ``HIGH`` and ``arm_top`` (``skills.navigate.arm_top_m``): a base there turns the carry arm
    clear of door jambs, walls and tall furniture (at the 0.28 m the footprint keeps, the upper arm struck a door
    jamb)."""
    band = Footprint(radius=0.0, base_height=HIGH, column_radius=ARM_SIDE, column=(0.0, 0.0, 0.0, 0.0), height=arm_top)
    return free_grid(boxes, bounds, band, res).free


def planner(ctx: SkillContext, obs: Observation, skip: tuple[str, ...] = ()) -> BasePlanner:
    """A base planner over the free floor with the props and open parts where they stand now (but
    ``skip``). The house's own part of the grid and its graph are built once per house (:func:`_house_floor`): a
    cell is free when it is free of the house and of what moves. A roomy path keeps the carry arm's room off an open
    part as off the house's boxes, round its goal too: a door's leaf gives way to the arm (no joint stalls), so a path
    hugging it with the arm out swept it shut."""
    bounds, house, graph, room = ctx.tool("house_floor", lambda: _house_floor(ctx))  # hashed once per context
    props = free_grid(moving_boxes(ctx, obs, skip), bounds, ctx.scene.house.robot.footprint, house.resolution)
    parts = open_part_boxes(ctx, obs, skip)
    keep = arm_room(parts, bounds, house.resolution, tuning().navigate.arm_top_m) if parts else None
    return BasePlanner(FloorGrid(props.x0, props.y0, props.resolution, house.free & props.free), graph, room, keep)


class Navigate(Skill):
    name = "navigate"

    @property
    def timeout_s(self) -> float:  # type: ignore[override]
        return tuning().navigate.timeout_s

    def __init__(
        self, pose: tuple[float, float, float], why: str = "", skip: tuple[str, ...] = (), look: str | None = None
    ) -> None:
        self.pose, self.why, self.skip = pose, why, skip  # skip: props that move with the robot
        self.look = look or why or None  # what it drives to (an object, surface or part), for the head

    def target(self) -> str:
        return self.why or f"({self.pose[0]:.2f}, {self.pose[1]:.2f})"

    def look_at(self) -> str | None:
        return self.look

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        start = obs.base[:2]
        if math.dist(start, self.pose[:2]) < tuning().navigate.at_goal_m:
            path = [start, self.pose[:2]]
        else:
            try:
                path = planner(ctx, obs, self.skip).path(start, self.pose[:2], roomy=not tucked(obs))
            except NoPath as err:
                raise self.fail(Reason.NO_PATH, error=str(err)) from None
        ctx.log("base_path", waypoints=len(path), length=round(sum(math.dist(a, b) for a, b in zip(path, path[1:])), 3))
        return (yield from drive_path(self.name, obs, path, self.pose[2], ctx))


def arrive(pose, start, ctx: SkillContext, obs: Observation, why: str) -> tuple[Skill, ...]:
    """Drive from ``start`` (x, y, ...) to ``pose`` facing the way there, then turn on the spot: turned
    before the last leg (as a plain navigate does), the carry arm swept what the path passes (it shoved an
    open fridge door past its stop). Where the arm as it is (with what it holds) would stand in the house
    facing the way there, or sweep into it turning on the spot, backing in; where both would, as a plain
    navigate (a book held out ahead, driven at the study desk's wall, struck it and turned in the pinch)."""
    x, y, yaw = pose
    if math.dist((x, y), start[:2]) < tuning().navigate.arrive_near_m:
        return (Navigate(pose, why=why),)
    ahead = math.atan2(y - start[1], x - start[0])
    for heading in (ahead, wrap(ahead + math.pi)):
        if arm_clear(ctx, obs, base_joints((x, y, heading))) and turn_clear(
            ctx, obs, (x, y), heading, wrap(yaw - heading)
        ):
            return Navigate((x, y, heading), why=why), Navigate(pose, why=why)
    return (Navigate(pose, why=why),)
