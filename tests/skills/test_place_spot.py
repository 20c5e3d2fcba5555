"""The free spot a place picks on a surface: nearest the point asked for, clear of the other objects and,
for an object carried in level from an edge, of the way in from that edge (a duck carried in over a desk
pushed the toy car set down before it off the desk's end: clear_shelf v011, v016)."""

from __future__ import annotations

import math
from types import SimpleNamespace

from housebench.annotations.schema import Support
from housebench.skills.place import spot
from housebench.state import ObjectState

DESK = Support(name="desk/top", owner="desk", height=0.75, box=(0.0, 0.0, 1.4, 0.7))
SIZES = {"duck": (0.115, 0.07, 0.09), "car": (0.1, 0.06, 0.049)}
CTX = SimpleNamespace(
    scene=SimpleNamespace(objects={n: SimpleNamespace(asset=SimpleNamespace(size=s)) for n, s in SIZES.items()})
)
CAR_AT = (1.25, 0.15)  # set down near the desk's east end
OBS = SimpleNamespace(objects={"car": ObjectState(pos=(*CAR_AT, 0.75), quat=(1.0, 0.0, 0.0, 0.0))})
EAST = ((1.0, 0.0), 1.4)  # the duck comes in level from the east edge
NEAR = (1.4, -2.0)  # the robot south of the desk, on the east edge line: the south-east corner is nearest
HALF = (0.1, 0.1)


def test_without_a_way_in_the_nearest_free_spot_may_lie_behind_another_object():
    at = spot(DESK, OBS, CTX, "duck", NEAR, HALF)
    assert at[0] < CAR_AT[0] and abs(at[1] - CAR_AT[1]) < 0.1  # straight behind the car, seen from the east


def test_the_way_in_from_the_edge_passes_no_other_object():
    at = spot(DESK, OBS, CTX, "duck", NEAR, HALF, entry=EAST)
    clear = (math.hypot(*SIZES["duck"][:2]) + math.hypot(*SIZES["car"][:2])) / 2 + 0.02
    assert at[0] > CAR_AT[0] or abs(at[1] - CAR_AT[1]) >= clear  # beside the car or nearer the edge
    assert math.dist(at, CAR_AT) >= clear
