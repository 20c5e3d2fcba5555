"""Number types for the strict models: finite, and inside the range the quantity can have.

NaN and infinity are refused everywhere (the JSON reader refuses them while parsing; these types
refuse them in data built in Python, such as a simulator state that blew up), and so are values out of
range: a coordinate beyond :data:`MAX_COORD` metres, a negative tolerance, a tilt over 180 degrees, a
temperature below absolute zero. A quaternion must be unit length within :data:`QUAT_TOL`; it is
refused otherwise, never normalised, so a typo cannot silently become a rotation.
"""

from __future__ import annotations

import math
from typing import Annotated

from pydantic import AfterValidator, Field

MAX_COORD = 1e4  # metres from the origin: far outside any house
MAX_SPEED = 1e3  # m/s or rad/s
QUAT_TOL = 1e-3  # allowed | |q| - 1 |


def _unit(quat: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    norm = math.sqrt(sum(q * q for q in quat))
    if abs(norm - 1.0) > QUAT_TOL:
        raise ValueError(f"quaternion {list(quat)} has length {norm:.6g}, not 1 (within {QUAT_TOL})")
    return quat


Finite = Annotated[float, Field(allow_inf_nan=False)]
Coord = Annotated[float, Field(ge=-MAX_COORD, le=MAX_COORD, allow_inf_nan=False)]
Speed = Annotated[float, Field(ge=-MAX_SPEED, le=MAX_SPEED, allow_inf_nan=False)]
Length = Annotated[float, Field(ge=0.0, le=MAX_COORD, allow_inf_nan=False)]  # a distance or tolerance, metres
Degrees = Annotated[float, Field(ge=0.0, le=180.0, allow_inf_nan=False)]
Radians = Annotated[float, Field(ge=0.0, le=2 * math.pi, allow_inf_nan=False)]
Seconds = Annotated[float, Field(ge=0.0, le=1e7, allow_inf_nan=False)]
Celsius = Annotated[float, Field(ge=-273.15, le=1e4, allow_inf_nan=False)]
Vec3 = tuple[Coord, Coord, Coord]
Quat = Annotated[tuple[Finite, Finite, Finite, Finite], AfterValidator(_unit)]
