"""DVC stage ``house``: params -> ``scenes/house/{house.usda, topdown.png, houses.json}`` +
``annotations/house.json``, and ``scenes/house/<id>/{house.usda, topdown.png, house.json}`` per procedural house.

Reads ``params.yaml:house`` (the grid house, and what every house shares) and ``params.yaml:houses`` (the house
set: :mod:`housebench.house.houses`), and ``tasks/*.json`` (the names the access tests look for). Fails when a
room of the grid house cannot be reached by the robot's base from its start (checked on the annotations'
free-floor grid). A procedural house that cannot be built or fails an access test is listed in ``houses.json``
with its reason (``bad``) and left out of the set. The top-down pictures are MuJoCo renders (``MUJOCO_GL=egl``)
with room labels.
"""

from __future__ import annotations

from pathlib import Path

from housebench import paths
from housebench.house.build import Built, build_set
from housebench.house.houses import HousesParams
from housebench.house.params import HouseParams
from housebench.house.picture import ASPECT, label_rooms
from housebench.io import atomic_dir, write_json
from housebench.params import load_section
from housebench.procs import die_with_parent
from housebench.sim.offscreen import use_offscreen_gl
from housebench.tasks.needs import task_needs
from housebench.usd.house import write_house_usd
from housebench.usd.paths import TOPDOWN

TOPDOWN_HEIGHT = 900  # pixels


def _write(built: Built, folder: Path) -> None:
    from housebench.sim.registry import make_backend

    folder.mkdir(parents=True, exist_ok=True)
    write_house_usd(built.house, folder / "house.usda")
    image = (
        make_backend("mujoco")
        .load(folder / "house.usda")
        .render(TOPDOWN, round(TOPDOWN_HEIGHT * ASPECT), TOPDOWN_HEIGHT)
    )
    label_rooms(image, built.annotations).save(folder / "topdown.png")


def main() -> None:
    die_with_parent()  # killing dvc repro takes this stage and its workers with it
    use_offscreen_gl()
    params = load_section("house", HouseParams)
    houses = load_section("houses", HousesParams)
    grid, built, record = build_set(houses, params.model_dump(), task_needs(paths.TASK_SPECS_DIR))
    with atomic_dir(paths.HOUSE_DIR) as tmp:
        _write(grid, tmp)
        for house in built:
            if house is not grid:
                _write(house, tmp / house.entry.id)
                write_json(tmp / house.entry.id / "house.json", house.annotations.model_dump(mode="json"))
        write_json(tmp / paths.HOUSES_FILE.name, record.model_dump(mode="json"))
    write_json(paths.ANNOTATIONS_DIR / "house.json", grid.annotations.model_dump(mode="json"))
    for bad in record.bad:
        print(f"house {bad.id} (seed {bad.seed}) left out: {bad.reason}")
    print(
        f"house: {len(record.houses)} houses in the set ({', '.join(record.ids())}), {len(record.bad)} bad; "
        f"grid: {len(grid.annotations.rooms)} rooms, {len(grid.house.boxes)} boxes, {len(grid.house.parts)} parts "
        f"-> {paths.HOUSE_DIR}"
    )


if __name__ == "__main__":
    main()
