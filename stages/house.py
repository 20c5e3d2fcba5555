"""DVC stage ``house``: params -> ``scenes/house/{house.usda, topdown.png, houses.json}`` +
``annotations/house.json``, and ``scenes/house/<id>/{house.usda, topdown.png, house.json}`` per procedural house.

Reads ``params.yaml:house`` (the grid house, and what every house shares), ``params.yaml:houses`` (the house set:
:mod:`housebench.house.houses`), ``params.yaml:settle`` (the stability check's tolerances) and ``tasks/*.json``
(the names the access tests look for). Fails when a room of the grid house cannot be reached by the robot's base
from its start (checked on the annotations' free-floor grid). A procedural house that cannot be built, fails an
access test or is unstable in physics is listed in ``houses.json`` with its reason (``bad``) and left out of the set
(:mod:`housebench.pipeline.house`). The top-down pictures are MuJoCo renders (``MUJOCO_GL=egl``) with room labels.
"""

from __future__ import annotations

from housebench import paths
from housebench.house.houses import HousesParams
from housebench.house.params import HouseParams
from housebench.params import load_section
from housebench.paths import Layout
from housebench.pipeline.house import write_house_set
from housebench.pipeline.settle import SettleParams
from housebench.procs import die_with_parent


def main() -> None:
    die_with_parent()  # killing dvc repro takes this stage and its workers with it
    params, settle = load_section("house", HouseParams), load_section("settle", SettleParams)
    grid, record = write_house_set(
        Layout(), load_section("houses", HousesParams), params.model_dump(), settle.model_dump()
    )
    for bad in record.bad:
        print(f"house {bad.id} (seed {bad.seed}) left out: {bad.reason}")
    print(
        f"house: {len(record.houses)} houses in the set ({', '.join(record.ids())}), {len(record.bad)} bad; "
        f"grid: {len(grid.annotations.rooms)} rooms, {len(grid.house.boxes)} boxes, {len(grid.house.parts)} parts "
        f"-> {paths.HOUSE_DIR}"
    )


if __name__ == "__main__":
    main()
