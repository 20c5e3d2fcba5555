"""DVC stage `annotate`: ground-truth annotations of every settled task scene.

Reads ``scenes/settled/``, ``scenes/tasks/*/*/task.json``, ``annotations/house.json`` and
``annotations/assets.json``; writes ``annotations/scenes/<task>__<variant>.json``.
"""

from __future__ import annotations

from housebench.annotations.files import load_house_and_assets
from housebench.annotations.scene import annotate_scene
from housebench.io import atomic_dir, write_json
from housebench.jsonfile import load_model
from housebench.paths import Layout
from housebench.tasks.spec import TaskVariant


def annotate_all(layout: Layout) -> list[str]:
    """Annotate every variant of ``layout``; returns the scene names written."""
    house, assets = load_house_and_assets(layout)
    written = []
    with atomic_dir(layout.at(layout.scene_annotations_dir)) as tmp:
        for task, variant in layout.variants():
            variant_file = load_model(TaskVariant, layout.task_dir(task, variant) / "task.json")
            scene = annotate_scene(layout.settled_scene(task, variant), variant_file, house, assets)
            write_json(tmp / layout.scene_annotations(task, variant).name, scene.model_dump(mode="json"))
            written.append(scene.scene)
    return written


def main() -> None:
    for scene in annotate_all(Layout()):
        print(f"annotated {scene}")


if __name__ == "__main__":
    main()
