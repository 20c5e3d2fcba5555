"""The house stage's work: the house set of the params built and put through the access tests
(:func:`housebench.house.build.build_set`), each house written (``house.usda``, a labelled top-down picture, its
annotations), each procedural house's stability checked in physics (the robot and the articulated parts alone, as
the settle stage checks every house), and the set's record, ``houses.json``: a house that cannot be built, fails an
access test or is unstable is a bad house, listed with its reason and left out."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from housebench import paths
from housebench.house.build import Built, build_set
from housebench.house.houses import BadHouse, HouseSet, HousesParams
from housebench.house.picture import ASPECT, label_rooms
from housebench.io import atomic_dir, write_json
from housebench.paths import Layout
from housebench.sim.offscreen import use_offscreen_gl
from housebench.tasks.needs import task_needs
from housebench.usd.house import write_house_usd
from housebench.usd.looks import looks_for
from housebench.usd.paths import TOPDOWN

TOPDOWN_HEIGHT = 900  # pixels


def unstable_reason(check: dict[str, Any], p: dict[str, Any]) -> str:
    """Why a house's stability check failed, in words (``check``: :func:`housebench.sim.settle.stability`'s)."""
    why = [f"a body drifted {d:.3f} m ({name})" for name, d in sorted(check["drift"].items()) if d >= p["max_drift"]]
    if check["robot_max_dev"] >= p["robot_tol"]:
        why.append(f"the robot moved {check['robot_max_dev']:.3f} (tolerance {p['robot_tol']})")
    if check["part_max_open"] >= p["part_tol"]:
        why.append(f"a part opened {check['part_max_open']:.3f} (tolerance {p['part_tol']})")
    return f"unstable over {check['duration']} s of physics: " + "; ".join(why or ["failed"])


def _write(built: Built, folder: Path, backend: Any, house: dict[str, Any]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    seed = house["seed"] if built.entry.seed is None else built.entry.seed
    write_house_usd(built.house, folder / "house.usda", looks_for(seed, house["looks"]))
    # the plan draws the colliders in their flat colours: the textures would add about 0.7 MB a house to a map
    sim = backend.load(folder / "house.usda")
    image = sim.render(TOPDOWN, round(TOPDOWN_HEIGHT * ASPECT), TOPDOWN_HEIGHT, collision=True)
    label_rooms(image, built.annotations).save(folder / "topdown.png")


def write_house_set(
    layout: Layout, houses: HousesParams, house: dict[str, Any], settle: dict[str, Any]
) -> tuple[Built, HouseSet]:
    """Build, check and write the set into ``layout`` (``scenes/house/`` replaced at once, then
    ``annotations/house.json``); returns the grid house and the set's record. ``settle``: the ``settle:`` params
    (the stability check's tolerances)."""
    use_offscreen_gl()
    from housebench.sim.registry import make_backend
    from housebench.sim.settle import stability

    backend = make_backend("mujoco")
    grid, built, bad = build_set(houses, house, task_needs(layout.at(paths.TASK_SPECS_DIR)))
    kept = []
    with atomic_dir(layout.at(paths.HOUSE_DIR)) as tmp:
        _write(grid, tmp, backend, house)
        for one in built:
            if one is grid:
                kept.append(one.entry)
                continue
            folder = tmp / one.entry.id
            _write(one, folder, backend, house)
            check = stability(backend.load(folder / "house.usda"), settle)
            if not check["passed"]:
                bad.append(BadHouse(id=one.entry.id, seed=one.entry.seed, reason=unstable_reason(check, settle)))
                shutil.rmtree(folder)
                continue
            write_json(folder / "house.json", one.annotations.model_dump(mode="json"))
            kept.append(one.entry)
        if not kept:
            raise SystemExit(f"params.yaml houses: every house is bad: {[f'{b.id}: {b.reason}' for b in bad]}")
        record = HouseSet(houses=kept, bad=sorted(bad, key=lambda b: b.seed))
        write_json(tmp / paths.HOUSES_FILE.name, record.model_dump(mode="json"))
    write_json(layout.house_annotations(), grid.annotations.model_dump(mode="json"))
    return grid, record
