"""The runtime in MuJoCo over the task tests' small world: a subgraph run node by node inside one
episode, contracts measured on the simulated state, failures with their fallbacks as events."""

from __future__ import annotations

from housebench.rollout.env import Episode
from housebench.skill_library.contracts import World
from housebench.skill_library.runtime import SubgraphRun
from housebench.skill_library.subgraph import PlanNode, chain
from housebench.skills.base import SkillContext


def _run(files, nodes, horizon=30.0, attempts=2):
    episode = Episode(*files, horizon_s=horizon)
    obs = episode.reset(0)
    world = World(episode.scene, dict(episode.task.goal.roles), state=obs.state)
    ctx = SkillContext(task=episode.task, scene=episode.scene, control_dt=0.1, log=episode.log, initial=obs.state)
    run = SubgraphRun(chain(nodes), world, ctx, attempts)
    gen = run.run(obs)
    try:
        action = next(gen)
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
    episode, run = _run(files, [PlanNode(id="n1", verb="lift", args={"object": "apple"})], horizon=5.0, attempts=1)
    assert run.results == [{"node": "n1", "verb": "lift", "ok": False}]
    pre = next(d for _, kind, d in episode.events if kind == "node_pre")
    assert not pre["ok"] and pre["failed"][0].startswith("holding apple: touched by no finger")
    failed = next(d for _, kind, d in episode.events if kind == "node_failed")
    assert failed["stage"] == "pre" and failed["failed"] == ["holding"] and "pick (holding)" in failed["fallbacks"]
    assert [kind for _, kind, _ in episode.events][-1] == "subgraph_end"


def test_an_unjudgeable_condition_fails_the_node_not_the_run(files):
    # the small world's annotations have a fridge, its USD scene does not: the door's joint is unknown
    node = PlanNode(id="n1", verb="chill", args={"object": "apple", "appliance": "fridge"})
    episode, run = _run(files, [node], horizon=5.0, attempts=1)
    assert run.results == [{"node": "n1", "verb": "chill", "ok": False}]
    pre = next(d for _, kind, d in episode.events if kind == "node_pre")
    assert pre["failed"] == ["error pre: joint 'fridge/door' is missing from the state"]
