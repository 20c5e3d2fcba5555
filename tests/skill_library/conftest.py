"""The task tests' hand-made world (tests/tasks/conftest.py: a room with a table, a shelf, a fridge and
a cabinet with a door, a drawer and a start button; apple, orange, bowl and book), reused here, with
grasp annotations added so policy paths can be chosen."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tasks"))

import tests.tasks.conftest as task_fixtures  # noqa: E402
from housebench.annotations.schema import GraspPrimitive, SceneAnnotations  # noqa: E402
from housebench.skill_library.contracts import World  # noqa: E402

house, assets, usd_world = task_fixtures.house, task_fixtures.assets, task_fixtures.usd_world
bare_scene = task_fixtures.scene


@pytest.fixture
def files(usd_world, house, assets, tmp_path):
    """The small world's fruit task as scene, task.json and annotations (tests/tasks/test_task_episode.py)."""
    from tests.tasks.test_task_episode import files as build

    return build.__wrapped__(usd_world, house, assets, tmp_path)


GRASPS = {"apple": "top_pinch", "orange": "top_pinch", "bowl": "rim_pinch"}


@pytest.fixture
def scene(bare_scene) -> SceneAnnotations:
    objects = {
        name: obj.model_copy(
            update={
                "asset": obj.asset.model_copy(
                    update={
                        "grasps": [GraspPrimitive(kind=GRASPS[name], point=(0, 0, 0.04), axis=(1, 0, 0), width=0.08)]
                    }
                )
            }
        )
        for name, obj in bare_scene.objects.items()
    }
    return bare_scene.model_copy(update={"objects": objects})


@pytest.fixture
def world(scene) -> World:
    return World(scene, {"apple": "fruit", "orange": "fruit", "bowl": "container"})
