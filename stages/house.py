"""DVC stage ``house``: params -> ``scenes/house/{house.usda, topdown.png}`` + ``annotations/house.json``.

Fails when a room cannot be reached by the robot's base from its start (checked on the annotations'
free-floor grid). The top-down picture is a MuJoCo render (``MUJOCO_GL=egl``) with room labels.
"""

from __future__ import annotations

from housebench import paths
from housebench.house.annotate import house_annotations
from housebench.house.layout import generate_house
from housebench.house.params import HouseParams
from housebench.house.picture import ASPECT, label_rooms
from housebench.house.query import HouseQuery
from housebench.io import atomic_dir, write_json
from housebench.params import load_section
from housebench.procs import die_with_parent
from housebench.sim.offscreen import use_offscreen_gl
from housebench.usd.house import write_house_usd
from housebench.usd.paths import TOPDOWN

TOPDOWN_HEIGHT = 900  # pixels


def main() -> None:
    die_with_parent()  # killing dvc repro takes this stage and its workers with it
    use_offscreen_gl()
    from housebench.sim.registry import make_backend

    params = load_section("house", HouseParams)
    house = generate_house(params.model_dump())
    annotations = house_annotations(house)
    unreachable = {r.name for r in annotations.rooms} - HouseQuery(annotations, params.grid).reachable_rooms()
    if unreachable:
        raise SystemExit(f"params.yaml house: rooms not reachable from the robot start: {sorted(unreachable)}")
    with atomic_dir(paths.HOUSE_DIR) as tmp:
        write_house_usd(house, tmp / "house.usda")
        image = (
            make_backend("mujoco")
            .load(tmp / "house.usda")
            .render(TOPDOWN, round(TOPDOWN_HEIGHT * ASPECT), TOPDOWN_HEIGHT)
        )
        label_rooms(image, annotations).save(tmp / "topdown.png")
    write_json(paths.ANNOTATIONS_DIR / "house.json", annotations.model_dump(mode="json"))
    print(
        f"house: {len(annotations.rooms)} rooms, {len(house.boxes)} boxes, {len(house.parts)} parts "
        f"-> {paths.HOUSE_DIR / 'house.usda'}"
    )


if __name__ == "__main__":
    main()
