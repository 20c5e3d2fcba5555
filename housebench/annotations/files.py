"""Reading the house and asset annotation files that the sampler and the annotator start from."""

from __future__ import annotations

from housebench.annotations.schema import AssetsFile, HouseAnnotations
from housebench.jsonfile import SpecError, load_model
from housebench.paths import ANNOTATIONS_DIR, Layout


def load_house_and_assets(layout: Layout) -> tuple[HouseAnnotations, AssetsFile]:
    """The house and asset annotations of ``layout``; a bad file is a one-line exit."""
    try:
        return (
            load_model(HouseAnnotations, layout.at(ANNOTATIONS_DIR / "house.json")),
            load_model(AssetsFile, layout.at(ANNOTATIONS_DIR / "assets.json")),
        )
    except SpecError as err:
        raise SystemExit(str(err)) from None
