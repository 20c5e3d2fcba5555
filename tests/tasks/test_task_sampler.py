"""The seeded variant sampler: deterministic, collision-free, reachable, choices recorded."""

from __future__ import annotations

import json
import math
from collections import Counter

import pytest
from task_world import SPEC, footprint_box, in_reach

from housebench.annotations.schema import Obstacle, ReachBand, Room, Support
from housebench.house.query import HouseQuery
from housebench.house.reach import DISTANCES, PRE_GRASP, base_pose, candidates, stance_test
from housebench.house.stance import stance_free
from housebench.io import dumps_json
from housebench.tasks.sampler import MAX_CUT_OFF, SamplerParams, SamplingError, sample_variant
from housebench.tasks.spec import TaskSpec, load_spec

PARAMS = SamplerParams()


def _sample(spec, seed, house, assets, params=PARAMS):
    return sample_variant("t", spec, "hash", f"v{seed:03d}", seed, house, assets, params)


def _bytes(variant) -> str:
    return dumps_json(variant.model_dump(mode="json"))


def _spec(objects: dict) -> TaskSpec:
    return TaskSpec.model_validate(
        {"version": 1, "instruction": "x", "objects": objects, "goal": {"predicate": "not_dropped"}}
    )


def test_same_seed_same_bytes_and_seeds_differ(house, assets):
    spec = load_spec(SPEC)
    first = [_bytes(_sample(spec, s, house, assets)) for s in range(3)]
    assert first == [_bytes(_sample(spec, s, house, assets)) for s in range(3)]
    assert len(set(json.dumps(json.loads(b)["objects"]) for b in first)) == 3


def test_props_rest_on_the_table_without_overlap_and_within_reach(house, assets):
    spec = _spec({n: {"asset": n, "role": n, "supports": ["table"]} for n in ("apple", "orange", "bowl", "book")})
    top, eps = house.supports[0], 2e-6  # 6-decimal rounding
    for seed in range(20):
        variant = _sample(spec, seed, house, assets)
        boxes = []
        for name, obj in variant.objects.items():
            box = footprint_box(variant, name, assets)
            assert obj.support == "table/top" and obj.pos[2] == pytest.approx(top.height + PARAMS.clearance)
            assert top.box[0] + PARAMS.margin <= box[0] + eps and box[2] <= top.box[2] - PARAMS.margin + eps
            assert top.box[1] + PARAMS.margin <= box[1] + eps and box[3] <= top.box[3] - PARAMS.margin + eps
            assert in_reach(variant, name, house, assets)
            assert sum(q * q for q in obj.quat) == pytest.approx(1.0)
            boxes.append(box)
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:  # apart by the margin along x or along y
                assert max(b[0] - a[2], a[0] - b[2], b[1] - a[3], a[1] - b[3]) >= PARAMS.margin - eps


def _with(house, obstacles=(), reach=None):
    robot = house.robot if reach is None else house.robot.model_copy(update={"reach": reach})
    return HouseQuery(house.model_copy(update={"obstacles": [*house.obstacles, *obstacles], "robot": robot}))


def test_base_pose_is_collision_free_in_reach_and_in_the_room(house):
    x, y, yaw = base_pose((2.0, 1.6, 0.8), HouseQuery(house))
    r = house.robot.footprint.radius
    assert r <= x <= 4 - r and r <= y <= 4 - r
    assert not (1.5 - r < x < 2.5 + r and 1.5 - r < y < 2.3 + r)  # clear of the (solid) table
    assert math.atan2(1.6 - y, 2.0 - x) == pytest.approx(yaw)
    assert 0.4 <= math.hypot(2.0 - x, 1.6 - y) <= 0.9
    assert base_pose((2.0, 1.9, 0.8), _with(house, reach=[ReachBand(z=(0, 2), min=0.3, max=0.3)])) is None
    assert base_pose((2.0, 1.9, 2.5), HouseQuery(house)) is None  # above every band


def test_the_base_slides_under_a_tabletop_but_not_into_a_pocket(house):
    """Height-aware: a tabletop at 0.71 m blocks the column, not the base; a free spot that the base
    cannot drive to from the start does not count."""
    top = Obstacle(name="desk/top", box=(1.0, 2.8, 0.71, 3.0, 3.6, 0.75))
    walled = [o for o in house.obstacles if o.name != "table"]
    q = HouseQuery(house.model_copy(update={"obstacles": [*walled, top]}))
    near = [ReachBand(z=(0, 2), min=0.35, max=0.4)]
    x, y, yaw = base_pose((2.0, 2.95, 0.8), _with(house.model_copy(update={"obstacles": [*walled, top]}), reach=near))
    assert 2.8 - y < house.robot.footprint.radius  # the base disc reaches under the top, the column stays out
    assert q.grid.is_free(2.0, 2.45) and not q.grid.is_free(2.0, 2.7)  # 0.33 m from the top's edge is free floor
    pocket = [Obstacle(name=f"pocket/{i}", box=b) for i, b in enumerate([(0.0, 2.0, 0, 4.0, 2.05, 2.0)])]
    assert base_pose((2.0, 2.9, 0.8), _with(house.model_copy(update={"obstacles": [*walled, top]}), pocket)) is None


def test_a_point_behind_a_wall_or_in_another_room_gets_no_base_pose(house):
    """The arm's line to the point must be clear at the point's height, and the base in the point's room:
    a point walled in on four sides (free floor 0.5 m outside, within reach) gets none, and so does a
    point in a closet too shallow for the base, seen through its doorway from the room outside."""
    cell = [(1.5, 2.95, 2.5, 3.0), (1.5, 3.9, 2.5, 3.95), (1.45, 2.95, 1.5, 3.95), (2.5, 2.95, 2.55, 3.95)]
    walls = [Obstacle(name=f"cell/{i}", box=(x0, y0, 0.0, x1, y1, 2.5)) for i, (x0, y0, x1, y1) in enumerate(cell)]
    open_floor = [o for o in house.obstacles if o.name not in ("table", "fridge/door")]
    assert base_pose((2.0, 3.45, 0.8), HouseQuery(house.model_copy(update={"obstacles": open_floor}))) is not None
    walled = house.model_copy(update={"obstacles": [*open_floor, *walls]})
    assert base_pose((2.0, 3.45, 0.8), HouseQuery(walled)) is None
    rooms = [Room(name="room", polygon=[(0, 0), (4, 0), (4, 3), (0, 3)])]
    rooms.append(Room(name="closet", polygon=[(0, 3.05), (4, 3.05), (4, 3.5), (0, 3.5)]))
    closet = [(0.0, 3.0, 1.4, 3.05), (2.6, 3.0, 4.0, 3.05), (0.0, 3.5, 4.0, 3.55)]  # a doorway from x 1.4 to 2.6
    closet = [Obstacle(name=f"closet/{i}", box=(x0, y0, 0.0, x1, y1, 2.5)) for i, (x0, y0, x1, y1) in enumerate(closet)]
    two = house.model_copy(update={"obstacles": [*open_floor, *closet], "rooms": rooms})
    assert base_pose((2.0, 2.7, 0.8), HouseQuery(two)) is not None  # the room outside is reachable
    assert base_pose((2.0, 3.3, 0.8), HouseQuery(two)) is None


def test_optional_objects_and_alternatives_are_drawn_and_recorded(house, assets):
    spec = _spec(
        {
            "fruit": {"asset": "apple|orange", "role": "fruit", "supports": ["table"], "absent_probability": 0.5},
            "book": {"asset": "book", "role": "flat", "supports": ["shelf", "table/top"]},
        }
    )
    variants = [_sample(spec, s, house, assets) for s in range(40)]
    present = Counter(v.choices["fruit.present"] for v in variants)
    kinds = Counter(v.choices["fruit.asset"] for v in variants if "fruit" in v.objects)
    supports = Counter(v.objects["book"].support for v in variants)
    assert present["yes"] > 5 and present["no"] > 5 and kinds["apple"] > 2 and kinds["orange"] > 2
    assert set(supports) == {"table/top", "shelf/level_1"}  # by name, and by owner
    for v in variants:
        assert ("fruit" in v.dropped) == (v.choices["fruit.present"] == "no") == ("fruit" not in v.objects)
        assert v.goal.absent == ({"fruit": "fruit"} if "fruit" in v.dropped else {})


def test_impossible_placements_fail_loudly(house, assets):
    with pytest.raises(SamplingError, match="unknown asset 'pear'"):
        _sample(_spec({"pear": {"asset": "pear", "role": "fruit", "supports": ["table"]}}), 0, house, assets)
    with pytest.raises(SamplingError, match="no support, owner or place 'sofa'"):
        _sample(_spec({"apple": {"asset": "apple", "role": "fruit", "supports": ["sofa"]}}), 0, house, assets)
    with pytest.raises(SamplingError, match="no support among"):  # the shelf is too low for it
        _sample(
            _spec({"box": {"asset": "bowl", "role": "c", "supports": ["shelf/level_1"]}}),
            0,
            house,
            assets.model_copy(
                update={"assets": {"bowl": assets.assets["bowl"].model_copy(update={"size": (0.18, 0.18, 0.31)})}}
            ),
        )
    crowded = _spec({f"b{i}": {"asset": "bowl", "role": "c", "supports": ["table"]} for i in range(30)})
    with pytest.raises(SamplingError, match="no free, reachable spot"):
        _sample(crowded, 0, house, assets, SamplerParams(max_tries=20))


def test_spawn_constraints_inside_near_and_keep_out(house, assets):
    spec = _spec(
        {
            "bowl": {"asset": "bowl", "role": "container", "supports": ["table"]},
            "apple": {"asset": "apple", "role": "fruit", "inside": "bowl"},
            "orange": {"asset": "orange", "role": "fruit", "inside": "fridge"},
            "book": {
                "asset": "book",
                "role": "flat",
                "supports": ["furniture"],
                "keep_out": ["table"],
                "near": {"object": "bowl", "distance": 2.5},
            },
        }
    ).model_copy(update={"places": {"furniture": ["table", "shelf"]}})
    profile = assets.assets["bowl"].container
    for seed in range(10):
        v = _sample(spec, seed, house, assets)
        bowl, apple, orange, book = (v.objects[n] for n in ("bowl", "apple", "orange", "book"))
        assert apple.inside == "bowl" and apple.support == bowl.support == "table/top"
        radial = math.hypot(apple.pos[0] - bowl.pos[0], apple.pos[1] - bowl.pos[1])
        assert radial + math.hypot(0.04, 0.04) + PARAMS.clearance <= profile.inner_half_extents[0] + 1e-6
        assert apple.pos[2] == pytest.approx(bowl.pos[2] + profile.floor_z + PARAMS.clearance)
        assert orange.inside == "fridge" and orange.support == "fridge/shelf_1"  # fridge/top is outside its cavity
        assert book.support == "shelf/level_1"
        assert math.hypot(book.pos[0] - bowl.pos[0], book.pos[1] - bowl.pos[1]) <= 2.5


def test_containers_must_hold_their_slots(house, assets):
    goal = {"predicate": "inside", "items": ["all:fruit"], "container": "bowl"}
    spec = TaskSpec.model_validate(
        {
            "version": 1,
            "instruction": "x",
            "goal": goal,
            "objects": {
                "bowl": {"asset": "bowl", "role": "bowl", "supports": ["table"]},
                **{f"f{i}": {"asset": "apple|orange", "role": "fruit", "supports": ["table"]} for i in range(3)},
            },
        }
    )
    assert _sample(spec, 0, house, assets).objects  # 3 x 0.0064 m^2 in a 0.0201 m^2 cavity
    four = spec.model_copy(update={"objects": {**spec.objects, "f3": spec.objects["f0"]}})
    with pytest.raises(SamplingError, match=r"'bowl' cannot hold \['f0', 'f1', 'f2', 'f3'\]"):
        _sample(four, 0, house, assets)
    shallow = assets.assets["bowl"].container.model_copy(update={"rim_z": 0.019})  # centre 0.05 > 0.019 + 0.03
    low = assets.model_copy(
        update={"assets": {**assets.assets, "bowl": assets.assets["bowl"].model_copy(update={"container": shallow})}}
    )
    with pytest.raises(SamplingError, match="cannot hold"):
        _sample(spec, 0, house, low)
    with pytest.raises(SamplingError, match="'book', which is no container"):
        _sample(
            spec.model_copy(
                update={
                    "objects": {**spec.objects, "bowl": spec.objects["bowl"].model_copy(update={"asset": "bowl|book"})}
                }
            ),
            0,
            house,
            assets,
        )


def test_the_base_pose_is_one_the_skills_take(house):
    """The sampler's stance is the skills' own: on the pick's rings, in the band both at the point and at
    its pre-grasp (a lower band above cuts the ring), and free by the carry-pose footprint. A floor spot
    in a corner that the bare base disc fits beside, with the carried arm in the walls, gets none."""
    bands = [ReachBand(z=(0.0, 0.3), min=0.4, max=0.55), ReachBand(z=(0.3, 1.0), min=0.4, max=0.75)]
    bands.append(ReachBand(z=(1.0, 2.0), min=0.4, max=0.5))
    q = _with(house, reach=bands)
    for z, top in ((0.8, 0.75), (0.95, 0.5)):  # the pre-grasp at 0.92 m, then at 1.07 m
        x, y, yaw = base_pose((2.0, 1.2, z), q, above=PRE_GRASP)
        assert round(math.hypot(2.0 - x, 1.2 - y), 6) in DISTANCES and math.hypot(2.0 - x, 1.2 - y) <= top + 1e-9
        assert stance_free((x, y, yaw), [o.box for o in q.house.obstacles])
    corner = (0.16, 0.16, 0.04)
    bare = [p for p in candidates(corner[:2], lambda p: bool(q.obstacles.fits([p[0]], [p[1]], [p[2]])[0]))]
    assert bare and base_pose(corner, q, above=PRE_GRASP) is None


def test_floor_props_leave_every_stance_and_the_floor_to_the_robot(house, assets):
    """Props on the floor of a room split by a wall with a doorway: every prop's base pose still works with
    all the others standing (none covers another's stance or stands in the doorway), and they cut off no
    floor from the robot; the query sees a prop in the doorway cut the far side off."""
    split = [(0.0, 2.6, 0, 1.9, 2.65, 2.5), (2.9, 2.6, 0, 4.0, 2.65, 2.5)]  # a 1 m doorway at x 1.9-2.9
    walls = [Obstacle(name=f"split/{i}", box=b) for i, b in enumerate(split)]
    floor = Support(name="room/floor", owner="room", height=0.0, box=(0.05, 0.05, 3.95, 3.95))
    obstacles = [o for o in house.obstacles if o.name not in ("table", "fridge/door")] + walls
    world = house.model_copy(update={"obstacles": obstacles, "supports": [floor]})
    query = HouseQuery(world)
    assert query.with_props([(2.1, 2.45, 0.0, 2.7, 2.8, 0.3)]).cut_off() > 1.0  # a crate in the doorway
    spec = _spec({n: {"asset": "bowl", "role": n, "supports": ["room/floor"]} for n in ("a", "b", "c", "d")})
    for seed in range(20):
        variant = _sample(spec, seed, world, assets)
        boxes = {}
        for name, obj in variant.objects.items():
            x0, y0, x1, y1 = footprint_box(variant, name, assets)
            boxes[name] = (x0, y0, 0.0, x1, y1, assets.assets[obj.asset].size[2])
        assert query.with_props(list(boxes.values())).cut_off() <= MAX_CUT_OFF
        for name, obj in variant.objects.items():
            others = query.with_props([b for n, b in boxes.items() if n != name])
            centre = (obj.pos[0], obj.pos[1], boxes[name][5] / 2)
            assert stance_test(centre, others, "room")(obj.base), (seed, name)
