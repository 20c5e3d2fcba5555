"""A rim pinch leans its fingers towards the container's centre by the wall's flare (geometry), and what
lies in a held container rides along: no obstacle to the arm that carries it (on a built scene)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from housebench.annotations.schema import AssetAnnotation, ContainerProfile, GraspPrimitive
from housebench.skills.grasp import FINGER_HALF, grasps
from housebench.skills.motion import obstacles
from housebench.state import ObjectState
from tests.conftest import built_episode

BOWL = AssetAnnotation(  # annotations/assets.json's bowl: a wall flaring from r 0.0636 at mid-depth to 0.08
    name="bowl",
    category="bowl",
    size=(0.16, 0.16, 0.06),
    mass=0.35,
    container=ContainerProfile(shape="round", inner_half_extents=(0.063593, 0.063593), floor_z=0.008, rim_z=0.06),
    grasps=[GraspPrimitive(kind="rim_pinch", point=(-0.071796, 0.0, 0.05), axis=(1.0, 0.0, 0.0), width=0.016407)],
)
AT = ObjectState(pos=(2.0, 3.0, 0.9), quat=(math.cos(0.35), 0.0, 0.0, math.sin(0.35)))  # yaw 0.7 rad


def test_rim_pinch_fingers_lean_towards_the_centre_through_the_wall():
    options = grasps(BOWL, AT)
    assert len(options) == 4  # a round bowl: four points round the rim
    centre = np.asarray(AT.pos[:2])
    flare = math.atan2(0.016407, (0.06 - 0.008) / 2)  # 32 deg: outer rim edge down to the mid-depth wall
    for grasp in options:
        assert grasp.lean == flare
        for rot in grasp.rotations():
            pointing = rot[:, 0]  # the fingers' direction, pad to fingertips
            inwards = (centre - grasp.pad[:2]) / np.linalg.norm(centre - grasp.pad[:2])
            assert math.isclose(math.acos(-pointing[2]), flare, abs_tol=1e-9)  # leaning, not straight down
            assert pointing[:2] @ inwards > 0.99 * math.sin(flare)  # towards the centre
            assert abs(rot[:, 1][:2] @ np.array([-inwards[1], inwards[0]])) < 1e-9  # closing across the wall
            tips = grasp.pad + pointing * FINGER_HALF
            assert np.linalg.norm(tips[:2] - centre) < np.linalg.norm(grasp.pad[:2] - centre)
        # the fingers' line passes through the annotated point (0.0718 m out, 5 cm up)
        down = (grasp.pad[2] - (0.9 + 0.05)) / math.cos(flare)
        point = grasp.pad + grasp.rotations()[0][:, 0] * down
        assert math.isclose(np.linalg.norm(point[:2] - centre), 0.071796, abs_tol=1e-6)


def test_what_lies_in_the_held_bowl_is_no_obstacle_to_the_arm():
    episode, ctx, obs = built_episode("bring_fruit_bowl", "v000", horizon_s=10.0)
    assert "apple" in obstacles(ctx, obs)  # nothing held: the apple is a prop like any other
    holding = dataclasses.replace(obs, finger_contacts={"left": ("bowl",), "right": ("bowl",)})
    assert set(obstacles(ctx, holding)) == set(obs.objects) - {"apple"}  # the bowl carried, the apple in it
