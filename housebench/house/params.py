"""The ``house:`` section of ``params.yaml``: the plan, the furniture the tasks name, and the articulated
parts. The generator reads it as a plain mapping (``HouseParams.model_dump()``)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from housebench.house.looks import STYLES
from housebench.params import Section

Metres = Annotated[float, Field(gt=0, le=100)]


class Bookcase(Section):
    width: Metres
    depth: Metres
    height: Metres
    levels: list[Metres] = Field(max_length=20)  # shelf heights


class Damped(Section):
    damping: float = Field(ge=0)


class Sprung(Section):
    stiffness: float = Field(ge=0)
    damping: float = Field(ge=0)


class Parts(Section):
    """Articulated fronts: geometry, ranges and joint dynamics (closed at q = 0)."""

    panel: Metres  # door / drawer front thickness
    door_range: float = Field(gt=0, le=3.2)  # rad
    door_open: float = Field(gt=0, le=3.2)  # rad: counts as open
    drawer_travel: float = Field(gt=0, le=1)  # fraction of the drawer's depth it pulls out
    button_travel: Metres
    door: Damped
    drawer: Damped
    button: Sprung
    knob: Damped


class Looks(Section):
    """Materials, textures and lights (README "Looks"): what the cameras see; no collider, mass or contact reads
    them."""

    styles: list[Literal[tuple(STYLES)]] = Field(max_length=len(STYLES))  # type: ignore[valid-type]
    texture_px: int = Field(ge=8, le=1024)  # side of every texture, pixels
    room_light: float = Field(ge=0, le=1)  # brightness of each room's light (MuJoCo's diffuse)


class HouseParams(Section):
    seed: int = Field(ge=0)
    size: list[Metres] = Field(min_length=2, max_length=2)  # x, y extents inside the outer walls
    splits_x: list[Metres] = Field(min_length=2, max_length=2)  # x of the walls between the columns of rooms
    split_y: Metres  # y of the wall between the south and the north row
    jitter: float = Field(ge=0, le=1)
    furniture_jitter: float = Field(ge=0, le=1)
    wall_height: Metres
    wall_thickness: Metres
    door_width: Metres
    door_height: Metres
    robot_start: list[float] = Field(min_length=3, max_length=3)  # x, y, yaw (rad)
    grid: float = Field(ge=0.01, le=1)  # free-floor grid resolution, metres (bounded: the grid is in memory)
    bookcase_low: Bookcase
    bookcase_tall: Bookcase
    parts: Parts
    looks: Looks
