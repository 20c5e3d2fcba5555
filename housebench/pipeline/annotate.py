"""The annotate stage's work: ground truth of every settled scene, its house (the variant's, of the house set)
plus every prop at its rest pose (``SceneAnnotations``)."""

from __future__ import annotations

from pathlib import Path

from housebench.annotations.files import load_assets, load_house
from housebench.annotations.schema import AssetsFile, HouseAnnotations, PlacedObject, SceneAnnotations
from housebench.house.query import HouseQuery
from housebench.io import atomic_dir, r6, write_json
from housebench.jsonfile import load_model
from housebench.paths import Layout
from housebench.progress import track
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


def annotate_all(layout: Layout) -> list[str]:
    """Annotate every variant of ``layout``; returns the scene names written."""
    assets, houses = load_assets(layout), {}
    written = []
    with atomic_dir(layout.at(layout.scene_annotations_dir)) as tmp:
        for task, variant in track(layout.variants(), "annotate", "scene"):
            variant_file = load_model(TaskVariant, layout.task_dir(task, variant) / "task.json")
            house = houses.get(variant_file.house) or houses.setdefault(
                variant_file.house, load_house(layout, variant_file.house)
            )
            scene = annotate_scene(layout.settled_scene(task, variant), variant_file, house, assets)
            write_json(tmp / layout.scene_annotations(task, variant).name, scene.model_dump(mode="json"))
            written.append(scene.scene)
    return written
