"""The runtime's nodes that their planner judges (``rules``): retry blocks, guards, recoveries.

A planner that judges its own nodes (the scripted brain, :mod:`housebench.skill_library.script`) hands the runtime a
:class:`Judge`: the skills a node's verb takes now (``way``: its run-time choice, the choice table's way or the
surface it picks; None: no way, the block ends), the tests its ``when``, ``ok_if`` and ``done_if`` name, what it
learns from each outcome (``after``: a surface out of reach, where an item was set down) and from a block's start
(``start``: where the item came from). The runtime owns the rest, once:

- a node runs only when every test of its ``when`` holds (else it is skipped, as done);
- its skills run one after another through the one driver, each with its own checks (events ``skill_start``,
  ``skill_end``); the node is done when the last one succeeded or its ``ok_if`` holds (the item held after all), or,
  with ``done_if``, exactly when that holds (the item in the cavity, whatever the place said);
- a node that is not done ends the try unless it is ``must: false`` (the hand let go before a pick): the recoveries
  written right after it (``on: fail``: stage the item elsewhere first) run, and the block is tried again from its
  first node, up to its ``attempts`` (a re-pick, a place again on the next surface);
- a block whose ``when`` does not hold at its start is skipped; one that gives up runs its ``on: give_up`` recoveries
  (put the item back) and is no end: the run goes on (the next move).

A recovery's own failure is no end either. The runtime's own tests: ``holding:<object>`` (both fingers on it),
``touching`` (a finger on anything) and ``ran:<block>`` (the block's ``when`` held when it was reached); any test reads
``not <test>`` as its negation. Every try again and give-up is a ``decision`` event.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Protocol

from housebench.skill_library.subgraph import Block, PlanNode
from housebench.skills.base import Skill, SkillContext, SkillFailure
from housebench.state import Action, Observation

Outcome = tuple[SkillFailure | None, Observation]
RunSkill = Callable[[Skill, Observation], Generator[Action, Observation, Outcome]]
Steps = Generator[Action, Observation, Observation]


class Judge(Protocol):
    def way(self, node: PlanNode, obs: Observation) -> tuple[Skill, ...] | None: ...

    def test(self, name: str, arg: str, node: PlanNode, obs: Observation) -> bool: ...

    def after(self, node: PlanNode, failure: SkillFailure | None, ok: bool, obs: Observation) -> None: ...

    def start(self, block: str, obs: Observation) -> None: ...


def block_at(order: list[PlanNode], i: int) -> list[PlanNode]:
    """The nodes of the block ``order[i]`` opens (itself alone when it names none)."""
    block = order[i].rules.block
    if block is None:
        return [order[i]]
    end = i
    while end < len(order) and order[end].rules is not None and order[end].rules.block == block:
        end += 1
    return order[i:end]


class Blocks:
    """Runs the judged nodes of one subgraph run through ``skill`` (the one driver, with events)."""

    def __init__(self, judge: Judge, skill: RunSkill, ctx: SkillContext) -> None:
        self.judge, self.skill, self.ctx = judge, skill, ctx
        self.ran: set[str] = set()

    def holds(self, test: str, node: PlanNode, obs: Observation) -> bool:
        """Whether ``[not ]<name>[:<arg>]`` holds now: the runtime's own tests, else the planner's."""
        negated = test.startswith("not ")
        name, _, arg = test.removeprefix("not ").partition(":")
        if name == "holding":
            value = obs.holding(arg)
        elif name == "touching":
            value = obs.touching()
        elif name == "ran":
            value = arg in self.ran
        else:
            value = self.judge.test(name, arg, node, obs)
        return bool(value) != negated

    def run(
        self, nodes: list[PlanNode], block: Block | None, obs: Observation
    ) -> Generator[Action, Observation, tuple[bool, Observation]]:
        """``nodes`` tried together, ``block.attempts`` times (once without a block): ``(done, last observation)``."""
        if block is not None:
            if not all(self.holds(t, nodes[0], obs) for t in block.when):
                return True, obs
            self.ran.add(block.id)
            self.judge.start(block.id, obs)
        attempts = block.attempts if block is not None else 1
        for attempt in range(1, attempts + 1):
            i, again = 0, False
            while i < len(nodes) and not again:
                node, i = nodes[i], i + 1
                if node.rules.on is not None:  # a recovery runs only when called on
                    continue
                ok, failure, obs = yield from self._node(node, obs)
                if ok is None:  # no way: the block ends here
                    return True, obs
                if not ok and node.rules.must:
                    after = failure.reason.value if failure is not None else "not done"
                    self.ctx.log("decision", node=node.id, attempt=attempt, choice="again", after=after)
                    while i < len(nodes) and nodes[i].rules.on == "fail":
                        _, _, obs = yield from self._node(nodes[i], obs)
                        i += 1
                    again = True
            if not again:
                return True, obs
        self.ctx.log("decision", node=block.id if block is not None else nodes[0].id, choice="give up")
        for node in (n for n in nodes if n.rules.on == "give_up"):
            _, _, obs = yield from self._node(node, obs)
        return False, obs

    def _node(self, node: PlanNode, obs: Observation):
        """One node run when its guards hold: ``(done, failure, last observation)``, done None when it has no way."""
        rules = node.rules
        if not all(self.holds(t, node, obs) for t in rules.when):
            return True, None, obs
        skills = self.judge.way(node, obs)
        if skills is None:
            self.ctx.log("decision", node=node.id, choice="no way")
            return None, None, obs
        failure = None
        for one in skills:
            failure, obs = yield from self.skill(one, obs)
        if rules.done_if is not None:
            ok = self.holds(rules.done_if, node, obs)
        else:
            ok = failure is None or (rules.ok_if is not None and self.holds(rules.ok_if, node, obs))
        self.judge.after(node, failure, ok, obs)
        return ok, failure, obs
