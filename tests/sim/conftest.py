"""Fixtures: the default house and task scenes over it (builders in ``usd_fixtures``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from usd_fixtures import house_params, write_box_asset, write_task_layer

from housebench.house.layout import generate_house
from housebench.usd.house import write_house_usd


@pytest.fixture(scope="session")
def house():
    return generate_house(house_params())


@pytest.fixture(scope="session")
def scenes(tmp_path_factory, house) -> Path:
    """``root/`` with scenes/house/house.usda, assets/box/asset.usda, scenes/tasks/drop/{table,floor}."""
    root = tmp_path_factory.mktemp("scenes")
    (root / "scenes/house").mkdir(parents=True)
    (root / "assets/box").mkdir(parents=True)
    house_usda = root / "scenes/house/house.usda"
    write_house_usd(house, house_usda)
    asset = write_box_asset(root / "assets/box/asset.usda")
    top = next(b for b in house.boxes if b.name == "dining_table/top")
    above_table = (top.center[0], top.center[1], top.bounds[5] + 0.05)
    write_task_layer(root / "scenes/tasks/drop/table/task.usda", house_usda, {"box": (asset, above_table)})
    write_task_layer(
        root / "scenes/tasks/drop/floor/task.usda",
        house_usda,
        {"box": (asset, above_table), "stray": (asset, (1.0, 4.0, 0.5))},
    )
    return root
