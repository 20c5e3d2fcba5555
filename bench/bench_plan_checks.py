"""Seconds to check a plan (``subgraph.validate``) that is a chain of ``@node.output`` references, by size:
linear since issue 33 (a path search per reference made it quadratic). Run: python bench/bench_plan_checks.py"""

from __future__ import annotations

import time

from housebench.skill_library.subgraph import PlanEdge, PlanNode, Subgraph, validate


def chain(n: int) -> Subgraph:
    """Built past the load limit (``model_construct``), to show how the check itself grows."""
    nodes = [PlanNode(id="n0", verb="pick", args={"object": "apple"})]
    nodes += [PlanNode(id=f"n{i}", verb="pick", args={"object": f"@n{i - 1}.held"}) for i in range(1, n)]
    edges = [PlanEdge(source=f"n{i - 1}", to=f"n{i}") for i in range(1, n)]
    return Subgraph.model_construct(version=1, task=None, scene=None, nodes=nodes, edges=edges)


if __name__ == "__main__":
    validate(chain(2))  # load the library first
    for n in (1000, 4000, 16000):
        sub = chain(n)
        start = time.perf_counter()
        validate(sub)
        print(f"{n:>5} nodes: {time.perf_counter() - start:.3f} s")
