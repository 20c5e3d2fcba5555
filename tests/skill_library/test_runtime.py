"""The runtime in MuJoCo over the task tests' small world: a subgraph run node by node inside one
episode, contracts measured on the simulated state, failures with their fallbacks as events."""

from __future__ import annotations

from housebench.rollout.env import Episode
from housebench.skill_library.contracts import World
from housebench.skill_library.executors import EXECUTORS
from housebench.skill_library.runtime import SubgraphRun
from housebench.skill_library.subgraph import Block, PlanNode, Rules, chain
from housebench.skills.base import Reason, Skill, SkillContext, SkillFailure
from housebench.state import Action
from tests.conftest import Played


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
    kinds = [(kind, d.get("node")) for _, kind, d in episode.events if kind != "look"]  # look: the skills' gaze
    assert kinds[:3] == [("node_pre", "n1"), ("node_path", "n1"), ("node_post", "n1")]
    assert ("look", {"target": "apple"}) in [(kind, d) for _, kind, d in episode.events]
    post = next(d for _, kind, d in episode.events if kind == "node_post" and d["node"] == "n1")
    assert post["ok"] and post["failed"] == []
    assert episode.time >= 1.0  # the head moved and the wait held, in simulated time


def test_look_past_the_heads_stop_turns_the_base_first(files):
    # facing the far wall the apple lies about 83 deg to the right: past the pan the head allows (1.4 rad)
    episode, run = _run(
        files,
        [
            PlanNode(id="n1", verb="face", args={"target": "wall_2"}),
            PlanNode(id="n2", verb="look", args={"object": "apple"}),
        ],
        horizon=60.0,
    )
    assert run.results == [{"node": "n1", "verb": "face", "ok": True}, {"node": "n2", "verb": "look", "ok": True}]
    kinds = [(kind, d.get("node")) for _, kind, d in episode.events]
    look = kinds[kinds.index(("node_pre", "n2")) : kinds.index(("node_post", "n2"))]
    assert ("base_path", None) in look  # the base turned towards the apple before the head panned


def test_a_failing_node_reports_measured_predicates_and_fallbacks(files):
    episode, run = _run(files, [PlanNode(id="n1", verb="lift", args={"object": "apple"})], horizon=5.0, attempts=1)
    assert run.results == [{"node": "n1", "verb": "lift", "ok": False}]
    pre = next(d for _, kind, d in episode.events if kind == "node_pre")
    assert not pre["ok"] and pre["failed"][0].startswith("holding apple: touched by no finger")
    failed = next(d for _, kind, d in episode.events if kind == "node_failed")
    assert failed["stage"] == "pre" and failed["failed"] == ["holding"] and "pick (holding)" in failed["fallbacks"]
    assert not [d for _, kind, d in episode.events if kind == "fallback"]  # the last attempt takes none
    assert [kind for _, kind, _ in episode.events][-1] == "subgraph_end"


def test_the_run_ends_at_the_first_node_that_still_fails(files):
    nodes = [
        PlanNode(id="n1", verb="lift", args={"object": "apple"}),  # nothing held: its precondition fails
        PlanNode(id="n2", verb="wait", args={"seconds": 0.1}),
    ]
    episode, run = _run(files, nodes, horizon=5.0, attempts=1)
    assert run.results == [{"node": "n1", "verb": "lift", "ok": False}]
    assert not [d for _, kind, d in episode.events if kind == "node_pre" and d["node"] == "n2"]
    assert [(kind, d) for _, kind, d in episode.events][-1] == ("subgraph_end", {"ok": False, "node": "n1"})


def test_a_call_that_never_ran_fails_though_its_postconditions_hold(files, monkeypatch):
    """A ``release`` with the hand already empty: its postcondition holds, but with no way to carry it out it did not
    run, and a plan that counted it would go on blind."""
    monkeypatch.setitem(EXECUTORS, "release", None)
    episode, run = _run(files, [PlanNode(id="n1", verb="release", args={"object": "apple"})], horizon=5.0, attempts=1)
    assert run.results == [{"node": "n1", "verb": "release", "ok": False}]
    post = next(d for _, kind, d in episode.events if kind == "node_post")
    assert post["failed"] == [] and post["error"].endswith("no executor")


def test_an_unjudgeable_condition_fails_the_node_not_the_run(files):
    # the small world's annotations have a fridge, its USD scene does not: the door's joint is unknown
    node = PlanNode(id="n1", verb="chill", args={"object": "apple", "appliance": "fridge"})
    episode, run = _run(files, [node], horizon=5.0, attempts=1)
    assert run.results == [{"node": "n1", "verb": "chill", "ok": False}]
    pre = next(d for _, kind, d in episode.events if kind == "node_pre")
    assert pre["failed"] == ["error pre: joint 'fridge/door' is missing from the state"]


class _Still(Skill):
    """An executor stand-in that holds still for one step (the runtime, not the skill, is under test)."""

    name = "still"
    timeout_s = 5.0

    def body(self, ctx, obs):
        return (yield Action())


def test_a_missed_postcondition_is_retried_without_a_fallback(files, monkeypatch):
    monkeypatch.setitem(EXECUTORS, "count", lambda *_: _Still())
    episode, run = _run(files, [PlanNode(id="n1", verb="count", args={"role": "fruit"})], horizon=5.0, attempts=2)
    assert run.results == [{"node": "n1", "verb": "count", "ok": False}]
    failed = [d for _, kind, d in episode.events if kind == "node_failed"]
    assert [(d["attempt"], d["stage"]) for d in failed] == [(1, "post"), (2, "post")]
    assert failed[0]["fallbacks"] == ["search (in_view)"]  # a candidate, not taken: the count ran
    assert not [d for _, kind, d in episode.events if kind == "fallback"]


def test_a_fallback_gets_one_fallback_of_its_own(files, monkeypatch):
    for verb in ("pick", "navigate"):
        monkeypatch.setitem(EXECUTORS, verb, lambda *_: _Still())
    episode, _ = _run(files, [PlanNode(id="n1", verb="lift", args={"object": "apple"})], horizon=10.0, attempts=2)
    taken = [(d["node"], d["verb"]) for _, kind, d in episode.events if kind == "fallback"]
    assert taken[:2] == [("n1", "pick"), ("n1/pick", "navigate")]  # the pick's base_near: drive to the apple
    runs = [d for _, kind, d in episode.events if kind == "node_pre" and d["node"] == "n1/pick/navigate"]
    assert len(runs) == 1  # the fallback's fallback: one try, not retried as it is


def test_a_fallback_drives_to_what_the_failing_condition_names(files, monkeypatch):
    """A place with the base far from the shelf: the navigate it falls back on goes to the shelf (the failing
    ``base_near``'s target), not to the object that would fill a place too."""
    for verb in ("navigate", "pick"):
        monkeypatch.setitem(EXECUTORS, verb, lambda *_: _Still())
    node = PlanNode(id="n1", verb="place", args={"object": "apple", "support": "shelf/level_1"})
    episode, _ = _run(files, [node], horizon=10.0, attempts=2)
    taken = [(d["verb"], d["args"]) for _, kind, d in episode.events if kind == "fallback"]
    assert taken == [("navigate", {"target": "shelf/level_1"})], taken


def test_a_fallback_with_no_way_to_run_is_passed_over(files, monkeypatch):
    monkeypatch.setitem(EXECUTORS, "pick", None)  # the lift's only fallback (nothing held: pick) cannot run
    episode, run = _run(files, [PlanNode(id="n1", verb="lift", args={"object": "apple"})], horizon=5.0, attempts=2)
    assert run.results == [{"node": "n1", "verb": "lift", "ok": False}]
    assert not [d for _, kind, d in episode.events if kind == "fallback"]


def test_a_nested_call_that_fails_ends_its_parent(files, monkeypatch):
    for verb in ("navigate", "pick", "place"):
        monkeypatch.setitem(EXECUTORS, verb, lambda *_: _Still())
    node = PlanNode(id="n1", verb="fetch", args={"object": "apple", "support": "shelf/level_1"})
    episode, run = _run(files, [node], horizon=20.0, attempts=1)
    assert run.results == [{"node": "n1", "verb": "fetch", "ok": False}]
    children = [d for _, kind, d in episode.events if kind == "node_post" and d["node"].startswith("n1.")]
    failed = next(d for d in children if not d["ok"])
    assert children[-1] is failed, [d["node"] for d in children]  # nothing called after it
    post = next(d for _, kind, d in episode.events if kind == "node_post" and d["node"] == "n1")
    assert post["error"] == f"call {failed['node']} ({failed['verb']}) failed"


def test_each_call_sees_the_call_the_plan_makes_next(files, monkeypatch):
    """A navigate's executor reads the next call (it drives to the next side pick's own stance)."""
    seen = []

    def spy(args, world, *_):
        seen.append(world.next_call)
        return _Still()

    monkeypatch.setitem(EXECUTORS, "wait", spy)
    nodes = [
        PlanNode(id="n1", verb="wait", args={"seconds": 0.1}),
        PlanNode(id="n2", verb="look", args={"object": "apple"}),
        PlanNode(id="n3", verb="wait", args={"seconds": 0.1}),
    ]
    _run(files, nodes, horizon=40.0, attempts=1)
    assert seen == [("look", {"object": "apple"}), None]


class _Forever(Skill):
    """An executor stand-in that never finishes: only its time budget stops it."""

    name = "forever"
    timeout_s = 0.5

    def body(self, ctx, obs):
        while True:
            yield Action()


def test_a_call_past_its_time_budget_is_stopped_and_tried_again(files, monkeypatch):
    monkeypatch.setitem(EXECUTORS, "count", lambda *_: _Forever())
    episode, run = _run(files, [PlanNode(id="n1", verb="count", args={"role": "fruit"})], horizon=20.0, attempts=2)
    assert run.results == [{"node": "n1", "verb": "count", "ok": False}]
    posts = [d for _, kind, d in episode.events if kind == "node_post"]
    assert len(posts) == 2 and all(d["error"].startswith("forever: timeout") for d in posts), posts
    assert episode.time < 5.0  # two budgets of 0.5 s, not the episode's 20 s


# ---- nodes their planner judges (``rules``: the scripted brain's), played without physics ----


class _Judge:
    """A planner stand-in: each node's way is one skill named after it; tests read ``truth``."""

    def __init__(self, truth=None):
        self.truth, self.after_seen, self.started = truth or {}, [], []

    def way(self, node, obs):
        return None if node.id in self.truth.get("no_way", ()) else (_Named(node.id),)

    def test(self, name, arg, node, obs):
        value = self.truth[name]
        return value(node) if callable(value) else value

    def after(self, node, failure, ok, obs):
        self.after_seen.append((node.id, ok))

    def start(self, block, obs):
        self.started.append(block)


class _Named(_Still):
    def __init__(self, name):
        self.name = name


def _judged(files, nodes, blocks, fails=(), truth=None, attempts=3):
    """``nodes`` run with their skills played: the names of the skills run, the decisions, the judge."""
    episode = Episode(*files, horizon_s=1.0)
    obs = episode.reset(0)
    world = World(episode.scene, dict(episode.task.goal.roles), state=obs.state)
    decisions = []
    ctx = SkillContext(
        task=episode.task, scene=episode.scene, control_dt=0.1, log=lambda kind, **d: decisions.append((kind, d))
    )
    judge = _Judge(truth)
    run = SubgraphRun(chain(nodes, blocks=blocks), world, ctx, attempts, judge=judge)
    failing = list(fails)

    def outcome(skill, o):
        if skill.name in failing:
            failing.remove(skill.name)
            return SkillFailure(skill.name, Reason.MISSED), o
        return None, o

    run.skill = Played(outcome)
    for _ in run.run(obs):
        raise AssertionError("a played run asked for an action")
    return [s.name for s in run.skill.skills], [d for kind, d in decisions if kind == "decision"], judge, run


def _node(id, verb="pick", **rules):
    args = {"object": "apple"} if verb != "place" else {"object": "apple", "support": "shelf/level_1"}
    return PlanNode(id=id, verb=verb, args=args, rules=Rules(**rules))


def test_a_failed_node_tries_its_block_again_from_the_first_node_then_gives_up_and_the_run_goes_on(files):
    nodes = [_node("pick", block="b"), _node("place", "place", block="b"), _node("next")]
    played, decisions, _, run = _judged(files, nodes, [Block(id="b", attempts=2)], fails=["place", "place"])
    assert played == ["pick", "place", "pick", "place", "next"]
    assert [d["choice"] for d in decisions] == ["again", "again", "give up"]
    assert [r["ok"] for r in run.results] == [False, False, True]


def test_a_node_that_need_not_succeed_goes_on(files):
    nodes = [_node("release", block="b", must=False), _node("pick", block="b")]
    played, decisions, _, _ = _judged(files, nodes, [Block(id="b", attempts=2)], fails=["release"])
    assert played == ["release", "pick"] and decisions == []


def test_guards_skip_a_node_and_a_block(files):
    truth = {"far": lambda node: node.id == "b"}
    nodes = [_node("a", when=["far"]), _node("b", when=["far"]), _node("c", block="k"), _node("d", when=["ran:k"])]
    played, _, judge, _ = _judged(files, nodes, [Block(id="k", attempts=1, when=["not far"])], truth=truth)
    assert played == ["b", "c", "d"] and judge.started == ["k"]
    played, _, judge, _ = _judged(files, nodes, [Block(id="k", attempts=1, when=["far"])], truth=truth)
    assert played == ["b"] and judge.started == []  # the block skipped, and what asks whether it ran


def test_ok_if_counts_a_failure_done_and_done_if_overrides_success(files):
    nodes = [_node("pick", block="b", ok_if="held"), _node("place", "place", block="b", done_if="inside")]
    truth = {"held": True, "inside": False}
    played, _, judge, _ = _judged(files, nodes, [Block(id="b", attempts=2)], fails=["pick"], truth=truth)
    assert played == ["pick", "place", "pick", "place"]  # a missed pick with the item held goes on; an empty place not
    assert judge.after_seen == [("pick", True), ("place", False), ("pick", True), ("place", False)]


def test_recoveries_run_after_their_node_fails_and_after_a_give_up(files):
    nodes = [
        _node("pick", block="b"),
        _node("stage", block="b", on="fail"),
        _node("place", "place", block="b"),
        _node("put_back", "place", block="b", on="give_up"),
    ]
    played, _, _, _ = _judged(files, nodes, [Block(id="b", attempts=2)], fails=["pick", "place"])
    assert played == ["pick", "stage", "pick", "place", "put_back"]


def test_no_way_ends_the_block_done(files):
    nodes = [_node("pick", block="b"), _node("place", "place", block="b"), _node("lift", block="b"), _node("next")]
    played, decisions, _, run = _judged(files, nodes, [Block(id="b", attempts=2)], truth={"no_way": ("place",)})
    assert played == ["pick", "next"] and decisions == [{"node": "place", "choice": "no way"}]
    assert all(r["ok"] for r in run.results)
