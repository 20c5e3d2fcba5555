"""The SkillNode schema: one verb + one noun, typed inputs and outputs, a contract and policy paths.

A contract's pre- and postconditions are goal conditions (:mod:`housebench.tasks.goal`) written as
templates: a string ``"$arg"`` stands for the argument's value (any JSON), ``"$arg"`` inside a longer
string (``"all:$role"``) for its text, and ``"$arg.attr"`` for a fact of what the argument names
(:data:`ATTRIBUTES`: an appliance's door, switch, cavity, inside; a support's owner; an object's
support). A nested contract's ``for_each`` (``all:$role``: every instance of a role; ``on:$support``: every
object resting on it; ``in:$container``: every object inside it, all taken at the call's start) runs
its ``calls`` once per item with ``$each`` standing for the item; in its conditions ``$each`` is the
list of every item.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints, model_validator

from housebench.tasks.goal import Name, Strict

ArgType = Literal[
    "object",  # a prop of the scene
    "container",  # a prop with a container profile
    "support",  # a support surface (name or owner)
    "furniture",  # a piece of furniture or an appliance of the house, by name
    "part",  # a door or drawer
    "button",  # a button or knob
    "appliance",  # fridge, microwave, stove
    "place",  # where the base can go: an object, support, furniture, appliance or part
    "role",  # a role of the task (every instance of it)
    "seconds",
    "metres",
    "celsius",
    "zone",  # [xmin, ymin, zmin, xmax, ymax, zmax]
]
OutputType = Literal["object", "count", "seconds"]
Family = Literal["base", "perception", "grasp", "contact", "articulation", "multi"]
ATTRIBUTES = {
    "appliance": ("door", "switch", "cavity", "inside"),
    "support": ("owner",),
    "object": ("support",),
    "container": ("support",),
}
PLACEHOLDER = re.compile(r"\$(\w+)(?:\.(\w+))?")
OneLine = Annotated[str, StringConstraints(min_length=1, max_length=160, pattern=r"^[^\n]+$")]


class Arg(Strict):
    name: Name
    type: ArgType
    doc: OneLine
    default: float | None = None  # numbers only; an argument without a default is required


class Output(Strict):
    name: Name
    type: OutputType
    doc: OneLine


class When(Strict):
    """What the noun must be for a path to apply (every field given must hold)."""

    grasp: Literal["top_pinch", "rim_pinch", "handle_pinch", "edge_pinch_after_push"] | None = None
    support: Literal["floor", "surface", "shelf", "appliance"] | None = None  # where the object rests now
    target: Literal["floor", "surface", "shelf", "appliance"] | None = None  # the support argument's kind
    min_height: float | None = None  # the object's height, metres
    joint: Literal["revolute", "prismatic"] | None = None
    category: Literal["door", "drawer", "button", "knob"] | None = None


class SkillPath(Strict):
    name: Name
    doc: OneLine
    when: When = Field(default_factory=When)


class Step(Strict):
    """One call of a nested contract: another skill's verb and its arguments (templates)."""

    verb: Name
    args: dict[Name, Any]


class SkillNode(Strict):
    id: Annotated[str, StringConstraints(pattern=r"^skill_\d{3}$")]
    verb: Name
    noun: Name
    family: Family
    description: OneLine
    inputs: list[Arg] = Field(default_factory=list)
    outputs: list[Output] = Field(default_factory=list)
    pre: list[dict[str, Any]] = Field(default_factory=list)
    post: list[dict[str, Any]] = Field(default_factory=list)
    access: list[Name] = Field(default_factory=list)  # arguments whose enclosure (doors) must be open first
    paths: Annotated[list[SkillPath], Field(min_length=1)]
    calls: list[Step] = Field(default_factory=list)  # a nested contract: the skills it calls, in order
    post_anytime: bool = False  # the postconditions count when they held at any moment of the call
    for_each: Annotated[str, StringConstraints(pattern=r"^(all|on|in):\$\w+$")] | None = None  # calls per item
    scenarios: list[dict[str, Any]] = Field(default_factory=list)  # its verification scenarios (as scenarios.yaml's)

    @model_validator(mode="after")
    def _names_known(self) -> SkillNode:
        args = {a.name: a.type for a in self.inputs}
        if len(args) != len(self.inputs):
            raise ValueError("inputs: duplicate argument names")
        for name in self.access:
            if name not in args:
                raise ValueError(f"access: '{name}' is not an input")
        templates = [*self.pre, *self.post, *(s.args for s in self.calls), self.for_each]
        for name, attr in PLACEHOLDER.findall(repr(templates)):
            if name == "each":
                continue
            if name not in args:
                raise ValueError(f"'${name}' is not an input of {self.verb}")
            if attr and attr not in ATTRIBUTES.get(args[name], ()):
                raise ValueError(f"'${name}.{attr}': '{attr}' is no attribute of type {args[name]}")
        if len({p.name for p in self.paths}) != len(self.paths):
            raise ValueError("paths: duplicate path names")
        return self


class Library(Strict):
    """``skills.yaml``: the whole vocabulary."""

    version: Literal[1]
    skills: Annotated[list[SkillNode], Field(min_length=1)]

    @model_validator(mode="after")
    def _unique(self) -> Library:
        for key in ("id", "verb"):
            values = [getattr(s, key) for s in self.skills]
            dup = sorted({v for v in values if values.count(v) > 1})
            if dup:
                raise ValueError(f"skills: duplicate {key} {dup}")
        verbs = {s.verb for s in self.skills}
        for s in self.skills:
            for step in s.calls:
                if step.verb not in verbs:
                    raise ValueError(f"skills.{s.verb}.calls: '{step.verb}' is no skill")
        return self
