"""The relations graph over SkillNodes, generated from the contracts (a networkx MultiDiGraph).

Edges, each with the predicate that links the two skills (``on``):

- ``next`` A -> B: a postcondition of A is a precondition of B on an argument of a compatible type
  (A can enable B); ``previous`` B -> A is the same link read backwards;
- ``fallback`` A -> B: when A's precondition or postcondition ``on`` is measured false, B is a skill
  that establishes it (on a compatible argument) without needing it, other than A, the skills A calls
  and nested contracts;
- ``alternative`` A <-> B: the same postconditions over the same argument types and the same
  precondition predicates: either reaches what the other promises from where the other starts;
- ``calls`` A -> B: the nested contract A calls B.
"""

from __future__ import annotations

import networkx as nx

from housebench.skill_library.model import PLACEHOLDER, SkillNode

COMPATIBLE = {  # an argument of the key type can stand where the listed types are expected
    "object": {"object", "place", "container"},
    "container": {"container", "object", "place"},
    "support": {"support", "place"},
    "part": {"part", "place"},
    "button": {"button", "place"},
    "appliance": {"appliance", "place", "furniture"},
    "furniture": {"furniture", "place"},
    "place": {"place", "object", "container", "support", "part", "button", "appliance", "furniture"},
}


Sig = tuple[str, str]  # (predicate, argument type), the predicate qualified ("base_near:away")


def _qualified(template: dict) -> str:
    """The predicate, marked where a field changes what it promises: a base ``away`` from or ``facing``
    its target."""
    if template["predicate"] == "base_near" and "min_distance" in template:
        return "base_near:away"
    if template["predicate"] == "base_near" and "max_bearing_deg" in template:
        return "base_near:facing"
    return template["predicate"]


def signature(skill: SkillNode, key: str) -> set[Sig]:
    """``(predicate, argument type)`` for every condition of ``pre`` or ``post`` (``-`` when it reads no
    argument, e.g. ``hand_empty``)."""
    types = {a.name: a.type for a in skill.inputs}
    out = set()
    for template in getattr(skill, key):
        names = [n for n, attr in PLACEHOLDER.findall(repr(template)) if n in types and not attr]
        out |= {(_qualified(template), types[n]) for n in names[:1]} or {(_qualified(template), "-")}
    return out


def _satisfies(pa: str, pb: str) -> bool:
    """Whether a promised ``pa`` meets a required ``pb`` (facing a target is also being near it)."""
    return pa == pb or (pa == "base_near:facing" and pb == "base_near")


def _links(a: set[Sig], b: set[Sig]) -> list[str]:
    """The predicates by which a condition of ``a`` can satisfy one of ``b``."""
    return sorted(
        {pb for pa, ta in a for pb, tb in b if _satisfies(pa, pb) and (ta == tb or tb in COMPATIBLE.get(ta, {ta}))}
    )


def relations(skills: list[SkillNode]) -> nx.MultiDiGraph:
    graph = nx.MultiDiGraph()
    for s in skills:
        graph.add_node(s.id, verb=s.verb)
    by_verb = {s.verb: s for s in skills}
    for a in skills:
        called = {by_verb[c.verb].id for c in a.calls}
        for b in skills:
            if a.id == b.id:
                continue
            for on in _links(signature(a, "post"), signature(b, "pre")):
                graph.add_edge(a.id, b.id, kind="next", on=on)
                graph.add_edge(b.id, a.id, kind="previous", on=on)
            b_needs = {p for p, _ in signature(b, "pre")}
            if b.id not in called and not b.calls:
                needed = signature(a, "pre") | signature(a, "post")
                for on in _links(signature(b, "post"), needed):
                    if on not in b_needs:  # B must not need what A failed to bring about
                        graph.add_edge(a.id, b.id, kind="fallback", on=on)
            a_needs = {p for p, _ in signature(a, "pre")}
            if signature(a, "post") == signature(b, "post") and a_needs == b_needs:
                graph.add_edge(a.id, b.id, kind="alternative", on=",".join(sorted(p for p, _ in signature(a, "post"))))
        for c in sorted(called):
            graph.add_edge(a.id, c, kind="calls", on="")
    return graph


def edge_rows(graph: nx.MultiDiGraph) -> list[dict[str, str]]:
    """The edges as sorted plain rows (the catalog's ``relations``)."""
    rows = [{"from": u, "to": v, "kind": d["kind"], "on": d["on"]} for u, v, d in graph.edges(data=True)]
    return sorted(rows, key=lambda r: (r["from"], r["kind"], r["to"], r["on"]))
