"""Skill subgraphs: what a planner or a model outputs, strict like the task files.

A subgraph is nodes (an id, a verb, its arguments) and ``next`` edges (``from`` -> ``to``) forming a
DAG; the runtime runs it in topological order (ties in node order). Example::

    {"version": 1, "task": "put_fruit_in_container", "scene": "put_fruit_in_container/v000",
     "nodes": [{"id": "n1", "verb": "navigate", "args": {"target": "apple"}},
               {"id": "n2", "verb": "pick", "args": {"object": "apple"}},
               {"id": "n3", "verb": "insert", "args": {"object": "@n2.held", "container": "bowl"}}],
     "edges": [{"from": "n1", "to": "n2"}, {"from": "n2", "to": "n3"}]}

A planner that judges its own nodes (the scripted brain) adds ``rules`` to them: the node's skill runs with its own
checks, only when the ``when`` tests hold; it is done when the skill succeeded or ``ok_if`` holds (with ``done_if``:
exactly when that holds); ``must: false`` goes on after a failure; the nodes of one ``block`` (listed in ``blocks``:
its ``attempts``, its ``when``) are tried again together, ``on: fail`` nodes are the recovery of the node before them
and ``on: give_up`` ones the block's (:mod:`housebench.skill_library.blocks`). A test is
``[not ]<name>[:<node, block or object>]``, judged by the planner or the runtime.

An argument ``"@<node>.<output>"`` takes another node's output (the node must come before it, the
output's type must fit). ``validate`` checks the structure against the library, ``ground`` checks
every name against a scene's annotations and every type; both raise :class:`SubgraphError` with one
line naming the node and the field.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any, Literal

import networkx as nx
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from housebench.inputs import InputError, check_file
from housebench.jsonfile import SpecError, one_line, read_json
from housebench.skill_library.contracts import World
from housebench.skill_library.library import skills
from housebench.skill_library.model import SkillNode
from housebench.tasks import refs
from housebench.tasks.goal import Name

REF = re.compile(r"^@(\w+)\.(\w+)$")
Value = str | float | Annotated[list[float], Field(max_length=6)]  # a zone is the longest list: 6 numbers
# A plan's size, bounded before it is checked (the checks are linear in it): a task decomposes into tens of
# nodes; a planner's or a model's answer of thousands is refused, not walked.
MAX_PLAN_BYTES = 1 << 20
MAX_NODES = 1000
MAX_EDGES = 10_000
MAX_ARGS = 16  # arguments of one node (a skill takes at most a handful)
MAX_ATTEMPTS = 10  # the upper bound of every tries-per-node, per-move or per-block param


class SubgraphError(SpecError):
    """A subgraph that does not fit the library or the scene (one line naming node and field)."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True)


Test = Annotated[str, StringConstraints(pattern=r"^(not )?[a-z_]+(:[\w/.-]+)?$", max_length=200)]


class Rules(_Strict):
    """How a planner that judges its own node runs it (module docstring)."""

    block: Name | None = None
    when: list[Test] = Field(default_factory=list, max_length=MAX_ARGS)
    ok_if: Test | None = None
    done_if: Test | None = None
    must: bool = True
    on: Literal["fail", "give_up"] | None = None


class Block(_Strict):
    """Nodes tried again together, ``attempts`` times, when ``when`` holds at the block's start."""

    id: Name
    attempts: int = Field(ge=1, le=MAX_ATTEMPTS)
    when: list[Test] = Field(default_factory=list, max_length=MAX_ARGS)


class PlanNode(_Strict):
    id: Name
    verb: Name
    args: dict[Name, Value] = Field(default_factory=dict, max_length=MAX_ARGS)
    rules: Rules | None = None


class PlanEdge(_Strict):
    source: Name = Field(alias="from")
    to: Name


class Subgraph(_Strict):
    version: Literal[1] = 1
    task: Name | None = None
    scene: str | None = None
    nodes: Annotated[list[PlanNode], Field(min_length=1, max_length=MAX_NODES)]
    edges: list[PlanEdge] = Field(default_factory=list, max_length=MAX_EDGES)
    blocks: list[Block] | None = Field(default=None, max_length=MAX_NODES)

    def dump(self) -> dict[str, Any]:
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)


def chain(
    nodes: list[PlanNode], task: str | None = None, scene: str | None = None, blocks: list[Block] | None = None
) -> Subgraph:
    """A subgraph running ``nodes`` one after the other."""
    edges = [PlanEdge(source=a.id, to=b.id) for a, b in zip(nodes, nodes[1:])]
    return Subgraph(task=task, scene=scene, nodes=nodes, edges=edges, blocks=blocks)


def load_subgraph(path: Path) -> Subgraph:
    path = Path(path)
    try:
        check_file(path, MAX_PLAN_BYTES)
        data = read_json(path)  # a small regular UTF-8 file, finite numbers, bounded nesting
    except InputError as err:
        raise SubgraphError(str(err)) from None
    except SpecError as err:
        raise SubgraphError(str(err)) from None
    for key, most in (("nodes", MAX_NODES), ("edges", MAX_EDGES)):  # before a model is built of each
        if isinstance(data, dict) and isinstance(data.get(key), list) and len(data[key]) > most:
            raise SubgraphError(f"{path}: {key}: {len(data[key])} {key}, over the limit of {most}")
    try:
        return Subgraph.model_validate(data)
    except ValidationError as err:
        raise SubgraphError(one_line(path, err)) from None


def _where(source: object, i: int, node: PlanNode) -> str:
    return f"{source}: nodes[{i}] ({node.id})"


def validate(sub: Subgraph, source: object = "subgraph") -> list[PlanNode]:
    """The nodes in run order, after checking ids, verbs, argument names, edges, acyclicity and output
    references against the library."""
    library = skills()
    ids = [n.id for n in sub.nodes]
    graph = nx.DiGraph()
    for i, node in enumerate(sub.nodes):
        where = _where(source, i, node)
        if node.id in graph:
            raise SubgraphError(f"{where}.id: duplicate node id")
        graph.add_node(node.id)
        if node.verb not in library:
            raise SubgraphError(f"{where}.verb: '{node.verb}' is no skill verb")
        skill = library[node.verb]
        names = {a.name for a in skill.inputs}
        for key in node.args:
            if key not in names:
                raise SubgraphError(
                    f"{where}.args.{key}: {node.verb} takes no argument '{key}' (takes {sorted(names)})"
                )
        for a in skill.inputs:
            if a.name not in node.args and a.default is None:
                raise SubgraphError(f"{where}.args.{a.name}: missing (a {a.type})")
    for j, edge in enumerate(sub.edges):
        for key, end in (("from", edge.source), ("to", edge.to)):
            if end not in graph:
                raise SubgraphError(f"{source}: edges[{j}].{key}: '{end}' is no node")
        graph.add_edge(edge.source, edge.to)
    if not nx.is_directed_acyclic_graph(graph):
        cycle = " -> ".join(u for u, _ in nx.find_cycle(graph))
        raise SubgraphError(f"{source}: edges: the graph has a cycle ({cycle})")
    position = {node_id: i for i, node_id in enumerate(ids)}
    order = list(nx.lexicographical_topological_sort(graph, key=position.__getitem__))
    before = _ancestors(graph, order, position)
    by_id = {n.id: n for n in sub.nodes}
    for i, node in enumerate(sub.nodes):
        for key, value in node.args.items():
            m = REF.match(value) if isinstance(value, str) else None
            if not m:
                continue
            where = f"{_where(source, i, node)}.args.{key}"
            if m[1] not in by_id or not before[node.id] >> position[m[1]] & 1:
                raise SubgraphError(f"{where}: '{value}' names no node that runs before {node.id}")
            outputs = {o.name: o.type for o in library[by_id[m[1]].verb].outputs}
            if m[2] not in outputs:
                raise SubgraphError(f"{where}: {by_id[m[1]].verb} has no output '{m[2]}'")
            wanted = next(a.type for a in library[node.verb].inputs if a.name == key)
            if outputs[m[2]] != "object" or wanted not in ("object", "container", "place"):
                raise SubgraphError(f"{where}: a {outputs[m[2]]} output cannot stand for a {wanted}")
    _check_blocks(sub, [by_id[i] for i in order], source)
    return [by_id[i] for i in order]


def _check_blocks(sub: Subgraph, order: list[PlanNode], source: object) -> None:
    """Every block named by a node is listed once, and its nodes run one after the other."""
    listed = [b.id for b in sub.blocks or []]
    if len(set(listed)) != len(listed):
        raise SubgraphError(f"{source}: blocks: duplicate block id")
    seen: list[str] = []
    for node in order:
        block = node.rules.block if node.rules else None
        if block is not None and block not in listed:
            raise SubgraphError(f"{source}: {node.id}.rules.block: '{block}' is no block")
        if block is not None and block in seen and seen[-1] != block:
            raise SubgraphError(f"{source}: {node.id}.rules.block: the nodes of '{block}' do not run one after another")
        if block is not None and (not seen or seen[-1] != block):
            seen.append(block)
        if block is None:
            seen.append("")


def _ancestors(graph: nx.DiGraph, order: list[str], position: dict[str, int]) -> dict[str, int]:
    """Each node's ancestors as a bit set (bit ``position[a]``), in one pass over the topological order: a
    reference is then one bit test, where a path search per reference made a chain of references quadratic."""
    before: dict[str, int] = {}
    for node in order:
        bits = 0
        for parent in graph.predecessors(node):
            bits |= before[parent] | 1 << position[parent]
        before[node] = bits
    return before


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def check_arg(kind: str, value: Any, world: World) -> str | None:
    """Why ``value`` is no ``kind`` in ``world`` (None when it is one)."""
    house, objects = world.scene.house, world.scene.objects
    if kind in ("seconds", "metres", "celsius"):
        if not _number(value):
            return f"{value!r} is not a number of {kind}"
        return f"{value} must not be negative" if kind != "celsius" and value < 0 else None
    if kind == "zone":
        ok = isinstance(value, list) and len(value) == 6 and all(map(_number, value))
        if not ok or any(value[i] > value[i + 3] for i in range(3)):
            return f"{value!r} is not a zone [xmin, ymin, zmin, xmax, ymax, zmax]"
        return None
    if not isinstance(value, str):
        return f"{value!r} is not a name"
    if kind == "object":
        return None if value in objects else f"'{value}' is no object in the scene"
    if kind == "container":
        if value not in objects:
            return f"'{value}' is no object in the scene"
        return None if objects[value].asset.container else f"'{value}' ({objects[value].asset.name}) is no container"
    if kind == "support":
        return None if refs.supports(value, world.places, house) else f"'{value}' names no support"
    if kind in ("part", "button"):
        part = next((p for p in house.articulated if p.name == value), None)
        wanted = ("door", "drawer") if kind == "part" else ("button", "knob")
        if part is None:
            return f"'{value}' is no articulated part"
        return None if part.category in wanted else f"'{value}' is a {part.category}, not a {' or '.join(wanted)}"
    if kind == "appliance":
        return None if refs.appliance(value, house) else f"'{value}' is no appliance"
    if kind == "role":
        return None if value in world.roles.values() else f"'{value}' is no role in the scene"
    known = value in objects or refs.boxes(value, house)
    return None if known else f"'{value}' names nothing in the house or the scene"  # furniture, place


def ground(sub: Subgraph, world: World, source: object = "subgraph") -> list[tuple[PlanNode, SkillNode]]:
    """The nodes in run order with their skills, every argument resolved in ``world`` and type-checked."""
    library = skills()
    position = {n.id: i for i, n in enumerate(sub.nodes)}
    out = []
    for node in validate(sub, source):
        skill = library[node.verb]
        types = {a.name: a.type for a in skill.inputs}
        for key, value in node.args.items():
            if isinstance(value, str) and REF.match(value):
                continue
            why = check_arg(types[key], value, world)
            if why:
                raise SubgraphError(f"{_where(source, position[node.id], node)}.args.{key}: {why}")
        out.append((node, skill))
    return out
