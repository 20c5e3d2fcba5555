"""The seeded variant sampler: deterministic, collision-free, reachable, choices recorded."""

from __future__ import annotations

import json
import math
from collections import Counter

import pytest
from task_world import SPEC

from housebench.io import dumps_json
from housebench.tasks.reach import base_pose
from housebench.tasks.sampler import SamplerParams, SamplingError, sample_variant
from housebench.tasks.spec import TaskSpec, load_spec

PARAMS = SamplerParams()


def _sample(spec, seed, house, assets, params=PARAMS):
    return sample_variant("t", spec, "hash", f"v{seed:03d}", seed, house, assets, params)


def _bytes(variant) -> str:
    return dumps_json(variant.model_dump(mode="json"))


def _spec(objects: dict) -> TaskSpec:
    return TaskSpec.model_validate({"version": 1, "instruction": "x", "objects": objects,
                                    "goal": {"predicate": "not_dropped"}})


def test_same_seed_same_bytes_and_seeds_differ(house, assets):
    spec = load_spec(SPEC)
    first = [_bytes(_sample(spec, s, house, assets)) for s in range(3)]
    assert first == [_bytes(_sample(spec, s, house, assets)) for s in range(3)]
    assert len(set(json.dumps(json.loads(b)["objects"]) for b in first)) == 3


def test_props_rest_on_the_table_without_overlap_and_within_reach(house, assets):
    spec = _spec({n: {"asset": n, "role": n, "supports": ["table"]} for n in ("apple", "orange", "bowl", "book")})
    top = house.supports[0]
    for seed in range(20):
        variant = _sample(spec, seed, house, assets)
        discs = []
        for name, obj in variant.objects.items():
            size = assets.assets[obj.asset].size
            radius = math.hypot(size[0], size[1]) / 2
            x, y, z = obj.pos
            assert obj.support == "table/top" and z == pytest.approx(top.height + PARAMS.clearance)
            assert top.box[0] + radius <= x <= top.box[2] - radius and top.box[1] + radius <= y <= top.box[3] - radius
            assert math.hypot(x - obj.base[0], y - obj.base[1]) <= house.robot.reach + 2e-6  # 6-decimal rounding
            assert sum(q * q for q in obj.quat) == pytest.approx(1.0)
            discs.append((x, y, radius))
        for i, (x1, y1, r1) in enumerate(discs):
            for x2, y2, r2 in discs[i + 1:]:
                assert math.hypot(x1 - x2, y1 - y2) >= r1 + r2 + PARAMS.margin


def test_base_pose_is_collision_free_and_in_the_room(house):
    x, y, yaw = base_pose((2.0, 1.6), house, 0.35)
    assert 0.35 <= x <= 3.65 and 0.35 <= y <= 3.65
    assert not (1.5 - 0.35 < x < 2.5 + 0.35 and 1.5 - 0.35 < y < 2.3 + 0.35)  # clear of the table
    assert math.atan2(1.6 - y, 2.0 - x) == pytest.approx(yaw)
    assert base_pose((2.0, 1.9), house.model_copy(update={"robot": house.robot.model_copy(
        update={"reach": 0.3})}), 0.35) is None  # table centre out of reach


def test_optional_objects_and_alternatives_are_drawn_and_recorded(house, assets):
    spec = _spec({"fruit": {"asset": "apple|orange", "role": "fruit", "supports": ["table"],
                            "absent_probability": 0.5},
                  "book": {"asset": "book", "role": "flat", "supports": ["shelf", "table/top"]}})
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
    with pytest.raises(SamplingError, match="no support among"):
        _sample(_spec({"apple": {"asset": "apple", "role": "fruit", "supports": ["sofa"]}}), 0, house, assets)
    crowded = _spec({f"b{i}": {"asset": "bowl", "role": "c", "supports": ["table"]} for i in range(30)})
    with pytest.raises(SamplingError, match="no free, reachable spot"):
        _sample(crowded, 0, house, assets, SamplerParams(max_tries=20))
