"""A flat item taken at an overhang and held by its end (kinematics and geometry, no physics stepping; the
built-scene cases on the tests' small build, tests/builtdata.py): its overhang measured where the
pinch takes it, the place's spots all along the edges, and the gentle arm and drive while it is held."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from scipy.spatial.transform import Rotation

from housebench.annotations.schema import Support
from housebench.robot.kinematics import ARM
from housebench.skills.base import SkillFailure
from housebench.skills.edge import Edge, edges, overhanging
from housebench.skills.flat_pinch import PlaceAtEdge
from housebench.skills.legs import drive_path, ramp
from housebench.skills.motion import move_arm
from housebench.skills.tuning import tuning
from housebench.skills.view import end_held, support_of
from housebench.state import ObjectState
from housebench.tasks import refs
from tests.conftest import built_episode

TABLE = Support(name="table/top", owner="table", height=0.5, box=(0.0, 0.0, 1.0, 1.0))
BOOK = (0.15, 0.21, 0.03)


def _book(x: float, y: float, yaw_deg: float) -> ObjectState:
    quat = Rotation.from_euler("z", yaw_deg, degrees=True).as_quat(scalar_first=True)
    return ObjectState(pos=(x, y, 0.5), quat=tuple(quat))


def test_an_askew_book_sticks_out_less_where_the_pinch_takes_it_than_at_its_corner():
    east = Edge(TABLE, (1.0, 0.0), 1.0)
    square, askew = _book(0.95, 0.5, 0.0), _book(0.95, 0.5, 27.0)
    assert east.pinch_out(square, BOOK) == pytest.approx(0.95 + 0.075 - 1.0)  # the face, as the box has it
    corner = 0.95 + (0.075 * math.cos(math.radians(27)) + 0.105 * math.sin(math.radians(27))) - 1.0
    assert east.pinch_out(askew, BOOK) == pytest.approx(0.95 + 0.075 / math.cos(math.radians(27)) - 1.0)
    assert corner - east.pinch_out(askew, BOOK) > 0.025  # shelve_books v000: 4.8 cm at the corner, 1.2 at the pinch


def test_the_push_goes_on_until_the_pinch_line_overhangs_but_keeps_the_centre_inside():
    east = Edge(TABLE, (1.0, 0.0), 1.0)
    long_way = _book(0.8, 0.5, 90.0)  # the 0.21 m side along the normal: to the overhang
    assert east.pinch_short(long_way, BOOK) == pytest.approx(tuning().edge.overhang_m - (0.8 + 0.105 - 1.0))
    short_way = _book(0.8, 0.5, 0.0)  # 0.075 m to its side: only as far as keeps the centre centre_in_m in
    out = east.pinch_out(short_way, BOOK) + east.pinch_short(short_way, BOOK)
    assert out == pytest.approx(0.075 - tuning().edge.centre_in_m)
    west = next(e for e in edges(TABLE) if e.normal == (-1.0, 0.0))
    assert west.pinch_short(long_way, BOOK) > east.pinch_short(long_way, BOOK)  # the far edge: further to go


def test_a_place_at_an_edge_offers_every_free_spot_along_the_edges_nearest_first():
    # desk_prep v000: one spot an edge left the study desk's end by the wall out of every stance's reach
    _, ctx, obs = built_episode("desk_prep", "v000", horizon_s=10.0)
    desk = refs.supports("study_desk/top", {}, ctx.scene.house)[0]
    spots = list(PlaceAtEdge("notebook", desk).spots(ctx, obs, reach_in=0.09))
    normals = [normal for _, normal, _ in spots]
    assert len(spots) > 2 * len(set(normals))  # several spots along an edge
    far = [math.dist(foot, obs.base[:2]) for foot, _, _ in spots]
    assert far == sorted(far)


def _holding(obs, obj: str):
    """``obs`` with both fingers touching ``obj`` (what :func:`held` reads)."""
    return replace(obs, finger_contacts={"left": (obj,), "right": (obj,)})


def test_an_arm_motion_and_a_drive_are_gentle_while_a_flat_item_is_held_by_its_end():
    _, ctx, obs = built_episode("stack_books", "v000", horizon_s=10.0)
    assert not end_held(ctx, obs) and end_held(ctx, _holding(obs, "book"))
    target = {j: obs.joints[j] + (0.4 if j != ARM[0] else 0.0) for j in ARM}

    def steps(gen) -> int:
        """Actions until the motion waits to settle and, the observation standing still, gives up (the same
        3 s for every motion)."""
        n = 0
        try:
            next(gen)
            while True:
                n += 1
                gen.send(obs)
        except SkillFailure:
            return n

    free = steps(move_arm("test", obs, [target], ctx))
    held = steps(move_arm("test", _holding(obs, "book"), [target], ctx))
    moves = [
        math.ceil(0.4 / (speed * ctx.control_dt))
        for speed in (tuning().motion.joint_speed, tuning().motion.end_held_speed)
    ]
    assert held - free == moves[1] - moves[0]  # the same motion (and wait to settle) at the held speed
    x, y, th = obs.base
    plain = steps(drive_path("test", obs, [(x, y), (x + 1.0, y)], th + math.pi / 2, ctx))
    gentle = steps(drive_path("test", _holding(obs, "book"), [(x, y), (x + 1.0, y)], th + math.pi / 2, ctx))
    frames = [
        len(ramp(math.pi / 2 / speed, ctx.control_dt))
        for speed in (tuning().motion.yaw_speed, tuning().motion.end_held_yaw_speed)
    ]
    assert gentle - plain == frames[1] - frames[0]  # the quarter turn at the held speed, the 1 m leg as ever


def test_an_item_out_at_a_corner_only_is_still_taken_there():
    # desk_prep v003: the push stalled with the notebook's corner out and its centre line 2 cm short; the pick
    # asking for the pinch line's overhang alone found none and the push and pick were repeated to the end
    _, ctx, obs = built_episode("desk_prep", "v000", horizon_s=10.0)  # the notebook on the side table
    table = support_of(ctx, obs, "notebook")
    west = next(e for e in edges(table) if e.normal == (-1.0, 0.0))
    size = ctx.scene.objects["notebook"].asset.size

    def at(x: float, yaw_deg: float):
        pose = _book(x, 1.8, yaw_deg).model_copy(update={"pos": (x, 1.8, table.height)})
        return replace(obs, objects={**obs.objects, "notebook": pose})

    square = at(table.box[0] + 0.074 - 0.04, 0.0)  # 4 cm out along its centre line
    assert overhanging(ctx, square, "notebook", 0.03) == west
    askew = at(table.box[0] + 0.08, 35.0)  # its corner 4 cm out, its centre line 1 cm
    assert west.pinch_out(askew.objects["notebook"], size) < 0.03
    assert overhanging(ctx, askew, "notebook", 0.03) == west
    assert overhanging(ctx, at(table.box[0] + 0.2, 35.0), "notebook", 0.03) is None
