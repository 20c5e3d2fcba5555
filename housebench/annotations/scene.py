"""Scene annotations: the house plus every prop of a settled scene at its rest pose."""

from __future__ import annotations

from pathlib import Path

from housebench.annotations.schema import AssetsFile, HouseAnnotations, PlacedObject, SceneAnnotations
from housebench.tasks.spec import TaskVariant
from housebench.usd.props import prop_poses


def annotate_scene(scene_usd: Path, task: TaskVariant, house: HouseAnnotations,
                   assets: AssetsFile) -> SceneAnnotations:
    """Annotations of one settled scene; ``task`` is its variant (asset and support per prop)."""
    poses = prop_poses(scene_usd)
    objects = {}
    for name, placed in task.objects.items():
        if name not in poses:
            raise ValueError(f"{scene_usd}: prop '{name}' of task.json is missing from the scene")
        pos, quat = poses[name]
        objects[name] = PlacedObject(
            asset=assets.assets[placed.asset], pos=pos, quat=quat, support=placed.support
        )
    return SceneAnnotations(scene=f"{task.task}/{task.variant}", house=house, objects=objects)
