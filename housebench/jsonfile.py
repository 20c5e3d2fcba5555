"""Strict JSON model files (task specs, variants, annotations, states): read, version-checked and
validated, every failure one line naming the file and the key.

The file is a regular file of bounded size read as UTF-8 (:mod:`housebench.inputs`); ``NaN``,
``Infinity`` and numbers that overflow to infinity are refused while parsing, and so is nesting too
deep to parse. ``version`` must be the integer 1 (not ``true``, not ``1.0``).

Error paths leave out what is not a key: list indices join the key before them (``objects[2]``),
validator wrappers (``function-...``) are dropped, and so are discriminated-union tags, which are
written ``<name>`` (:func:`union_tag`) so they can never be mistaken for a field of that name.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from housebench.inputs import MAX_JSON, InputError, read_text

M = TypeVar("M", bound=BaseModel)
MAX_DEPTH = 32  # lists and objects inside each other; the deepest real file (a goal tree) has about 8


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


def _not_a_number(word: str) -> float:
    raise ValueError(f"{word} is not a number (JSON has no NaN or infinity)")


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"{text} overflows to infinity")
    return value


def _depth(data: object) -> int:
    """How deeply lists and objects nest in ``data`` (iteratively: no recursion limit to hit)."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        value, depth = stack.pop()
        children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else None
        if children is not None:
            deepest = max(deepest, depth)
            stack.extend((child, depth + 1) for child in children)
    return deepest


def read_json(path: Path) -> object:
    """The JSON value in ``path`` (finite numbers only, at most :data:`MAX_DEPTH` levels deep); any
    failure is a one-line :class:`SpecError`."""
    try:
        data = json.loads(read_text(path, MAX_JSON), parse_constant=_not_a_number, parse_float=_finite)
    except InputError as err:
        raise SpecError(str(err)) from None
    except RecursionError:
        raise SpecError(f"{path}: nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as err:
        raise SpecError(f"{path}: {err}") from None
    if _depth(data) > MAX_DEPTH:
        raise SpecError(f"{path}: nested deeper than {MAX_DEPTH} levels")
    return data


def load_model(model: type[M], path: Path) -> M:
    """Read ``path`` as ``model`` (version 1 where the model has a version); any failure is a
    one-line :class:`SpecError`."""
    path = Path(path)
    data = read_json(path)
    version = data.get("version") if isinstance(data, dict) else None
    if "version" in model.model_fields and not (type(version) is int and version == 1):
        raise SpecError(f"{path}: version: {version!r} is not supported (this housebench reads 1)")
    try:
        return model.model_validate(data)
    except ValidationError as err:
        raise SpecError(one_line(path, err)) from None
