"""The spec table (``assets/specs.yaml``): real size, mass, tags and collider per asset name.

Entries override what EmbodiedGen baked in. Unknown keys are rejected; errors name the file and field.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, PositiveFloat, ValidationError, model_validator

from housebench.assets.errors import AssetError
from housebench.inputs import InputError
from housebench.names import check_name
from housebench.yamlfile import load_yaml


class AssetSpec(BaseModel):
    """One asset's real-world facts. ``size`` (x, y, z extents, Z up, as the asset ends up) scales per
    axis; ``height`` scales uniformly to the asset's real height as generated, upright (EmbodiedGen's
    ``real_height``), measured before ``lay_flat`` lays it down; give at most one. ``container``
    (round/rect) requires the ``container`` tag. ``origin: base`` centres the asset on the footprint
    it stands on (a mug's axis, not its handle)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    category: str | None = None
    size: tuple[PositiveFloat, PositiveFloat, PositiveFloat] | None = None
    height: PositiveFloat | None = None
    mass: PositiveFloat | None = None
    friction: PositiveFloat | None = None
    tags: list[str] = Field(default_factory=list)
    collider: Literal["auto", "hull", "coacd", "source"] = "auto"
    container: Literal["round", "rect"] | None = None
    lay_flat: bool = False  # turn the thinnest extent to Z before sizing (e.g. a book stood up)
    origin: Literal["bbox", "base"] = "bbox"  # bottom centre of the bounding box, or of the footprint

    @model_validator(mode="after")
    def _consistent(self) -> AssetSpec:
        if self.size is not None and self.height is not None:
            raise ValueError("give size or height, not both")
        if (self.container is not None) != ("container" in self.tags):
            raise ValueError("'container' shape and the 'container' tag go together")
        return self

    @property
    def sized(self) -> bool:
        """Whether the spec fixes the real size (needed to accept a failed-sizing asset)."""
        return self.size is not None or self.height is not None


class SpecTable(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    version: Literal[1] = 1
    assets: dict[Annotated[str, AfterValidator(check_name)], AssetSpec]


def load_specs(path: Path) -> SpecTable:
    """Parse and validate a spec table; a bad entry is one :class:`AssetError` line."""
    try:
        data = load_yaml(Path(path))
    except InputError as err:
        raise AssetError(err.file, err.field, err.reason) from None
    try:
        return SpecTable.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"] if p != "[key]") or "root"
        raise AssetError(path, where, first["msg"]) from None
