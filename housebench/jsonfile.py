"""Strict JSON model files (task specs, variants, annotations, states): read, version-checked and
validated, every failure one line naming the file and the key.

Error paths leave out what is not a key: list indices join the key before them (``objects[2]``),
validator wrappers (``function-...``) are dropped, and so are discriminated-union tags, which are
written ``<name>`` (:func:`union_tag`) so they can never be mistaken for a field of that name.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)


class SpecError(ValueError):
    """A bad spec, variant, annotation or state file; the message is one line naming the file and key."""


def union_tag(name: str) -> str:
    """The tag of a discriminated-union member: ``<name>``."""
    return f"<{name}>"


def one_line(source: object, err: ValidationError) -> str:
    """A pydantic error as one line: ``<source>: <key.path>: <message>; ...``."""
    parts = []
    for e in err.errors():
        keys: list[str] = []
        for part in e["loc"]:
            if isinstance(part, int):
                keys[-1] += f"[{part}]"
            elif not (part.startswith("<") and part.endswith(">")) and not part.startswith("function-"):
                keys.append(part)
        msg = e["msg"].removeprefix("Value error, ")
        parts.append(f"{'.'.join(keys)}: {msg}" if keys else msg)
    return f"{source}: " + "; ".join(parts)


def load_model(model: type[M], path: Path) -> M:
    """Read ``path`` as ``model`` (version 1 where the model has a version); any failure is a
    one-line :class:`SpecError`."""
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as err:
        raise SpecError(f"{path}: {err}") from None
    version = data.get("version") if isinstance(data, dict) else None
    if "version" in model.model_fields and version != 1:
        raise SpecError(f"{path}: version: {version!r} is not supported (this housebench reads 1)")
    try:
        return model.model_validate(data)
    except ValidationError as err:
        raise SpecError(one_line(path, err)) from None
