"""Plans have a size limit and every check that walks one is linear (issue 33): a plan over the limit is
one line before it is walked; a long chain of ``@node.output`` references is checked in one pass."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from housebench.cli import main
from housebench.skill_library import subgraph
from housebench.skill_library.subgraph import SubgraphError, load_subgraph, validate


def _chain(n: int) -> dict:
    """``n`` picks, each taking what the one before holds (a chain of references)."""
    nodes = [{"id": "n0", "verb": "pick", "args": {"object": "apple"}}]
    nodes += [{"id": f"n{i}", "verb": "pick", "args": {"object": f"@n{i - 1}.held"}} for i in range(1, n)]
    edges = [{"from": f"n{i - 1}", "to": f"n{i}"} for i in range(1, n)]
    return {"version": 1, "nodes": nodes, "edges": edges}


def _write(tmp_path: Path, data: dict) -> Path:
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(data))
    return path


def test_a_plan_at_the_limit_checks(tmp_path):
    order = validate(load_subgraph(_write(tmp_path, _chain(subgraph.MAX_NODES))))
    assert [n.id for n in order] == [f"n{i}" for i in range(subgraph.MAX_NODES)]


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        (_chain(subgraph.MAX_NODES + 1), f"nodes: {subgraph.MAX_NODES + 1} nodes, over the limit of"),
        (
            _chain(2) | {"edges": [{"from": "n0", "to": "n1"}] * (subgraph.MAX_EDGES + 1)},
            f"edges: {subgraph.MAX_EDGES + 1} edges, over the limit of",
        ),
    ],
    ids=["nodes", "edges"],
)
def test_a_plan_over_the_limit_is_one_line(tmp_path, data, needle):
    with pytest.raises(SubgraphError, match=needle):
        load_subgraph(_write(tmp_path, data))


def test_a_plan_file_over_its_byte_limit_is_refused_unread(tmp_path):
    path = tmp_path / "plan.json"
    path.write_text(" " * (subgraph.MAX_PLAN_BYTES + 1) + "{}")
    with pytest.raises(SubgraphError, match=f"over the limit of {subgraph.MAX_PLAN_BYTES}"):
        load_subgraph(path)


def test_skill_validate_refuses_a_huge_plan_in_one_line(tmp_path):
    plan = _write(tmp_path, _chain(2 * subgraph.MAX_NODES))  # the probe's 10^5 nodes took 139 s
    annotations = tmp_path / "scene.json"
    annotations.write_text("{}")
    result = CliRunner().invoke(main, ["skill", "validate", str(plan), "--annotations", str(annotations)])
    assert result.exit_code == 2 and result.output.count("\n") == 1, result.output
    assert f"nodes: {2 * subgraph.MAX_NODES} nodes, over the limit of {subgraph.MAX_NODES}" in result.output


def test_references_still_need_a_node_that_runs_before(tmp_path):
    data = _chain(4)
    data["edges"] = [{"from": "n0", "to": "n1"}, {"from": "n1", "to": "n3"}, {"from": "n0", "to": "n2"}]
    data["nodes"][2]["args"]["object"] = "apple"
    data["nodes"][3]["args"]["object"] = "@n0.held"  # an ancestor two steps back: fine
    validate(subgraph.Subgraph.model_validate(data))
    data["nodes"][3]["args"]["object"] = "@n2.held"  # a sibling branch: does not run before n3
    with pytest.raises(SubgraphError, match=r"nodes\[3\] \(n3\)\.args\.object: '@n2.held' names no node that runs"):
        validate(subgraph.Subgraph.model_validate(data))
    data["nodes"][3]["args"]["object"] = "@n3.held"  # itself
    with pytest.raises(SubgraphError, match="names no node that runs before n3"):
        validate(subgraph.Subgraph.model_validate(data))
