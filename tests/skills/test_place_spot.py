"""The free spot a place picks on a surface: nearest the point asked for, clear of the other objects and,
for an object carried in level from an edge, of the way in from that edge (a duck carried in over a desk
pushed the toy car set down before it off the desk's end: clear_shelf v011, v016); and the point over a container's
cavity an item is let go at."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np

from housebench.annotations.schema import ContainerProfile, Support
from housebench.skills.place import cavity_spot, spot
from housebench.skills.tuning import tuning
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


# the wide storage bin turned a quarter (recycle_and_store): its cavity 0.48 x 0.33 m along the bin, rim 0.2 m up
BIN = ContainerProfile(shape="rect", inner_half_extents=(0.24, 0.165), floor_z=0.01, rim_z=0.2)
BOWL = ContainerProfile(shape="round", inner_half_extents=(0.09, 0.09), floor_z=0.01, rim_z=0.07)
ITEMS = {"can": (0.066, 0.066, 0.122), "carton": (0.075, 0.128, 0.18), "cube": (0.084, 0.084, 0.06)}
QUARTER = (math.cos(math.pi / 4), 0.0, 0.0, math.sin(math.pi / 4))
BIN_AT = (2.0, 1.0, 0.8)


def _scene(profile: ContainerProfile, **placed: tuple[float, float, float]):
    assets = {n: SimpleNamespace(size=s, container=None) for n, s in ITEMS.items()}
    assets["bin"] = SimpleNamespace(size=(0.35, 0.5, 0.2), container=profile)
    ctx = SimpleNamespace(scene=SimpleNamespace(objects={n: SimpleNamespace(asset=a) for n, a in assets.items()}))
    objects = {n: ObjectState(pos=p, quat=(1.0, 0.0, 0.0, 0.0)) for n, p in placed.items()}
    objects["bin"] = ObjectState(pos=BIN_AT, quat=QUARTER)
    return ctx, SimpleNamespace(objects=objects)


def _clear(a: str, b: str) -> float:
    return (math.hypot(*ITEMS[a][:2]) + math.hypot(*ITEMS[b][:2])) / 2 + tuning().place.clear_m


def test_an_empty_cavity_takes_the_item_over_its_centre_at_the_rim():
    ctx, obs = _scene(BIN, can=(0.0, 0.0, 0.0))
    assert np.allclose(cavity_spot("bin", obs, ctx, "can"), (BIN_AT[0], BIN_AT[1], BIN_AT[2] + BIN.rim_z))


def test_items_already_in_the_cavity_keep_their_room_and_the_spot_stays_inside():
    """The can let go over the carton stood on it above the rim and toppled out (recycle_and_store v003)."""
    carton, cube = (2.0, 1.0, 0.9), (2.0, 0.86, 0.84)  # the carton at the centre, the cube at one end
    ctx, obs = _scene(BIN, can=(0.0, 0.0, 0.0), carton=carton, cube=cube)
    at = cavity_spot("bin", obs, ctx, "can")
    assert math.dist(at[:2], carton[:2]) >= _clear("can", "carton") - 1e-9
    assert math.dist(at[:2], cube[:2]) >= _clear("can", "cube") - 1e-9
    local = at[:2] - np.asarray(BIN_AT[:2])  # turned a quarter: the bin's long side along y
    can_r = math.hypot(*ITEMS["can"][:2]) / 2
    assert abs(local[1]) <= BIN.inner_half_extents[0] - can_r + 1e-9
    assert abs(local[0]) <= BIN.inner_half_extents[1] - can_r + 1e-9
    assert local[1] > 0  # the free end, away from the cube


def test_an_item_standing_on_another_over_the_rim_counts():
    ctx, obs = _scene(BIN, can=(0.0, 0.0, 0.0), cube=(2.0, 1.0, 1.05))  # 0.05 m over the rim
    at = cavity_spot("bin", obs, ctx, "can")
    assert math.dist(at[:2], (2.0, 1.0)) >= _clear("can", "cube") - 1e-9


def test_an_item_high_over_the_cavity_does_not_count():
    high = BIN_AT[2] + BIN.rim_z + tuning().place.inside_above_m + 0.05  # on a shelf above the bin, say
    ctx, obs = _scene(BIN, can=(0.0, 0.0, 0.0), cube=(2.0, 1.0, high))
    assert np.allclose(cavity_spot("bin", obs, ctx, "can")[:2], BIN_AT[:2])


def test_a_full_round_cavity_takes_the_point_farthest_from_what_is_in_it():
    ctx, obs = _scene(BOWL, can=(0.0, 0.0, 0.0), cube=(2.03, 1.0, 0.84))
    at = cavity_spot("bin", obs, ctx, "can")
    assert at[0] < 2.0 - 0.01  # no free point: the far side from the cube
    assert math.dist(at[:2], BIN_AT[:2]) <= BOWL.inner_half_extents[0] - math.hypot(*ITEMS["can"][:2]) / 2 + 1e-9
