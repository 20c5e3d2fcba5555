"""Task spec schema v1 (``tasks/<task>.json``) and the sampled variant (``task.json``).

A spec is strict: unknown keys are rejected at every level, other versions refused, and every goal
slot must name a declared object or role. The task's name is the spec file's stem. Example::

    {"version": 1,
     "instruction": "Put the fruit in the container on the bookcase.",
     "doc": {"description": "...", "randomizations": ["..."], "success": ["..."]},
     "places": {"bookcase": ["bookcase_low", "bookcase_tall"]},
     "objects": {"bowl": {"asset": "fruit_basket|serving_tray", "role": "container", "supports": ["dining_table"]},
                 "apple": {"asset": "apple", "role": "fruit", "inside": "bowl"},
                 "milk": {"asset": "milk", "role": "drink", "inside": "fridge", "absent_probability": 0.5},
                 "pear": {"asset": "orange", "role": "fruit", "supports": ["dining_table", "bookcase"],
                          "keep_out": ["bookcase"], "near": {"object": "bowl", "distance": 0.5}}},
     "thermal": {"initial_c": {"milk": 4.0}, "appliances": ["fridge"]},
     "goal": {"all_of": [{"predicate": "inside", "items": ["all:fruit"], "container": "container",
                          "bind": "container"},
                         {"predicate": "on", "items": ["$container"], "support": "bookcase", "upright": true},
                         {"predicate": "closed", "parts": ["all"]},
                         {"predicate": "not_dropped"}]}}

Spawn constraints per object: ``supports`` (names, owners or place aliases, minus ``keep_out``) or
``inside`` (a container object declared before it, or an appliance: its shelves / cavity floor);
``near`` (within a distance of an object declared before; ignored when that one is absent);
``yaw_deg`` (the yaws to draw from; default any); ``overhang`` (how far its footprint may stick out
over a support's edges, where no obstacle is).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, model_validator

from housebench.jsonfile import SpecError, load_model
from housebench.names import check_name, name_problem
from housebench.numbers import Quat, Vec3
from housebench.paths import GRID
from housebench.tasks.goal import Goal, Name, Node, Places, Strict, check_slots
from housebench.tasks.thermal import ThermalSetup

AssetChoice = Annotated[str, AfterValidator(lambda text: "|".join(map(check_name, text.split("|"))))]


class SpawnNear(Strict):
    object: Name
    distance: Annotated[float, Field(gt=0.0)]  # metres, xy between the two positions


class ObjectSpec(Strict):
    asset: AssetChoice  # an asset name, or alternatives "plate|bowl" (one drawn uniformly)
    role: Name  # what the goal calls it, e.g. "fruit", "container"
    supports: list[str] = Field(default_factory=list)  # support names, owners or place aliases
    inside: Name | None = None  # a container object declared before, or an appliance
    keep_out: list[str] = Field(default_factory=list)  # supports never drawn
    near: SpawnNear | None = None
    yaw_deg: Annotated[list[float], Field(min_length=1)] | None = None  # default: any yaw
    overhang: Annotated[float, Field(ge=0.0)] = 0.0  # metres over a support's edges
    absent_probability: Annotated[float, Field(ge=0.0, lt=1.0)] = 0.0  # > 0: optional object

    @model_validator(mode="after")
    def _one_place(self) -> ObjectSpec:
        if bool(self.supports) == bool(self.inside):
            raise ValueError("give either supports or inside")
        if self.inside and self.keep_out:
            raise ValueError("keep_out goes with supports, not inside")
        return self


class TaskDoc(Strict):
    """ManiSkill-style documentation of a task."""

    description: Annotated[str, Field(min_length=1)]
    randomizations: list[str]
    success: Annotated[list[str], Field(min_length=1)]


class TaskSpec(Strict):
    version: Literal[1]
    instruction: Annotated[str, Field(min_length=1)]
    doc: TaskDoc | None = None
    places: Places = Field(default_factory=dict)
    objects: Annotated[dict[Name, ObjectSpec], Field(min_length=1)]
    thermal: ThermalSetup | None = None
    horizon_s: Annotated[float, Field(gt=0, le=3600)] | None = None  # simulated seconds (None: rollout default)
    goal: Node

    @model_validator(mode="after")
    def _references_known(self) -> TaskSpec:
        check_slots(self.goal, set(self.objects), {o.role for o in self.objects.values()})
        before: set[str] = set()
        for name, obj in self.objects.items():
            if obj.near and obj.near.object not in before:
                raise ValueError(f"objects.{name}.near: '{obj.near.object}' is not an object declared before it")
            if obj.inside in self.objects and (
                obj.inside not in before or self.objects[obj.inside].absent_probability > 0
            ):
                raise ValueError(f"objects.{name}.inside: '{obj.inside}' must be a required object declared before it")
            before.add(name)
        unknown = sorted(set(self.thermal.initial_c) - set(self.objects)) if self.thermal else []
        if unknown:
            raise ValueError(f"thermal.initial_c: {unknown} are not objects of the task")
        return self


class PlacedTaskObject(Strict):
    asset: Name
    role: Name
    support: str  # the support's name, e.g. "table/top" (under the container for ``inside``)
    inside: Name | None = None  # the container object or appliance it spawned in
    pos: Vec3  # bottom-centre origin, world frame (support height + bottom offset + clearance)
    quat: Quat  # w, x, y, z
    base: Vec3  # a collision-free robot base pose (x, y, yaw) within reach of ``pos``


class TaskVariant(Strict):
    """One seeded sample of a spec: the content of ``task.json``."""

    version: Literal[1] = 1
    task: Name
    variant: Name
    house: Name = GRID  # the house (an id of ``scenes/house/houses.json``) the variant is sampled in
    seed: int
    instruction: str
    spec_hash: str  # sha256 of the spec file's bytes
    robot_start: Vec3  # x, y, yaw
    objects: dict[Name, PlacedTaskObject]
    dropped: list[Name]  # optional objects drawn absent
    choices: dict[str, str]  # "<object>.<asset|present|support>" -> what was drawn
    thermal: ThermalSetup | None = None  # the spec's thermal setup, for the episode's model
    horizon_s: float | None = None  # the spec's horizon (None: the rollout's default)
    goal: Goal


def load_spec(path: Path) -> TaskSpec:
    """A task spec from ``path`` (the task's name is the file's stem)."""
    path = Path(path)
    spec = load_model(TaskSpec, path)
    if problem := name_problem(path.stem):
        raise SpecError(f"{path}: file name: {problem}")
    return spec
