"""The goal language shared by task specs, task variants and the evaluator.

A goal is a tree. Inner nodes are ``{"all_of": [...]}`` / ``{"any_of": [...]}``; leaves are
conditions ``{"predicate": "<name>", ...}`` whose ``items`` are *slots*:

- ``apple``: that instance, or any instance of the role ``apple`` (first one that holds);
- ``plate|bowl``: alternatives, each a name or a role (first one that holds);
- ``all:fruit``: one item per present instance of the role;
- ``$container``: the instance bound earlier by a condition's ``bind``.

Support references (``on``, ``near``) are a support, its owner or one of the goal's place aliases;
``closed`` names articulated parts, their owners or ``all`` (see :mod:`housebench.tasks.refs`).

Tolerances are fields with defaults, so a resolved goal states every number it is judged by.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any, Literal, Union

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    StringConstraints,
    Tag,
    model_validator,
)

from housebench.jsonfile import union_tag
from housebench.names import check_name
from housebench.numbers import Celsius, Coord, Degrees, Length, Radians

SLOT = r"^(\$\w+|all:\w+|\w+(\|\w+)*)$"
Name = Annotated[str, AfterValidator(check_name)]  # the one name rule (housebench.names)
Slot = Annotated[str, StringConstraints(pattern=SLOT)]
Items = Annotated[list[Slot], Field(min_length=1)]
Places = dict[Name, Annotated[list[str], Field(min_length=1)]]  # alias -> support names or owners


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class Condition(Strict):
    """A leaf; ``slots()`` lists every slot it reads, in order."""

    def slots(self) -> list[str]:
        return list(getattr(self, "items", []))


class OnSupport(Condition):
    """Bottom within ``-below..+above`` of a support's height, footprint centre in its box + margin."""

    items: Items
    support: str  # a support name ("table/top") or its owner ("table": any of its surfaces)
    below: Length = 0.02
    above: Length = 0.05
    margin: Length = 0.02


class On(OnSupport):
    predicate: Literal["on"]
    upright: bool = False
    max_tilt_deg: Degrees = 20.0


class Near(OnSupport):
    """One instance per item on the support, pairwise within ``distance`` (xy, centres)."""

    predicate: Literal["near"]
    distance: Length


class Inside(Condition):
    """Every item's centre inside one container's cavity (``floor-below .. rim+above``)."""

    predicate: Literal["inside"]
    items: Items
    container: Slot
    bind: Name | None = None  # bind the chosen container as ``$<bind>``
    below: Length = 0.01
    above: Length = 0.03

    def slots(self) -> list[str]:
        return [*self.items, self.container]


class Upright(Condition):
    predicate: Literal["upright"]
    items: Items
    max_tilt_deg: Degrees = 20.0


class NotDropped(Condition):
    """No object that started with its bottom >= ``start_min`` now has its bottom <= ``floor_max``
    outside every container (its centre in a cavity, ``floor-container_below .. rim+container_above``)."""

    predicate: Literal["not_dropped"]
    start_min: Coord = 0.10
    floor_max: Coord = 0.05
    container_below: Length = 0.01
    container_above: Length = 0.03


class Heated(Condition):
    predicate: Literal["heated"]
    items: Items
    min_c: Celsius


class Chilled(Condition):
    predicate: Literal["chilled"]
    items: Items
    max_c: Celsius


class Lifted(Condition):
    """Bottom at least ``height`` above its initial bottom (or above z = 0 for ``absolute``)."""

    predicate: Literal["lifted"]
    items: Items
    height: Length
    reference: Literal["initial", "absolute"] = "initial"


class PlacedInZone(Condition):
    """Centre inside an axis-aligned box (faces inclusive); optionally speed <= ``max_speed``."""

    predicate: Literal["placed_in_zone"]
    items: Items
    zone: tuple[Coord, Coord, Coord, Coord, Coord, Coord]  # xmin, ymin, zmin, xmax, ymax, zmax
    max_speed: Length | None = None


class Closed(Condition):
    """Every listed part within ``max_rad`` (revolute) or ``max_m`` (prismatic) of closed."""

    predicate: Literal["closed"]
    parts: Annotated[list[str], Field(min_length=1)]  # "fridge/door", "microwave" (every part), "all"
    max_rad: Radians = 0.10
    max_m: Length = 0.04


class Open(Condition):
    """Every listed part at least ``min_fraction`` of the way from closed to its ``open`` value."""

    predicate: Literal["open"]
    parts: Annotated[list[str], Field(min_length=1)]  # part names or owners, as for ``closed``
    min_fraction: float = 0.8


class Pressed(Condition):
    """Every listed button or knob at least ``min_fraction`` of its travel from closed (pressed, on)."""

    predicate: Literal["pressed"]
    parts: Annotated[list[str], Field(min_length=1)]
    min_fraction: float = 0.5


class Holding(Condition):
    """Both fingers touch the item (``SimState.contacts``)."""

    predicate: Literal["holding"]
    items: Items


class HandEmpty(Condition):
    """Neither finger touches any object of the scene (``SimState.contacts``)."""

    predicate: Literal["hand_empty"]


class BaseNear(Condition):
    """The robot's base centre within ``min_distance .. distance`` (xy) of the target's box (an
    object, or a piece of furniture, appliance or part of the house by name); with
    ``max_bearing_deg``, the base also faces the box's centre within that angle."""

    predicate: Literal["base_near"]
    target: str
    distance: float = 1.0
    min_distance: float = 0.0
    max_bearing_deg: float | None = None


class Stacked(Condition):
    """Each item rests on ``base`` (an object): bottom within ``-below..+above`` of the base's top,
    centre over the base's box + ``margin``."""

    predicate: Literal["stacked"]
    items: Items
    base: Slot
    below: float = 0.02
    above: float = 0.03
    margin: float = 0.0

    def slots(self) -> list[str]:
        return [*self.items, self.base]


class Lying(Condition):
    """The item's z axis at least ``min_tilt_deg`` from the world's (laid on its side)."""

    predicate: Literal["lying"]
    items: Items
    min_tilt_deg: float = 70.0


class InView(Condition):
    """The item's centre within ``max_angle_deg`` of the head camera's optical axis and at most
    ``max_distance`` away (the camera pose from the base, torso and head joints; no occlusion test)."""

    predicate: Literal["in_view"]
    items: Items
    max_angle_deg: float = 25.0
    max_distance: float = 3.0


class ArmPose(Condition):
    """The robot's joints within ``tol`` of a named pose: ``tuck`` (torso and arm as at home) or
    ``home`` (torso, arm, fingers and head)."""

    predicate: Literal["arm_pose"]
    pose: Literal["tuck", "home"]
    tol: float = 0.05


class AtEdge(OnSupport):
    """On the support (as for ``on``) with its box sticking out over one of the support's edges by
    at least ``min_overhang`` (ready to be pinched from below)."""

    predicate: Literal["at_edge"]
    min_overhang: float = 0.03


class AllOf(Strict):
    all_of: Annotated[list[Node], Field(min_length=1)]


class AnyOf(Strict):
    any_of: Annotated[list[Node], Field(min_length=1)]


LEAVES: dict[str, type[Condition]] = {
    cls.model_fields["predicate"].annotation.__args__[0]: cls
    for cls in (
        On,
        Near,
        Inside,
        Upright,
        NotDropped,
        Heated,
        Chilled,
        Lifted,
        PlacedInZone,
        Closed,
        Open,
        Pressed,
        Holding,
        HandEmpty,
        BaseNear,
        Stacked,
        Lying,
        InView,
        ArmPose,
        AtEdge,
    )
}


def _tag(value: Any) -> str | None:
    if isinstance(value, dict):
        name = next((key for key in ("all_of", "any_of") if key in value), value.get("predicate"))
    else:
        name = "all_of" if isinstance(value, AllOf) else "any_of" if isinstance(value, AnyOf) else value.predicate
    return union_tag(name) if isinstance(name, str) else None


Node = Annotated[
    Union[
        (
            Annotated[AllOf, Tag(union_tag("all_of"))],
            Annotated[AnyOf, Tag(union_tag("any_of"))],  # noqa: UP007
            *(Annotated[cls, Tag(union_tag(name))] for name, cls in LEAVES.items()),
        )
    ],
    Discriminator(
        _tag,
        custom_error_type="goal_node",
        custom_error_message=f"expected all_of, any_of or a predicate in {sorted(LEAVES)}",
    ),
]
AllOf.model_rebuild()
AnyOf.model_rebuild()


def leaves(node: Node, where: str = "goal") -> Iterator[tuple[str, Condition]]:
    """Every condition depth-first (the evaluator's flattened order), with its location."""
    if isinstance(node, (AllOf, AnyOf)):
        key = "all_of" if isinstance(node, AllOf) else "any_of"
        for i, child in enumerate(getattr(node, key)):
            yield from leaves(child, f"{where}.{key}[{i}]")
    else:
        yield where, node


def check_slots(node: Node, names: set[str], roles: set[str]) -> None:
    """Every slot names a known object or role; every ``$x`` is bound before use (ValueError)."""
    bound: set[str] = set()
    for where, cond in leaves(node):
        for slot in cond.slots():
            if slot.startswith("$"):
                if slot[1:] not in bound:
                    raise ValueError(f"{where}: '{slot}' is used before it is bound")
                continue
            parts = [slot[4:]] if slot.startswith("all:") else slot.split("|")
            known = roles if slot.startswith("all:") else names | roles
            for part in parts:
                if part not in known:
                    raise ValueError(f"{where}: slot '{slot}' names no object or role '{part}'")
        if isinstance(cond, Inside) and cond.bind:
            bound.add(cond.bind)


class Goal(Strict):
    """A goal resolved for one variant: the tree plus the instances it is judged over."""

    roles: dict[Name, Name]  # present instance -> role
    absent: dict[Name, Name] = Field(default_factory=dict)  # dropped optional instance -> role
    places: Places = Field(default_factory=dict)  # the task's place aliases
    condition: Node

    @model_validator(mode="after")
    def _slots_known(self) -> Goal:
        instances = {**self.roles, **self.absent}
        check_slots(self.condition, set(instances), set(instances.values()))
        return self
