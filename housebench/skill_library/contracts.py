"""Contracts grounded in a scene: a skill's templates filled with its arguments, judged by the evaluator.

``ground(skill, args, world)`` resolves every placeholder against the scene's annotations and the
current state (an appliance's door, an object's support, ...), adds the access rule (an argument that
rests inside an enclosure with doors, such as a fridge shelf, needs those doors open first) and returns
the pre- and postconditions as goal conditions. ``judge`` runs the task evaluator on them, so task
success, skill contracts and the planner share one set of predicates. ``choose_path`` picks the policy
path by the noun: the first path whose ``when`` holds for the asset's grasp annotations, the object's
support, the part's joint and category.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from housebench.annotations.schema import SceneAnnotations, Support
from housebench.house.query import HouseQuery
from housebench.skill_library.library import NODE, fill
from housebench.skill_library.model import SkillNode, SkillPath, When
from housebench.state import ObjectState, SimState
from housebench.tasks import geometry, refs
from housebench.tasks.context import initial_state
from housebench.tasks.evaluator import evaluate
from housebench.tasks.goal import AllOf, Goal, Node, Open
from housebench.tasks.verdict import Verdict


class ContractError(ValueError):
    """A contract cannot be grounded here (an argument names nothing fitting in the scene)."""


@dataclass
class World:
    """What a contract is grounded against: the scene, the task's roles and place aliases, a state."""

    scene: SceneAnnotations
    roles: dict[str, str] = field(default_factory=dict)  # instance -> role (default: the asset's category)
    places: dict[str, list[str]] = field(default_factory=dict)
    state: SimState | None = None  # None: every object at its annotated pose
    bound_for: dict[str, str] = field(default_factory=dict)  # object -> where the plan being run sets it next
    next_call: tuple[str, dict[str, Any]] | None = None  # (verb, arguments) of the call the plan being run makes next

    def __post_init__(self) -> None:
        self.roles = {n: self.roles.get(n, o.asset.category) for n, o in self.scene.objects.items()}
        self.state = self.state or initial_state(self.scene)

    @cached_property
    def query(self) -> HouseQuery:
        return HouseQuery(self.scene.house)

    def support(self, ref: str) -> Support:
        """The (first) support a name or place alias stands for."""
        return refs.supports(ref, self.places, self.scene.house)[0]

    def bound_supports(self, obj: str) -> list[Support]:
        """The supports the plan being run sets ``obj`` on next (none for a container or nothing)."""
        where = self.bound_for.get(obj)
        return refs.supports(where, self.places, self.scene.house) if where else []

    def pose(self, name: str) -> ObjectState:
        if name not in self.state.objects:
            raise ContractError(f"'{name}' is missing from the state")
        return self.state.objects[name]

    def support_of(self, name: str) -> Support | None:
        """The support under the object's centre at or below its bottom (+2 cm)."""
        asset = self.scene.objects[name].asset
        pose = self.pose(name)
        x, y, _ = geometry.centre(pose, asset)
        return self.query.support_under(x, y, geometry.bottom(pose, asset) + 0.02)

    def support_kind(self, support: Support) -> str:
        """``floor``, ``appliance`` (inside one), ``shelf`` (a level with something above) or ``surface``."""
        if support.name.endswith("/floor"):
            return "floor"
        if support in refs.inside_supports(support.owner, self.scene.house):
            return "appliance"
        return "shelf" if support.clearance is not None else "surface"

    def instances(self, role: str) -> list[str]:
        return sorted(n for n, r in self.roles.items() if r == role)

    def contents(self, container: str) -> list[str]:
        """The objects whose centre lies in ``container``'s cavity."""
        profile = self.scene.objects[container].asset.container
        return sorted(
            n
            for n, o in self.scene.objects.items()
            if n != container
            and geometry.in_cavity(geometry.centre(self.pose(n), o.asset), self.pose(container), profile, 0.01, 0.03)[0]
        )

    def resting_on(self, ref: str) -> list[str]:
        names = {s.name for s in refs.supports(ref, self.places, self.scene.house)}
        return sorted(n for n in self.scene.objects if (s := self.support_of(n)) is not None and s.name in names)


@dataclass
class Grounded:
    """A skill with its arguments resolved: conditions ready for the evaluator."""

    skill: SkillNode
    args: dict[str, Any]
    pre: list[Node]
    post: list[Node]
    places: dict[str, list[str]]  # the place aliases its conditions use
    each: list[str]  # the items ``for_each`` runs over (empty without one)


def _appliance(world: World, name: str):
    found = refs.appliance(name, world.scene.house)
    if found is None:
        raise ContractError(f"no appliance named '{name}'")
    return found


def attribute(world: World, kind: str, value: str, attr: str, places: dict[str, list[str]]) -> Any:
    """A fact of what an argument names (the ``$arg.attr`` placeholders)."""
    if kind == "appliance":
        found = _appliance(world, value)
        if attr == "inside":
            alias = f"{value}_inside"
            places[alias] = [s.name for s in refs.inside_supports(value, world.scene.house)]
            if not places[alias]:
                raise ContractError(f"appliance '{value}' has no surface inside")
            return alias
        got = getattr(found, attr)
        if got is None:
            raise ContractError(f"appliance '{value}' has no {attr}")
        return list(got) if attr == "cavity" else got
    if kind == "support" and attr == "owner":
        found = refs.supports(value, world.places, world.scene.house)
        return found[0].owner if found else value
    support = world.support_of(value)  # an object's or container's support
    if support is None:
        raise ContractError(f"'{value}' rests on no support")
    return support.name


def _each(world: World, spec: str) -> list[str]:
    kind, value = spec.split(":", 1)
    return {"all": world.instances, "on": world.resting_on, "in": world.contents}[kind](value)


def enclosure_doors(support: Support | None, world: World) -> list[str]:
    """The doors that close the enclosure ``support`` stands in (a fridge shelf, a cabinet bottom):
    the owner's doors when something is above the support (it has a clearance), else none."""
    if support is None or support.clearance is None:
        return []
    return [p.name for p in world.scene.house.articulated if p.owner == support.owner and p.category == "door"]


def access_supports(skill: SkillNode, args: dict[str, Any], world: World) -> dict[str, list[Support]]:
    """For each ``access`` argument, the supports it names (a support) or rests on (an object)."""
    types = {a.name: a.type for a in skill.inputs}
    out = {}
    for name in skill.access:
        if types[name] in ("object", "container"):
            out[name] = [s] if (s := world.support_of(args[name])) else []
        else:
            out[name] = refs.supports(args[name], world.places, world.scene.house)
    return out


def _access(world: World, skill: SkillNode, args: dict[str, Any]) -> list[Node]:
    """``open`` for the doors of every enclosure an ``access`` argument rests in or names."""
    doors = {
        d for found in access_supports(skill, args, world).values() for s in found for d in enclosure_doors(s, world)
    }
    return [Open(predicate="open", parts=sorted(doors))] if doors else []


def with_defaults(skill: SkillNode, args: dict[str, Any]) -> dict[str, Any]:
    """``args`` completed with the skill's defaults (a missing required argument is a ContractError)."""
    full = dict(args)
    for a in skill.inputs:
        if a.name not in full:
            if a.default is None:
                raise ContractError(f"{skill.verb}: argument '{a.name}' is missing")
            full[a.name] = a.default
    unknown = sorted(set(full) - {a.name for a in skill.inputs})
    if unknown:
        raise ContractError(f"{skill.verb}: unknown arguments {unknown}")
    return full


def ground(skill: SkillNode, args: dict[str, Any], world: World, access: bool = True) -> Grounded:
    """The skill's contract over ``args`` in ``world`` (placeholders, defaults and, unless ``access`` is
    False, the access rule resolved)."""
    args = with_defaults(skill, args)
    types = {a.name: a.type for a in skill.inputs}
    places: dict[str, list[str]] = {}
    each = _each(world, fill(skill.for_each, lambda n, a: args[n])) if skill.for_each else []

    def lookup(name: str, attr: str | None) -> Any:
        if name == "each":
            return each
        return attribute(world, types[name], args[name], attr, places) if attr else args[name]

    pre = [NODE.validate_python(fill(t, lookup)) for t in skill.pre] + (_access(world, skill, args) if access else [])
    post = [NODE.validate_python(fill(t, lookup)) for t in skill.post]
    return Grounded(skill, args, pre, post, places, each)


def calls(grounded: Grounded, world: World) -> list[tuple[str, dict[str, Any]]]:
    """The nested contract's calls, ``for_each`` expanded: ``(verb, args)`` in order."""
    types = {a.name: a.type for a in grounded.skill.inputs}
    places: dict[str, list[str]] = {}
    out = []
    for item in grounded.each or [None]:

        def lookup(name: str, attr: str | None, item=item) -> Any:
            if name == "each":
                return item
            value = grounded.args[name]
            return attribute(world, types[name], value, attr, places) if attr else value

        out += [(step.verb, fill(step.args, lookup)) for step in grounded.skill.calls]
    return out


def judge(conditions: list[Node], world: World, state: SimState, initial: SimState | None = None) -> Verdict:
    """The evaluator's verdict on ``conditions`` (all must hold) in ``state``; ``initial`` is the state
    the call started from (for ``lifted``). No conditions: success."""
    if not conditions:
        return Verdict(success=True, progress=1.0, conditions=[])
    goal = Goal(roles=world.roles, places={**world.places}, condition=AllOf(all_of=conditions))
    return evaluate(goal, state, world.scene, initial)


def judge_grounded(
    grounded: Grounded, key: str, world: World, state: SimState, initial: SimState | None = None
) -> Verdict:
    """``judge`` on a grounded contract's ``pre`` or ``post``, with the aliases it defined."""
    scoped = World(world.scene, world.roles, {**world.places, **grounded.places}, world.state)
    return judge(getattr(grounded, key), scoped, state, initial)


def _when_holds(when: When, skill: SkillNode, args: dict[str, Any], world: World) -> tuple[bool, str]:
    """Whether every field of ``when`` holds for the skill's noun, and why not."""
    types = {a.name: a.type for a in skill.inputs}
    obj = next((args[a] for a, t in types.items() if t in ("object", "container")), None)
    part_name = next((args[a] for a, t in types.items() if t in ("part", "button")), None)
    support_arg = next((args[a] for a, t in types.items() if t == "support"), None)
    tests = []
    if obj is not None:
        asset = world.scene.objects[obj].asset
        kinds = {g.kind for g in asset.grasps}
        if when.grasp:
            tests.append((when.grasp in kinds, f"{asset.name} has no {when.grasp} grasp"))
        if when.min_height is not None:
            tests.append((asset.size[2] >= when.min_height, f"{asset.name} is {asset.size[2]} m tall"))
        if when.support:
            s = world.support_of(obj)
            kind = world.support_kind(s) if s else "none"
            tests.append((kind == when.support, f"{obj} rests on a {kind}"))
    if when.target and support_arg is not None:
        found = refs.supports(support_arg, world.places, world.scene.house)
        kind = world.support_kind(found[0]) if found else "none"
        tests.append((kind == when.target, f"{support_arg} is a {kind}"))
    if part_name is not None:
        part = next((p for p in world.scene.house.articulated if p.name == part_name), None)
        if part is None:
            return False, f"no part named '{part_name}'"
        if when.joint:
            tests.append((part.joint == when.joint, f"{part_name} is {part.joint}"))
        if when.category:
            tests.append((part.category == when.category, f"{part_name} is a {part.category}"))
    failed = [why for ok, why in tests if not ok]
    return not failed, "; ".join(failed)


def choose_path(skill: SkillNode, args: dict[str, Any], world: World) -> tuple[SkillPath | None, dict[str, str]]:
    """The first path whose ``when`` holds for the noun, and why each path before it was passed over."""
    passed: dict[str, str] = {}
    for path in skill.paths:
        ok, why = _when_holds(path.when, skill, args, world)
        if ok:
            return path, passed
        passed[path.name] = why
    return None, passed
