"""Side grasps under a ceiling: the open sides of the built house's shelves and appliances, the hand's
pitch for short items, and (slow, contact physics) a pick from under a bookcase level and a place onto
one; on the small build of :mod:`tests.builtdata`."""

from __future__ import annotations

import dataclasses
import math

import pytest

from housebench.annotations.schema import AssetsFile, HouseAnnotations
from housebench.house.stance import stance_free
from housebench.paths import ANNOTATIONS_DIR
from housebench.skills.articulate import Open
from housebench.skills.base import SkillContext
from housebench.skills.navigate import obstacle_boxes
from housebench.skills.side.fit import PALM, TIP, grip_depth, grip_height, grip_tips, pinch_height, pinch_yaws, slim
from housebench.skills.side.opening import low_ceiling, open_edges
from housebench.skills.side.pick import SidePick
from housebench.skills.side.place import SidePlace
from housebench.skills.tuning import tuning
from housebench.state import ObjectState
from housebench.tasks import goal as g
from tests.builtdata import built
from tests.conftest import built_job, run_skill

SIDE = tuning().side  # the defaults


def _house() -> HouseAnnotations:
    return HouseAnnotations.model_validate_json(built().at(ANNOTATIONS_DIR / "house.json").read_text())


def test_shelves_and_appliance_cavities_open_to_the_room_not_the_wall():
    house = _house()
    supports = {s.name: s for s in house.supports}
    for name in ("bookcase_tall/level_2", "fridge/shelf_1", "fridge/shelf_3", "microwave/bottom"):
        assert [e.normal for e in open_edges(house, supports[name])] == [(1.0, 0.0)], name  # door side
    assert len(open_edges(house, supports["study_desk/top"])) == 4  # an open top: every edge
    assert low_ceiling(supports["bookcase_tall/level_2"], 0.09)
    assert not low_ceiling(supports["study_desk/top"], 0.09)


def test_short_items_are_taken_with_the_fingertips_tipped_down_clear_of_the_surface():
    for height in (0.049, 0.076, 0.09, 0.2):
        pitch, dz = grip_height(height)
        lowest = min(dz - x * math.sin(pitch) + z * math.cos(pitch) for x, z in (PALM, TIP))
        assert lowest > 0.0 and dz < height, (height, pitch, dz)
    assert grip_height(0.2)[0] == 0.0  # tall: level, at its middle
    assert grip_height(0.049)[0] > 0.0  # a toy car: tipped down
    assert grip_height(0.02) is None  # a book lying flat: the fingers would pass over it


def _assets():
    return AssetsFile.model_validate_json(built().at(ANNOTATIONS_DIR / "assets.json").read_text()).assets


def test_round_items_are_pinched_at_their_annotated_pinch_others_low():
    assets = _assets()
    oatmeal, tissue = assets["oatmeal"], assets["tissue_box"]
    at = pinch_height(oatmeal)  # towards the annotated pinch by the rim, the bowl's widest, off its sloping wall
    assert SIDE.grip_at * oatmeal.size[2] < at <= min(oatmeal.grasps[0].point[2], oatmeal.size[2] - SIDE.top_keep_m)
    assert pinch_height(tissue) is None  # a block: anywhere, taken at SIDE.grip_at
    juice, milk = assets["juice_bottle"], assets["milk"]
    assert slim(juice) and slim(milk) and not slim(oatmeal)
    assert pinch_height(juice) is None and pinch_height(milk) is None  # low on the body: not on the shoulder
    assert grip_height(juice.size[2])[1] < 0.16  # the bottle's cylinder ends at 0.16 m, its shoulder above


def test_an_item_too_short_for_the_hand_to_get_down_to_is_taken_at_its_near_face():
    assets = _assets()
    car, duck, oatmeal = assets["toy_car"], assets["rubber_duck"], assets["oatmeal"]
    assert all(grip_depth(car, dz) == 0.0 for _, dz in grip_tips(car.size[2]))  # its wheels under the fingertips
    assert grip_depth(duck, grip_height(duck.size[2])[1]) == SIDE.palm_back_m  # taken where it wants: as deep as ever
    assert all(
        grip_depth(oatmeal, dz) == SIDE.palm_back_m for _, dz in grip_tips(oatmeal.size[2], pinch_height(oatmeal))
    )


def test_a_carton_on_an_open_top_is_taken_square_to_a_face_a_bowl_straight_in():
    assets = _assets()
    shelf = next(s for s in _house().supports if s.name == "fridge/shelf_2")
    edge = open_edges(_house(), shelf)[0]
    straight = math.atan2(-edge.normal[1], -edge.normal[0])
    turned = ObjectState(pos=(0.4, 3.0, 0.9), quat=(math.cos(math.pi / 12), 0.0, 0.0, math.sin(math.pi / 12)))  # 30 deg
    yaws = pinch_yaws(assets["milk"], turned, edge, SIDE.max_skew)
    yaw, width = yaws[0]
    assert width == pytest.approx(0.07, abs=1e-3)  # across two faces (straight in: 0.096)
    assert abs(abs(yaw - straight) - math.pi / 6) < 0.02
    assert yaws[-1] == (straight, 0.07)  # a bottle is round: straight in stays a way
    assert pinch_yaws(assets["milk"], turned, edge, SIDE.max_skew, ceiling=True) == [
        yaws[-1],
        *yaws[:-1],
    ]  # in the fridge
    assert pinch_yaws(assets["oatmeal"], turned, edge, SIDE.max_skew) == [(straight, assets["oatmeal"].size[0])]


def _episode(task: str, variant: str):
    job = built_job(task, variant, "noop", horizon_s=300.0)
    episode = job.open()
    obs = episode.reset(0)
    return episode, obs, SkillContext(task=episode.task, scene=episode.scene, control_dt=0.1, initial=obs.state)


def _run(episode, ctx, obs, skill):
    failure, obs = run_skill(episode, ctx, obs, skill)
    assert failure is None, failure
    return obs


@pytest.mark.slow
def test_side_pick_takes_a_toy_car_from_under_a_bookcase_level():
    episode, obs, ctx = _episode("clear_shelf", "v001")
    start = obs.objects["car"].pos
    obs = _run(episode, ctx, obs, SidePick("car"))
    assert all("car" in obs.finger_contacts[f] for f in ("left", "right"))  # held by contact
    assert obs.objects["car"].pos[2] > start[2] + 0.2  # out of the shelf, in the carry pose


@pytest.mark.slow
def test_side_pick_holds_a_heavy_carton_turned_off_square_through_the_withdraw():
    episode, obs, ctx = _episode("restock_fridge", "v011")  # the milk (1.05 kg) on the island, 45 deg off
    obs = _run(episode, ctx, obs, SidePick("milk"))
    assert obs.holding("milk") and obs.gripper_opening < 0.075  # across two faces, not two corners


@pytest.mark.slow
def test_side_pick_draws_an_item_too_deep_in_to_the_edge_first():
    episode, obs, ctx = _episode("shelve_on_level", "v005")  # the tissue box 0.35 m in from the desk's ends
    ctx.log, start = episode.log, obs.objects["box"].pos
    obs = _run(episode, ctx, obs, SidePick("box"))
    pushes = [d for _, kind, d in episode.events if kind == "stance" and d["skill"] == "push"]
    assert pushes and pushes[0]["edge"] in ([-1.0, 0.0], [1.0, 0.0])  # along its length, to a desk end
    assert obs.holding("box") and obs.objects["box"].pos[2] > start[2] + 0.2  # moved by contact, then lifted


@pytest.mark.slow
def test_side_place_leaves_a_tissue_box_on_a_bookcase_level_and_the_hand_empty():
    episode, obs, ctx = _episode("shelve_on_level", "v000")
    level = next(s for s in ctx.scene.house.supports if s.name == "bookcase_tall/level_2")
    obs = _run(episode, ctx, obs, SidePick("box"))  # off the desk, level, for the place under the ceiling
    obs = _run(episode, ctx, obs, SidePlace("box", level))
    on = g.On(predicate="on", items=["box"], support=level.name)
    verdict = ctx.judge([on, g.HandEmpty(predicate="hand_empty")], obs.state)
    assert verdict.success, verdict
    assert not any(obs.finger_contacts[f] for f in ("left", "right"))


@pytest.mark.slow
def test_side_pick_out_of_the_fridge_and_place_into_the_microwave():
    episode, obs, ctx = _episode("heat_breakfast", "v001")  # oatmeal on fridge/shelf_3
    for door in ("fridge/door", "microwave/door"):
        obs = _run(episode, ctx, obs, Open(door))
    cavity = next(s for s in ctx.scene.house.supports if s.name == "microwave/bottom")
    obs = _run(episode, ctx, obs, SidePick("oatmeal"))
    obs = _run(episode, ctx, obs, SidePlace("oatmeal", cavity))
    on = g.On(predicate="on", items=["oatmeal"], support=cavity.name)
    assert ctx.judge([on, g.HandEmpty(predicate="hand_empty")], obs.state).success


def _fridge_open(obs, q: float = 1.27):
    """``obs`` with the fridge door at ``q`` rad (where the scripted Open leaves it: 1.27 measured)."""
    return dataclasses.replace(obs, parts={**obs.parts, "fridge/door": q})


def test_an_open_door_is_no_obstacle_where_it_stands_closed():
    episode, obs, ctx = _episode("heat_breakfast", "v000")
    closed = next(o.box for o in ctx.scene.house.obstacles if o.name == "fridge/door/panel")
    assert closed in obstacle_boxes(ctx, obs)
    boxes = obstacle_boxes(ctx, _fridge_open(obs))
    assert closed not in boxes  # its box where it stands now replaces it
    assert stance_free((1.16, 2.75, math.pi), boxes)  # beside the open door, the carried arm over its closed place


def test_side_pick_stands_beside_an_open_fridge_door_within_reach():
    episode, obs, ctx = _episode("heat_breakfast", "v000")
    oatmeal = obs.objects["oatmeal"]  # moved onto shelf_2 in front of the door's swing (heat_breakfast v018's spot)
    obs = _fridge_open(obs)
    obs = dataclasses.replace(
        obs, objects={**obs.objects, "oatmeal": oatmeal.model_copy(update={"pos": (0.416, 3.093, 0.9)})}
    )
    stances = []
    ctx = dataclasses.replace(
        ctx, log=lambda kind, **detail: stances.append(detail["base"]) if kind == "stance" else None
    )
    next(SidePick("oatmeal").body(ctx, obs))  # the first action: the stance was found
    (x, y, _), pad = stances[0], (0.448, 3.093)
    assert y < 3.18 - 0.4 and math.dist((x, y), pad) <= SIDE.reach_m  # south of the door's swing, in reach
