"""Reading the house and asset annotation files that the sampler and the annotator start from."""

from __future__ import annotations

from housebench.annotations.schema import AssetsFile, HouseAnnotations
from housebench.jsonfile import SpecError, load_model
from housebench.paths import ANNOTATIONS_DIR, GRID, Layout


def load_house(layout: Layout, house: str = GRID) -> HouseAnnotations:
    """The annotations of house ``house`` (an id of the house set) in ``layout``; a bad file is a one-line exit."""
    try:
        return load_model(HouseAnnotations, layout.house_annotations(house))
    except SpecError as err:
        raise SystemExit(str(err)) from None


def load_assets(layout: Layout) -> AssetsFile:
    """The asset annotations of ``layout``; a bad file is a one-line exit."""
    try:
        return load_model(AssetsFile, layout.at(ANNOTATIONS_DIR / "assets.json"))
    except SpecError as err:
        raise SystemExit(str(err)) from None


def load_house_and_assets(layout: Layout) -> tuple[HouseAnnotations, AssetsFile]:
    """The grid house's and the asset annotations of ``layout``; a bad file is a one-line exit."""
    return load_house(layout), load_assets(layout)
