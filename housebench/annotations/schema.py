"""Strict, versioned ground-truth annotation files (unknown keys are rejected everywhere).

- ``annotations/assets.json``: :class:`AssetsFile`, one entry per built asset.
- ``annotations/house.json``: :class:`HouseAnnotations`, supports / obstacles / robot of the house.
- ``annotations/scenes/<task>__<variant>.json``: :class:`SceneAnnotations`, the house plus every
  placed object at its settled pose, self-contained so the evaluator needs no other file.

Frames: world frame, metres, Z up. An asset's local frame has its origin at the bottom centre of the
asset (so ``bottom_offset`` is normally 0), Z up. Boxes are axis-aligned ``[xmin, ymin, xmax, ymax]``
on a support, or ``[xmin, ymin, zmin, xmax, ymax, zmax]`` for 3-D boxes.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Vec3 = tuple[float, float, float]
Quat = tuple[float, float, float, float]
Box2 = tuple[float, float, float, float]
Box3 = tuple[float, float, float, float, float, float]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ContainerProfile(Strict):
    """Inner cavity of a container in the asset's local frame (origin at the bottom centre)."""

    shape: Literal["round", "rect"]
    inner_half_extents: tuple[float, float]  # radius twice for round containers
    floor_z: float  # height of the inner floor above the asset's bottom
    rim_z: float  # height of the rim above the asset's bottom


class AssetAnnotation(Strict):
    name: str
    category: str
    size: Vec3  # extents x, y, z in metres, Z up
    mass: float
    tags: list[str] = Field(default_factory=list)
    bottom_offset: float = 0.0  # height of the lowest point below the asset origin
    container: ContainerProfile | None = None


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


class RobotAnnotation(Strict):
    name: str = "fetch"
    start: Vec3  # x, y, yaw
    reach: float  # horizontal reach from the base centre, metres
    gripper_opening: float  # metres


class HouseAnnotations(Strict):
    version: Literal[1] = 1
    rooms: list[Room]
    supports: list[Support]
    obstacles: list[Obstacle]
    robot: RobotAnnotation


class PlacedObject(Strict):
    asset: AssetAnnotation
    pos: Vec3
    quat: Quat  # w, x, y, z
    support: str | None = None  # name of the support it rests on


class SceneAnnotations(Strict):
    version: Literal[1] = 1
    scene: str  # "<task>/<variant>"
    house: HouseAnnotations
    objects: dict[str, PlacedObject]
