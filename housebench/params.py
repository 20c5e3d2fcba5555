"""Reading ``params.yaml``: each stage reads only its own section, validated by its model.

A section model derives from :class:`Section`, and so does every model nested in it: an unknown key
is refused at any depth, and so is a missing one (params.yaml states every key, so a run's file is
the whole record of its settings; the one exception, ``skills:``, holds only what differs from the tuning
defaults in code, its run's events echo the rest: :mod:`housebench.skills.tuning`). Default values live
only in the models, for callers without a params file (``housebench asset import``, tests). Every failure
is one line naming the file and the dotted key, e.g. ``params.yaml: house.parts.door_rnage: unknown key``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from housebench.inputs import InputError
from housebench.yamlfile import load_yaml

M = TypeVar("M", bound=BaseModel)
PARAMS = Path("params.yaml")
MAX_WORKERS = 64  # processes a stage may start
Workers = Annotated[int, Field(ge=1, le=MAX_WORKERS)]


class Section(BaseModel):
    """Base of a params section and of every model nested in one: strict, frozen, numbers finite
    (YAML's ``.nan`` and ``.inf`` are refused)."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


def sections(path: Path = PARAMS) -> dict[str, Any]:
    """Every section of ``params.yaml`` (strict YAML); a missing or malformed file is a one-line error."""
    try:
        data = load_yaml(Path(path))
    except InputError as err:
        raise SystemExit(str(err)) from None
    return data if isinstance(data, dict) else {}


def load_params(section: str, path: Path = PARAMS) -> dict[str, Any]:
    """The raw ``section`` mapping of ``params.yaml``; a missing file or section is a one-line error."""
    data = sections(path)
    if not isinstance(data.get(section), dict):
        raise SystemExit(f"{path}: missing section '{section}'")
    return data[section]


def _dotted(loc: tuple[Any, ...]) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text.lstrip(".")


def missing_keys(model: type[BaseModel], data: Any, prefix: str = "") -> list[str]:
    """The dotted keys of ``model`` (nested :class:`Section` models included) absent from ``data``."""
    if not isinstance(data, dict):
        return []
    missing = []
    for name, field in model.model_fields.items():
        key = f"{prefix}{name}"
        if name not in data:
            missing.append(key)
        elif isinstance(field.annotation, type) and issubclass(field.annotation, Section):
            missing += missing_keys(field.annotation, data[name], f"{key}.")
    return missing


def load_section(section: str, model: type[M], path: Path = PARAMS, complete: bool = True, **overrides: Any) -> M:
    """``section`` validated by ``model`` (with ``overrides`` applied): every key present (``complete=False``: a
    key left out keeps the model's default, for a section of overrides only, ``skills:``), none unknown, at every
    depth; any failure is one line naming the file and the dotted key."""
    data = {**load_params(section, path), **overrides}
    try:
        loaded = model.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        what = {"extra_forbidden": "unknown key", "missing": "missing key"}.get(first["type"], first["msg"])
        raise SystemExit(f"{path}: {_dotted((section, *first['loc']))}: {what}") from None
    if complete and (missing := missing_keys(model, data)):
        raise SystemExit(f"{path}: {section}.{missing[0]}: missing key")
    return loaded
