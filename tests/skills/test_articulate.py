"""open / close by contact: the door geometry against the house query, and the microwave door of a real
task scene opened and shut by the fingers in contact physics (slow), on the small build of
:mod:`tests.builtdata`."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from housebench.annotations.schema import SceneAnnotations
from housebench.house.query import HouseQuery
from housebench.skills.articulate import Close, Open
from housebench.skills.base import SkillContext
from housebench.skills.door import Door, carry_arm_clear, contact_pose, door_stance, push_height
from housebench.skills.navigate import part_box
from housebench.skills.tuning import tuning
from housebench.skills.view import wrap
from tests.builtdata import built
from tests.conftest import built_job, run_skill

TASK, VARIANT = "heat_breakfast", "v000"


def _scene() -> SceneAnnotations:
    return SceneAnnotations.model_validate_json(built(TASK, VARIANT).scene_annotations(TASK, VARIANT).read_text())


@pytest.mark.parametrize("name", ["fridge/door", "microwave/door"])
def test_the_handle_grasp_follows_the_handle_round_the_hinge(name):
    query = HouseQuery(_scene().house)
    door = Door(query.parts[name])
    for q in (0.0, 0.4, 1.2):
        centre, normal, _ = query.handle_pose(name, q)
        pad, rot, out = contact_pose(door, "handle", q, 0.0, 0.0)
        assert np.allclose(out, normal, atol=1e-9)
        assert np.allclose(rot[:, 0], -normal, atol=1e-9)  # approaching the face
        assert np.linalg.norm(pad - centre) < 0.01
    # the free edge swings out of the front (outer normal) and stays a door's length from the hinge
    a, b = door.segment(1.0)
    assert np.linalg.norm(b - a) == pytest.approx(door.length, abs=1e-9)
    assert np.dot(b - a, np.asarray(door.part.handle.normal)[:2]) > 0


@pytest.mark.slow
def test_the_microwave_door_is_opened_and_closed_by_the_fingers():
    job = built_job(TASK, VARIANT, "noop", horizon_s=400.0, pose_noise_m=0.0)
    episode = job.open()
    obs = episode.reset(0)
    ctx = SkillContext(task=episode.task, scene=episode.scene, control_dt=0.1, initial=obs.state)
    part = HouseQuery(episode.scene.house).parts["microwave/door"]
    assert abs(obs.parts["microwave/door"]) < 0.02  # starts shut

    failure, obs = run_skill(episode, ctx, obs, Open("microwave/door"))
    assert failure is None, failure
    assert obs.parts["microwave/door"] >= 0.8 * part.open  # measured on the hinge

    failure, obs = run_skill(episode, ctx, obs, Close("microwave/door"))
    assert failure is None, failure
    assert abs(obs.parts["microwave/door"] - part.closed) <= 0.05


def test_an_open_door_is_an_obstacle_where_it_stands():
    query = HouseQuery(_scene().house)
    part = query.parts["fridge/door"]
    assert np.allclose(part_box(part, part.closed), part.box)
    box = part_box(part, 1.2)  # swung out of the front: reaches past the closed box
    assert box[3] > part.box[3] + 0.5
    a, b = Door(part).segment(1.2)
    assert box[0] <= b[0] <= box[3] and box[1] <= b[1] <= box[4]


def test_a_push_stance_keeps_the_carry_arm_off_the_open_door():
    door = Door(HouseQuery(_scene().house).parts["fridge/door"])
    at = door.segment(1.269)  # where the open skill leaves it
    # chill_drink v001: from this close stance (0.42 m from the door: the base clear) the carry arm, driven
    # in, shoved the door to 1.83 rad; from the one further out the close pushed it shut
    assert not carry_arm_clear((1.802, 3.284, -2.793), *at)
    assert carry_arm_clear((1.859, 3.578, -2.443), *at)
    assert not carry_arm_clear((1.859, 3.578, -2.443), *door.segment(1.6))  # the door swung on towards it
    assert carry_arm_clear((1.157, 2.345, 1.396), *door.segment(0.957))  # the inner push's stance after the pull


def test_a_door_shoved_wide_open_is_pushed_shut_from_behind_it():
    """restock_fridge v002: the fridge door shoved to 1.88 rad by the carries (open 1.4, limit 1.9); no base
    facing the push has room for the carry arm between the door and the wall behind it, one side on has."""
    job = built_job("restock_fridge", "v002", "noop", horizon_s=400.0, pose_noise_m=0.0)
    episode = job.open()
    obs = episode.reset(0)
    ctx = SkillContext(task=episode.task, scene=episode.scene, control_dt=0.1, initial=obs.state)
    close = Close("fridge/door")
    door = Door(HouseQuery(episode.scene.house).parts["fridge/door"])
    for q in (1.78, 1.88):
        wide = dataclasses.replace(obs, parts={**obs.parts, "fridge/door": q})
        radius = door.length - tuning().articulate.edge_in_m
        found = door_stance(ctx, wide, close.part, door, "outer", q, -0.05, radius, push_height(door))
        assert found is not None, q
        pose, _, reached = found
        assert q - reached >= tuning().articulate.min_sweep  # pushed on towards shut from there
        facing = math.atan2(*(door.segment(q)[1] - np.asarray(pose[:2]))[::-1])
        assert abs(wrap(pose[2] - facing)) > 0.3  # side on
