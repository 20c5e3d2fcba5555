"""Grasp primitives in the asset annotation: the right kind for each shape, or a reason for none."""

from __future__ import annotations

import numpy as np
import pytest
import trimesh

from housebench.assets.grasps import Gripper, grasp_primitives, narrowest

EXPECTED = {
    "apple": {"top_pinch"},
    "pen": {"top_pinch"},
    "bowl": {"rim_pinch"},
    "mug": {"top_pinch", "rim_pinch", "handle_pinch"},
    "book": {"edge_pinch_after_push"},
    "notebook": {"edge_pinch_after_push"},
    "toy_box": {"rim_pinch"},
    "cereal_box": set(),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_grasp_kinds_per_asset(name, built_set):
    annotation = built_set[name][1]
    assert {g.kind for g in annotation.grasps} == EXPECTED[name]
    assert (annotation.grasp_note is None) == bool(annotation.grasps)
    for grasp in annotation.grasps:
        assert grasp.width + Gripper().clearance <= Gripper().opening
        assert np.linalg.norm(grasp.axis) == pytest.approx(1.0)


def test_the_distractor_says_why_it_cannot_be_grasped(built_set):
    note = built_set["cereal_box"][1].grasp_note
    assert "0.120 m" in note and "not flat" in note


def test_mug_handle_pinch_sits_on_the_handle(built_set):
    annotation = built_set["mug"][1]
    handle = next(g for g in annotation.grasps if g.kind == "handle_pinch")
    assert handle.point[0] > annotation.container.inner_half_extents[0] + 0.005  # outside the body
    assert handle.axis == (0.0, 1.0, 0.0) and handle.width < 0.02


def test_narrowest_cross_section_of_a_turned_box():
    box = trimesh.creation.box(extents=(0.2, 0.05, 0.1))
    box.apply_transform(trimesh.transformations.rotation_matrix(np.radians(30), [0, 0, 1]))
    width, direction, centre = narrowest(np.asarray(box.vertices)[:, :2])
    assert width == pytest.approx(0.05, abs=1e-3)
    assert abs(direction @ [np.cos(np.radians(120)), np.sin(np.radians(120))]) == pytest.approx(1, abs=1e-3)
    assert np.allclose(centre, 0, atol=1e-9)


def test_a_wider_gripper_takes_what_a_narrow_one_cannot():
    box = trimesh.creation.box(extents=(0.12, 0.12, 0.2))
    v = np.asarray(box.vertices) + [0, 0, 0.1]
    assert grasp_primitives(v, [], None, Gripper())[0] == []
    assert [g.kind for g in grasp_primitives(v, [], None, Gripper(opening=0.14))[0]] == ["top_pinch"]
