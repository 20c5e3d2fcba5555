"""Skill subgraphs: strict loading, validation against the library, grounding in a scene, one-line errors."""

from __future__ import annotations

import json

import pytest

from housebench.skill_library.subgraph import SubgraphError, ground, load_subgraph

GOOD = {
    "version": 1,
    "task": "put_fruit_in_container",
    "nodes": [
        {"id": "n1", "verb": "navigate", "args": {"target": "apple"}},
        {"id": "n2", "verb": "pick", "args": {"object": "apple"}},
        {"id": "n3", "verb": "insert", "args": {"object": "@n2.held", "container": "bowl"}},
        {"id": "n4", "verb": "wait", "args": {"seconds": 2}},
    ],
    "edges": [{"from": "n1", "to": "n2"}, {"from": "n2", "to": "n3"}, {"from": "n3", "to": "n4"}],
}


def _file(tmp_path, data):
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(data))
    return path


def test_good_subgraph_grounds_in_run_order(tmp_path, world):
    sub = load_subgraph(_file(tmp_path, GOOD))
    order = ground(sub, world, "plan.json")
    assert [n.id for n, _ in order] == ["n1", "n2", "n3", "n4"]
    assert sub.dump()["edges"][0] == {"from": "n1", "to": "n2"}


def test_judged_nodes_and_their_blocks_load_and_ground(tmp_path, world):
    data = _mutated(lambda d: d.update(blocks=[{"id": "b", "attempts": 3, "when": ["not holding:apple"]}]))
    data["nodes"][1]["rules"] = {"block": "b", "when": ["not holding:apple"], "ok_if": "holding:apple"}
    data["nodes"][2]["rules"] = {"block": "b", "done_if": "inside", "must": False}
    sub = load_subgraph(_file(tmp_path, data))
    assert [n.id for n, _ in ground(sub, world, "plan.json")] == ["n1", "n2", "n3", "n4"]
    assert sub.dump()["blocks"] == [{"id": "b", "attempts": 3, "when": ["not holding:apple"]}]
    assert "blocks" not in load_subgraph(_file(tmp_path, GOOD)).dump()  # a contract plan's file is as it was


def _mutated(change):
    data = json.loads(json.dumps(GOOD))
    change(data)
    return data


@pytest.mark.parametrize(
    "change, needle",
    [
        (lambda d: d.update(colour=1), "plan.json: colour: Extra inputs are not permitted"),
        (lambda d: d["nodes"][1].update(skill="pick"), "nodes[1].skill: Extra inputs"),
        (lambda d: d["nodes"][1].update(verb="grab"), "nodes[1] (n2).verb: 'grab' is no skill verb"),
        (lambda d: d["nodes"][1]["args"].update(hand="left"), "nodes[1] (n2).args.hand: pick takes no argument"),
        (lambda d: d["nodes"][1]["args"].pop("object"), "nodes[1] (n2).args.object: missing (a object)"),
        (lambda d: d["nodes"][1]["args"].update(object="appel"), "nodes[1] (n2).args.object: 'appel' is no object"),
        (
            lambda d: d["nodes"][2]["args"].update(container="apple"),
            "(n3).args.container: 'apple' (apple) is no container",
        ),
        (lambda d: d["nodes"][3]["args"].update(seconds="long"), "(n4).args.seconds: 'long' is not a number"),
        (lambda d: d["nodes"][3]["args"].update(seconds=-1), "(n4).args.seconds: -1.0 must not be negative"),
        (lambda d: d["nodes"][2]["args"].update(object="@n4.held"), "'@n4.held' names no node that runs before n3"),
        (lambda d: d["nodes"][2]["args"].update(object="@n1.held"), "(n3).args.object: navigate has no output 'held'"),
        (lambda d: d["nodes"][3].update(id="n1"), "nodes[3] (n1).id: duplicate node id"),
        (lambda d: d["edges"].append({"from": "n4", "to": "n9"}), "edges[3].to: 'n9' is no node"),
        (lambda d: d["edges"].append({"from": "n4", "to": "n1"}), "edges: the graph has a cycle"),
        (
            lambda d: d["nodes"].append({"id": "n5", "verb": "open", "args": {"part": "cabinet/start_button"}}),
            "(n5).args.part: 'cabinet/start_button' is a button, not a door or drawer",
        ),
        (
            lambda d: d["nodes"].append({"id": "n5", "verb": "place", "args": {"object": "apple", "support": "sofa"}}),
            "(n5).args.support: 'sofa' names no support",
        ),
        (lambda d: d["nodes"][1].update(rules={"block": "b9"}), "n2.rules.block: 'b9' is no block"),
        (
            lambda d: (
                [d.update(blocks=[{"id": "b", "attempts": 2}])]
                + [d["nodes"][i].update(rules={"block": "b"}) for i in (0, 2)]
            ),
            "n3.rules.block: the nodes of 'b' do not run one after another",
        ),
        (lambda d: d.update(blocks=[{"id": "b", "attempts": 2}, {"id": "b", "attempts": 1}]), "duplicate block id"),
        (
            lambda d: d.update(blocks=[{"id": "b", "attempts": 11}]),
            "blocks[0].attempts: Input should be less than or equal to 10",
        ),
        (
            lambda d: d["nodes"][1].update(rules={"when": ["Holding apple"]}),
            "nodes[1].rules.when[0]: String should match pattern",
        ),
    ],
)
def test_bad_subgraph_is_one_line_naming_node_and_field(tmp_path, world, change, needle):
    path = _file(tmp_path, _mutated(change))
    with pytest.raises(SubgraphError) as err:
        ground(load_subgraph(path), world, path)
    message = str(err.value)
    assert "\n" not in message and message.startswith(str(path)) and needle in message, message
