"""Reading ``params.yaml``: each stage reads only its own namespace."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from housebench.inputs import InputError
from housebench.yamlfile import load_yaml

M = TypeVar("M", bound=BaseModel)
PARAMS = Path("params.yaml")


def sections(path: Path = PARAMS) -> dict[str, Any]:
    """Every section of ``params.yaml`` (strict YAML); a missing or malformed file is a one-line error."""
    try:
        data = load_yaml(Path(path))
    except InputError as err:
        raise SystemExit(str(err)) from None
    return data if isinstance(data, dict) else {}


def load_params(section: str, path: Path = PARAMS) -> dict[str, Any]:
    """The ``section`` mapping of ``params.yaml``; a missing file or section is a one-line error."""
    data = sections(path)
    if not isinstance(data.get(section), dict):
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


def load_keys(section: str, keys: tuple[str, ...], path: Path = PARAMS) -> dict[str, Any]:
    """``section`` with exactly ``keys`` (a typo is an unknown key, not a silent default), in one line."""
    params = load_params(section, path)
    unknown, missing = sorted(set(params) - set(keys)), sorted(set(keys) - set(params))
    if unknown or missing:
        what = f"unknown key '{unknown[0]}'" if unknown else f"missing key '{missing[0]}'"
        raise SystemExit(f"{path}: {section}: {what} (expected: {', '.join(keys)})")
    return params
