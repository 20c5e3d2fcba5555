"""DVC stage ``house``: params -> ``scenes/house/house.usda`` + ``annotations/house.json``."""

from __future__ import annotations

from housebench import paths
from housebench.house.annotate import house_annotations
from housebench.house.layout import generate_house
from housebench.io import atomic_dir, write_json
from housebench.params import load_params
from housebench.usd.house import write_house_usd


def main() -> None:
    house = generate_house(load_params("house"))
    with atomic_dir(paths.HOUSE_DIR) as tmp:
        write_house_usd(house, tmp / "house.usda")
    write_json(paths.ANNOTATIONS_DIR / "house.json", house_annotations(house).model_dump(mode="json"))
    print(f"house: {len(house.boxes)} boxes -> {paths.HOUSE_DIR / 'house.usda'}")


if __name__ == "__main__":
    main()
