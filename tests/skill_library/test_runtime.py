"""The runtime in MuJoCo over the task tests' small world: a subgraph run node by node inside one
episode, contracts measured on the simulated state, failures with their fallbacks as events."""

from __future__ import annotations

from housebench.rollout.env import Episode
from housebench.skill_library.contracts import World
from housebench.skill_library.runtime import SubgraphRun
from housebench.skill_library.subgraph import PlanNode, chain
from housebench.skills.base import SkillContext


def _run(files, nodes, horizon=30.0):
    episode = Episode(*files, horizon_s=horizon)
    obs = episode.reset(0)
    world = World(episode.scene, dict(episode.task.goal.roles), state=obs.state)
    ctx = SkillContext(task=episode.task, scene=episode.scene, control_dt=0.1, log=episode.log, initial=obs.state)
    run = SubgraphRun(chain(nodes), world, ctx)
    gen = run.run(obs)
    action = next(gen)
    try:
        while not episode.done:
            action = gen.send(episode.step(action))
    except StopIteration:
        pass
    return episode, run


def test_look_then_wait_runs_in_physics(files):
    episode, run = _run(
        files,
        [
            PlanNode(id="n1", verb="look", args={"object": "apple"}),
            PlanNode(id="n2", verb="wait", args={"seconds": 1.0}),
        ],
    )
    assert run.results == [{"node": "n1", "verb": "look", "ok": True}, {"node": "n2", "verb": "wait", "ok": True}]
    kinds = [(kind, d.get("node")) for _, kind, d in episode.events]
    assert kinds[:3] == [("node_pre", "n1"), ("node_path", "n1"), ("node_post", "n1")]
    post = next(d for _, kind, d in episode.events if kind == "node_post" and d["node"] == "n1")
    assert post["ok"] and post["failed"] == []
    assert episode.time >= 1.0  # the head moved and the wait held, in simulated time


def test_a_failing_node_reports_measured_predicates_and_fallbacks(files):
    episode, run = _run(files, [PlanNode(id="n1", verb="open", args={"part": "cabinet/door"})], horizon=10.0)
    assert run.results == [{"node": "n1", "verb": "open", "ok": False}]
    failed = [d for _, kind, d in episode.events if kind == "node_failed"]
    assert failed[0]["stage"] == "pre" and failed[0]["failed"] == ["base_near"]
    assert "navigate (base_near)" in failed[0]["fallbacks"]
    assert any(kind == "fallback" and d["verb"] == "navigate" for _, kind, d in episode.events)
    assert [kind for _, kind, _ in episode.events][-1] == "subgraph_end"
