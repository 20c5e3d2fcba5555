"""The arm's planning model: collision checks see real contacts (MuJoCo's, no mocks), RRT-Connect goes
round a wall the straight joint path hits, a held prop's box follows the hand, a container's cavity is free,
a door stands where its measured joint value swings it."""

from __future__ import annotations

import math

import numpy as np
import pytest

from housebench.annotations.schema import (
    ArticulatedPart,
    AssetAnnotation,
    ContainerProfile,
    Footprint,
    Handle,
    HouseAnnotations,
    Obstacle,
    PlacedObject,
    ReachBand,
    RobotAnnotation,
    Room,
    SceneAnnotations,
)
from housebench.planning.arm import BODY, HAND, HOUSE, ArmPlanner, ArmScene
from housebench.robot import fetch
from housebench.robot.kinematics import ARM, FetchIK, top_down
from housebench.state import ObjectState

WALL = Obstacle(name="wall", box=(0.4, -0.04, 0.0, 0.9, 0.04, 0.85))  # between the two pad targets
CUBE = AssetAnnotation(name="cube", category="toy", size=(0.05, 0.05, 0.05), mass=0.1)
BOX = AssetAnnotation(
    name="box",
    category="container",
    size=(0.4, 0.3, 0.2),
    mass=1.0,
    container=ContainerProfile(shape="rect", inner_half_extents=(0.18, 0.13), floor_z=0.01, rim_z=0.2),
)
UPRIGHT = (1.0, 0.0, 0.0, 0.0)


def scene(obstacles: list[Obstacle]) -> SceneAnnotations:
    robot = RobotAnnotation(
        start=(0.0, 0.0, 0.0),
        gripper_opening=0.1,
        footprint=Footprint(
            radius=0.29, base_height=0.38, column_radius=0.3, column=(-0.27, -0.17, 0.09, 0.17), height=1.1
        ),
        reach=[ReachBand(z=(0.0, 2.0), min=0.4, max=0.8)],
    )
    house = HouseAnnotations(
        rooms=[Room(name="room", polygon=[(-3, -3), (3, -3), (3, 3), (-3, 3)])],
        supports=[],
        obstacles=obstacles,
        robot=robot,
    )
    objects = {
        "cube": PlacedObject(asset=CUBE, pos=(2.0, 2.0, 0.0), quat=UPRIGHT),
        "box": PlacedObject(asset=BOX, pos=(2.0, -2.0, 0.0), quat=UPRIGHT),
    }
    return SceneAnnotations(scene="test/v000", house=house, objects=objects)


def poses(sc: SceneAnnotations) -> dict[str, ObjectState]:
    return {n: ObjectState(pos=o.pos, quat=o.quat) for n, o in sc.objects.items()}


def arm_at(ik: FetchIK, pos) -> dict[str, float]:
    """Joints with the pad at ``pos``, pointing down, solved from the skills' ready seed."""
    ready = ik.solve(fetch.home_qpos((0.0, 0.0, 0.0)), (0.6, 0.0, 1.0), top_down(math.pi / 2)).joints
    result = ik.solve(ready, pos, top_down(math.pi / 2))
    assert result.ok(), result
    return result.joints


@pytest.fixture(scope="module")
def ik() -> FetchIK:
    return FetchIK()


def test_the_check_sees_the_arm_in_a_wall_and_not_in_free_space(ik):
    sc = scene([WALL])
    arm = ArmScene(sc)
    inside = arm_at(ik, (0.6, 0.0, 0.8))  # the pad in the wall
    arm.sync(inside, poses(sc), None)
    hit = arm.names(arm.contacts())
    assert hit and all(h.startswith("wall#0|robot0:") for h in hit), hit
    assert any("gripper" in h for h in hit)
    beside = arm_at(ik, (0.6, 0.4, 0.8))
    assert arm.contacts(beside) == {}
    empty = ArmScene(scene([]))
    empty.sync(inside, poses(sc), None)
    assert empty.contacts() == {}


def test_rrt_connect_goes_round_the_wall_the_straight_path_hits(ik):
    sc = scene([WALL])
    arm = ArmScene(sc)
    a, b = arm_at(ik, (0.6, -0.3, 0.75)), arm_at(ik, (0.6, 0.3, 0.75))
    arm.sync(a, poses(sc), None)
    planner = ArmPlanner(arm, ARM, seed=1)
    qa, qb = [a[j] for j in ARM], [b[j] for j in ARM]
    planner.start(qa)
    assert planner.first_hit([qa, qb])  # the straight joint path goes through the wall
    path = planner.plan(qa, qb)
    assert len(path) >= 3, path
    assert np.allclose(path[0], qa, atol=1e-6) and np.allclose(path[-1], qb, atol=1e-6)
    assert planner.first_hit(path) == []  # every segment checked every STEP keeps clear
    again = ArmPlanner(arm, ARM, seed=1)
    again.start(qa)
    assert np.array_equal(np.array(again.plan(qa, qb)), np.array(path))  # the same seed, the same path


def test_a_held_prop_is_attached_to_the_hand_and_detached_when_let_go(ik):
    sc = scene([])
    arm = ArmScene(sc)
    grip = arm_at(ik, (0.6, 0.0, 0.9))
    objects = {**poses(sc), "cube": ObjectState(pos=(0.6, 0.0, 0.86), quat=UPRIGHT)}
    arm.sync(grip, objects, "cube")
    m, d = arm.model, arm.data
    held, hand = m.geom("held:cube").id, m.body(HAND).id
    np.testing.assert_allclose(d.geom_xpos[held], (0.6, 0.0, 0.885), atol=1e-3)  # the cube's centre
    assert m.geom_contype[held] == HOUSE | BODY  # the house and the props, and the robot's own base
    assert d.mocap_pos[m.body_mocapid[m.body("prop:cube").id]][2] < -50  # its static copy is parked

    lifted = arm_at(ik, (0.5, 0.3, 1.1))
    arm.contacts(lifted)  # kinematics at the new joints
    offset = d.xmat[hand].reshape(3, 3).T @ (d.geom_xpos[held] - d.xpos[hand])
    np.testing.assert_allclose(offset, m.body_pos[m.geom_bodyid[held]], atol=1e-9)  # rides with the hand
    assert np.linalg.norm(d.geom_xpos[held] - (0.6, 0.0, 0.885)) > 0.3

    table = ArmScene(scene([Obstacle(name="table", box=(0.3, -0.5, 0.6, 1.0, 0.5, 0.855))]))  # 5 mm under it
    table.sync(grip, objects, "cube")
    assert any("held:cube" in h and "table#0" in h for h in table.names(table.contacts()))  # the cube sits on it
    table.sync(grip, objects, None)  # let go: the cube is a prop again, the hand's box off
    tm, td = table.model, table.data
    assert tm.geom_contype[tm.geom("held:cube").id] == 0
    assert not any("held:" in h for h in table.names(table.contacts()))
    np.testing.assert_allclose(td.geom_xpos[tm.geom("cube#0").id], (0.6, 0.0, 0.885), atol=1e-9)


def test_a_held_prop_meets_the_robots_own_base_where_the_bare_hand_is_not_checked(ik):
    # stack_books v000: the path to the carry pressed a pinched book against the base, and it turned in the fingers
    sc = scene([])
    arm = ArmScene(sc)
    low = arm_at(ik, (0.25, 0.0, 0.3))  # the pad over the base's front
    objects = {**poses(sc), "cube": ObjectState(pos=(0.25, 0.0, 0.275), quat=UPRIGHT)}
    arm.sync(low, objects, "cube")
    assert any("held:cube" in h and "base_link" in h for h in arm.names(arm.contacts()))
    arm.sync(low, poses(sc), None)  # nothing held: the arm alone is never checked against the base
    assert not any("base_link" in h for h in arm.names(arm.contacts()))
    high = arm_at(ik, (0.25, 0.0, 0.5))
    arm.sync(high, {**objects, "cube": ObjectState(pos=(0.25, 0.0, 0.475), quat=UPRIGHT)}, "cube")
    assert not arm.contacts()  # held above the base: clear


def test_the_hand_reaches_into_a_container_but_not_through_its_wall(ik):
    sc = scene([])
    arm = ArmScene(sc)
    objects = {**poses(sc), "box": ObjectState(pos=(0.55, 0.0, 0.6), quat=UPRIGHT)}  # rim at 0.8
    arm.sync(arm_at(ik, (0.55, 0.0, 0.72)), objects, None)  # pad in the cavity, 0.11 above its floor
    assert arm.contacts() == {}
    wall = arm_at(ik, (0.55 + 0.19, 0.0, 0.75))  # pad over the +x wall, below the rim
    assert any(h.startswith("box#1|") for h in arm.names(arm.contacts(wall)))


def test_a_contact_the_motion_starts_in_may_only_get_looser(ik):
    sc = scene([WALL])
    arm = ArmScene(sc)
    touching = arm_at(ik, (0.6, -0.1, 0.8))
    arm.sync(touching, poses(sc), None)
    planner = ArmPlanner(arm, ARM, seed=1)
    q = [touching[j] for j in ARM]
    assert planner.start(q)  # starts in contact with the wall
    assert planner.free(q)
    away, deeper = arm_at(ik, (0.6, -0.3, 0.8)), arm_at(ik, (0.6, 0.0, 0.8))
    assert planner.free([away[j] for j in ARM])
    assert not planner.free([deeper[j] for j in ARM])


def test_a_door_stands_where_its_measured_joint_value_swings_it(ik):
    """A door panel across the pad's way while shut, swung a quarter turn about its hinge (x = 0.5, y =
    0.5) out of it, away from the robot, into the way of a pad further out: the model follows the joint value."""
    panel = Obstacle(name="cupboard/door/panel", box=(0.5, -0.5, 0.4, 0.52, 0.5, 1.2))
    door = ArticulatedPart(
        name="cupboard/door",
        owner="cupboard",
        category="door",
        joint="revolute",
        axis=(0.0, 0.0, 1.0),
        pivot=(0.5, 0.5, 0.4),
        limits=(0.0, 2.0),
        closed=0.0,
        open=1.57,
        box=panel.box,
        handle=Handle(center=(0.53, -0.4, 0.8), normal=(1.0, 0.0, 0.0), grasp=(-1.0, 0.0, 0.0), box=panel.box),
    )
    sc = scene([panel])
    sc = sc.model_copy(update={"house": sc.house.model_copy(update={"articulated": [door]})})
    arm = ArmScene(sc)
    across = arm_at(ik, (0.51, 0.0, 0.8))  # the pad in the shut panel
    beyond = arm_at(ik, (0.6, 0.51, 0.9))  # in the panel swung open (x 0.5 -> 1.5, y 0.5 -> 0.52)
    arm.sync(across, poses(sc), None)
    assert any(h.startswith("cupboard/door/panel#0|") for h in arm.names(arm.contacts()))
    arm.sync(across, poses(sc), None, {"cupboard/door": math.pi / 2})  # swung out of the way
    assert arm.contacts() == {}
    arm.sync(beyond, poses(sc), None, {"cupboard/door": math.pi / 2})
    assert any(h.startswith("cupboard/door/panel#0|") for h in arm.names(arm.contacts()))
