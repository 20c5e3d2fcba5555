"""Reading ``params.yaml``: each stage reads only its own namespace."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)
PARAMS = Path("params.yaml")


def load_params(section: str, path: Path = PARAMS) -> dict[str, Any]:
    """The ``section`` mapping of ``params.yaml``; a missing file or section is a one-line error."""
    try:
        data = yaml.safe_load(Path(path).read_text())
    except FileNotFoundError:
        raise SystemExit(f"{path}: file not found") from None
    if not isinstance(data, dict) or not isinstance(data.get(section), dict):
        raise SystemExit(f"{path}: missing section '{section}'")
    return data[section]


def load_section(section: str, model: type[M], path: Path = PARAMS, **overrides: Any) -> M:
    """``section`` validated by ``model`` (with ``overrides`` applied); errors name the key, in one line."""
    try:
        return model.model_validate({**load_params(section, path), **overrides})
    except ValidationError as err:
        first = err.errors()[0]
        key = ".".join(str(part) for part in (section, *first["loc"]))
        raise SystemExit(f"{path}: {key}: {first['msg']}") from None
