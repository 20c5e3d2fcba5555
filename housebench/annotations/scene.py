"""Scene annotations: the house plus every prop of a settled scene at its rest pose."""

from __future__ import annotations

from pathlib import Path

from housebench.annotations.schema import AssetsFile, HouseAnnotations, PlacedObject, SceneAnnotations
from housebench.house.query import HouseQuery
from housebench.io import r6
from housebench.state import ObjectState
from housebench.tasks.geometry import world_box
from housebench.tasks.spec import TaskVariant
from housebench.usd.props import prop_poses


def annotate_scene(scene_usd: Path, task: TaskVariant, house: HouseAnnotations, assets: AssetsFile) -> SceneAnnotations:
    """Annotations of one settled scene; ``task`` is its variant (asset and support per prop)."""
    poses, rooms = prop_poses(scene_usd), HouseQuery(house)
    objects = {}
    for name, placed in task.objects.items():
        if name not in poses:
            raise ValueError(f"{scene_usd}: prop '{name}' of task.json is missing from the scene")
        pos, quat = poses[name]
        asset = assets.assets[placed.asset]
        box = tuple(map(r6, world_box(ObjectState(pos=pos, quat=quat), asset)))
        objects[name] = PlacedObject(
            asset=asset, pos=pos, quat=quat, support=placed.support, box=box, room=rooms.room_at(pos[0], pos[1])
        )
    return SceneAnnotations(scene=f"{task.task}/{task.variant}", house=house, objects=objects)
