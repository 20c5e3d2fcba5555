"""Task spec schema v1 (``tasks/<task>.json``) and the sampled variant (``task.json``).

A spec is strict: unknown keys are rejected at every level, other versions refused, and every goal
slot must name a declared object or role. The task's name is the spec file's stem. Example::

    {"version": 1,
     "instruction": "Put the fruit in the container on the table.",
     "objects": {"apple": {"asset": "apple", "role": "fruit", "supports": ["table"]},
                 "bowl": {"asset": "plate|bowl", "role": "container", "supports": ["table"],
                          "absent_probability": 0.0}},
     "goal": {"all_of": [{"predicate": "inside", "items": ["all:fruit"], "container": "container",
                          "bind": "container"},
                         {"predicate": "on", "items": ["$container"], "support": "table",
                          "upright": true},
                         {"predicate": "not_dropped"}]}}
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Annotated, Literal, TypeVar

from pydantic import BaseModel, Field, StringConstraints, ValidationError, model_validator

from housebench.tasks.goal import LEAVES, NAME, Goal, Name, Node, Strict, check_slots

Vec3 = tuple[float, float, float]
Quat = tuple[float, float, float, float]
AssetChoice = Annotated[str, StringConstraints(pattern=r"^\w+(\|\w+)*$")]
M = TypeVar("M", bound=BaseModel)


class SpecError(ValueError):
    """A bad spec, variant or state file; the message is one line naming the file and key."""


class ObjectSpec(Strict):
    asset: AssetChoice  # an asset name, or alternatives "plate|bowl" (one drawn uniformly)
    role: Name  # what the goal calls it, e.g. "fruit", "container"
    supports: Annotated[list[str], Field(min_length=1)]  # support names or owners ("table")
    absent_probability: Annotated[float, Field(ge=0.0, lt=1.0)] = 0.0  # > 0: optional object


class TaskSpec(Strict):
    version: Literal[1]
    instruction: Annotated[str, Field(min_length=1)]
    objects: Annotated[dict[Annotated[str, StringConstraints(pattern=NAME)], ObjectSpec],
                       Field(min_length=1)]
    goal: Node

    @model_validator(mode="after")
    def _slots_known(self) -> TaskSpec:
        check_slots(self.goal, set(self.objects), {o.role for o in self.objects.values()})
        return self


class PlacedTaskObject(Strict):
    asset: Name
    role: Name
    support: str  # the support's name, e.g. "table/top"
    pos: Vec3  # bottom-centre origin, world frame (support height + bottom offset + clearance)
    quat: Quat  # w, x, y, z
    base: Vec3  # a collision-free robot base pose (x, y, yaw) within reach of ``pos``


class TaskVariant(Strict):
    """One seeded sample of a spec: the content of ``task.json``."""

    version: Literal[1] = 1
    task: Name
    variant: Name
    seed: int
    instruction: str
    spec_hash: str  # sha256 of the spec file's bytes
    robot_start: Vec3  # x, y, yaw
    objects: dict[Name, PlacedTaskObject]
    dropped: list[Name]  # optional objects drawn absent
    choices: dict[str, str]  # "<object>.<asset|present|support>" -> what was drawn
    goal: Goal


def one_line(source: object, err: ValidationError) -> str:
    """A pydantic error as one line: ``<source>: <key.path>: <message>; ...``."""
    parts = []
    for e in err.errors():
        keys: list[str] = []
        for part in e["loc"]:  # drop the union's tags ("inside", a repeated "all_of") from the path
            if isinstance(part, int):
                keys[-1] += f"[{part}]"
            elif part not in LEAVES and not part.startswith("function-") and keys[-1:] != [part]:
                keys.append(part)
        msg = e["msg"].removeprefix("Value error, ")
        parts.append(f"{'.'.join(keys)}: {msg}" if keys else msg)
    return f"{source}: " + "; ".join(parts)


def load_model(model: type[M], path: Path) -> M:
    """Read ``path`` as ``model``; any failure is a one-line :class:`SpecError`."""
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


def load_spec(path: Path) -> TaskSpec:
    """A task spec from ``path`` (the task's name is the file's stem)."""
    path = Path(path)
    spec = load_model(TaskSpec, path)
    if not re.match(NAME, path.stem):
        raise SpecError(f"{path}: the file name must be a task name ({NAME})")
    return spec
