"""Strict, versioned ground-truth annotation files (unknown keys are rejected everywhere).

- ``annotations/assets.json``: :class:`AssetsFile`, one entry per built asset.
- ``annotations/house.json``: :class:`HouseAnnotations`: rooms, supports, obstacles, articulated
  parts, appliances and the robot of the house.
- ``annotations/scenes/<task>__<variant>.json``: :class:`SceneAnnotations`, the house plus every
  placed object at its settled pose, self-contained so the evaluator needs no other file.

Every number is finite, coordinates within 10 km, quaternions unit length (:mod:`housebench.numbers`).
Frames: world frame, metres, Z up. An asset's local frame has its origin at the bottom centre of the
asset (so ``bottom_offset`` is normally 0), Z up. Boxes are axis-aligned ``[xmin, ymin, xmax, ymax]``
on a support, or ``[xmin, ymin, zmin, xmax, ymax, zmax]`` for 3-D boxes.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from housebench.numbers import Coord, Quat, Vec3

Box2 = tuple[Coord, Coord, Coord, Coord]
Box3 = tuple[Coord, Coord, Coord, Coord, Coord, Coord]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class ContainerProfile(Strict):
    """Inner cavity of a container in the asset's local frame (origin at the bottom centre)."""

    shape: Literal["round", "rect"]
    inner_half_extents: tuple[float, float]  # radius twice for round containers
    floor_z: float  # height of the inner floor above the asset's bottom
    rim_z: float  # height of the rim above the asset's bottom

    def holds(self, local: tuple[float, float, float], below: float, above: float) -> tuple[bool, str]:
        """Whether a point in the local frame lies in the cavity (across its walls, ``floor-below ..
        rim+above`` high), and what was measured."""
        lx, ly, lz = (float(c) for c in local)
        hx, hy = self.inner_half_extents
        if self.shape == "round":
            radial = math.hypot(lx, ly)
            across, what = radial <= hx, f"radius {radial:.6f} (max {hx})"
        else:
            across, what = abs(lx) <= hx and abs(ly) <= hy, f"offset ({lx:.6f}, {ly:.6f}) (max {hx}, {hy})"
        level = self.floor_z - below <= lz <= self.rim_z + above
        return across and level, (
            f"{what}{'' if across else ' FAIL'}, height {lz:.6f} "
            f"({self.floor_z}-{below} .. {self.rim_z}+{above}){'' if level else ' FAIL'}"
        )


class GraspPrimitive(Strict):
    """One way a parallel gripper can take the asset, in the asset's local frame."""

    kind: Literal["top_pinch", "rim_pinch", "handle_pinch", "edge_pinch_after_push"]
    point: Vec3  # centre between the fingertips
    axis: Vec3  # closing direction of the jaws (unit vector)
    width: float  # object width between the jaws, metres


SECTION_HEIGHT = 0.005  # m: the slab of an asset's hulls one :class:`HullSection` outlines


class HullSection(Strict):
    """The outline (asset frame, x and y) round an asset's collision hulls from ``z`` to ``z`` plus
    ``SECTION_HEIGHT`` over its bottom (:mod:`housebench.assets.sections`)."""

    z: float = Field(ge=0)
    outline: list[tuple[Coord, Coord]] = Field(min_length=1, max_length=64)


class AssetAnnotation(Strict):
    name: str
    category: str
    size: Vec3  # extents x, y, z in metres, Z up
    mass: float = Field(gt=0)
    tags: list[str] = Field(default_factory=list)
    bottom_offset: float = 0.0  # height of the lowest point below the asset origin
    container: ContainerProfile | None = None
    grasps: list[GraspPrimitive] = Field(default_factory=list)
    grasp_note: str | None = None  # why no grasp primitive fits (set when ``grasps`` is empty)
    sections: list[HullSection] = Field(default_factory=list, max_length=1000)  # bottom up, one a slab high


class AssetsFile(Strict):
    version: Literal[1] = 1
    assets: dict[str, AssetAnnotation]


class Support(Strict):
    """A horizontal surface things can rest on."""

    name: str  # e.g. "table/top", "shelf/level_1"
    owner: str  # furniture the surface belongs to, e.g. "table"
    height: float  # world z of the surface
    box: Box2
    clearance: float | None = None  # free height above the surface (None: open to the ceiling)


class Obstacle(Strict):
    name: str
    box: Box3


class Room(Strict):
    name: str
    polygon: list[tuple[float, float]]


class Footprint(Strict):
    """The robot seen from above, with heights, at its home pose (torso down, arm tucked): a base disc
    and the column standing on it (torso, tucked arm, head). Measured from the robot's model."""

    radius: float  # the base disc, metres
    base_height: float  # top of the base above the floor
    column_radius: float  # the column's farthest point from the base centre (any heading)
    column: Box2  # the column's extent in the base frame (x forward, y left): xmin, ymin, xmax, ymax
    height: float  # top of the robot


class ReachBand(Strict):
    """Where the gripper takes a point whose height is within ``z``: its horizontal distance from the
    base centre, the base facing it, lies in ``[min, max]``."""

    z: tuple[float, float]
    min: float
    max: float


class RobotAnnotation(Strict):
    name: str = "fetch"
    start: Vec3  # x, y, yaw
    gripper_opening: float  # metres
    footprint: Footprint
    reach: list[ReachBand] = Field(min_length=1)  # by height, lowest first

    def reach_at(self, z: float) -> ReachBand | None:
        """The band for a point at height ``z`` (None: no grasp at that height)."""
        return next((b for b in self.reach if b.z[0] <= z <= b.z[1]), None)

    @property
    def max_reach(self) -> float:
        return max(b.max for b in self.reach)


class Handle(Strict):
    """Where a gripper takes an articulated part, at the closed pose."""

    center: Vec3
    normal: Vec3  # outward normal of the face the handle sits on
    grasp: Vec3  # approach direction of the gripper (towards the face)
    box: Box3


class ArticulatedPart(Strict):
    """A door, drawer, button or key: a rigid body on one joint, closed at ``closed``."""

    name: str  # joint name in SimState.joints, "<owner>/<part>", e.g. "fridge/door"
    owner: str
    category: Literal["door", "drawer", "button", "knob"]
    joint: Literal["revolute", "prismatic"]
    axis: Vec3  # world unit axis; q grows along it (right hand for revolute)
    pivot: Vec3  # a world point on the axis
    limits: tuple[float, float]  # rad or m
    closed: float
    open: float  # counts as fully open (pressed, switched on)
    box: Box3  # the moving part's box at the closed pose
    handle: Handle


class ApplianceAnnotation(Strict):
    """What the task-level thermal model needs of a fridge, microwave or stove."""

    name: str
    kind: Literal["fridge", "microwave", "stove"]
    cavity: Box3 | None = None  # heated or cooled inside
    door: str | None = None  # joint name of its door
    switch: str | None = None  # joint name of its start button or power key
    zones: list[Box3] = Field(default_factory=list)  # heating zones (burners)


class HouseAnnotations(Strict):
    version: Literal[1] = 1
    rooms: list[Room]
    supports: list[Support]
    obstacles: list[Obstacle]
    robot: RobotAnnotation
    articulated: list[ArticulatedPart] = Field(default_factory=list)
    appliances: list[ApplianceAnnotation] = Field(default_factory=list)
    bounds: Box2 | None = None  # the house's floor, [xmin, ymin, xmax, ymax]


class PlacedObject(Strict):
    asset: AssetAnnotation
    pos: Vec3
    quat: Quat  # w, x, y, z
    support: str | None = None  # name of the support it rests on
    box: Box3 | None = None  # world axis-aligned box of the asset's extent at this pose
    room: str | None = None  # the room its centre stands in


class SceneAnnotations(Strict):
    version: Literal[1] = 1
    scene: str  # "<task>/<variant>"
    house: HouseAnnotations
    objects: dict[str, PlacedObject]
