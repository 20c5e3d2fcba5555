"""The runtime: a skill subgraph run node by node inside one episode, held to its contracts.

``SubgraphRun(sub, world, ctx).run(obs)`` is a generator of actions (``obs = yield action``), so a
policy drives it one control step at a time. For each node, in the subgraph's run order:

1. ground the contract on the current state; measure the preconditions (event ``node_pre``);
2. choose the policy path by the noun (``node_path``, with why earlier paths were passed over);
3. run it: a nested contract runs the skills it calls (each one a node of its own, ``<id>.<k>``), a
   leaf its executor (:mod:`housebench.skill_library.executors`) under a time budget;
4. measure the postconditions against the state the call started from (``node_post``).

When a pre- or postcondition is measured false (or the executor fails), ``node_failed`` lists the
failing predicates and the fallback candidates from the relations graph, and the node is tried again,
up to ``attempts`` times. Before a retry whose preconditions failed, the first candidate whose
arguments can be filled from the node's own (an executable one) is taken (``fallback``; its own unmet
precondition gets one fallback in turn: a re-pick drives to where the object fell); a call that ran
and missed its postconditions is retried as it is (a fallback for them, such as ``release``, would
undo its preconditions: a place out of reach let go of the book over the floor). A node that still
fails ends the run (``subgraph_end``).

Nodes with ``rules`` are judged by their planner instead (a :class:`~housebench.skill_library.blocks.Judge`): their
skills run with their own checks, in retry blocks, guarded by the planner's tests
(:mod:`housebench.skill_library.blocks`); a given-up block does not end the run.
"""

from __future__ import annotations

from collections.abc import Generator
from functools import cache
from typing import Any

from housebench.skill_library.blocks import Blocks, Judge, RunSkill, block_at
from housebench.skill_library.contracts import ContractError, World, calls, choose_path, ground, judge_grounded
from housebench.skill_library.executors import executor
from housebench.skill_library.library import skills
from housebench.skill_library.model import SkillNode
from housebench.skill_library.relations import COMPATIBLE, relations
from housebench.skill_library.subgraph import REF, Subgraph
from housebench.skill_library.subgraph import ground as ground_subgraph
from housebench.skills.base import Reason, SkillContext, SkillFailure, failed_items
from housebench.skills.drive import drive, tried
from housebench.state import Action, Observation
from housebench.tasks.geometry import GoalError
from housebench.tasks.verdict import ConditionResult, ItemResult, Verdict

Run = Generator[Action, Observation, tuple[bool, Observation]]
NOT_RUN = ("no path fits the noun", f"{Reason.UNSUPPORTED.value}: no executor")  # a call that never ran fails
SETS_DOWN = {"place": "support", "lay": "support", "lower": "support", "insert": "container", "drop": "container"}


@cache
def _fallbacks() -> dict[str, list[tuple[str, str]]]:
    """verb -> [(predicate, fallback verb)] in the library's order."""
    library = skills()
    ids = {s.id: s.verb for s in library.values()}
    out: dict[str, list[tuple[str, str]]] = {}
    for u, v, data in relations(list(library.values())).edges(data=True):
        if data["kind"] == "fallback":
            out.setdefault(ids[u], []).append((data["on"], ids[v]))
    return {k: sorted(v, key=lambda p: library[p[1]].id) for k, v in out.items()}


def _measure(grounded, key: str, world: World, state, initial) -> Verdict:
    """The contract's ``pre`` or ``post`` judged; a condition the evaluator cannot judge here (a part
    the state lacks, ...) is a failed verdict whose item says why."""
    try:
        return judge_grounded(grounded, key, world, state, initial)
    except GoalError as err:
        item = ItemResult(item=key, ok=False, reason=str(err))
        return Verdict(
            success=False,
            progress=0.0,
            conditions=[ConditionResult(index=0, path=key, predicate="error", ok=False, progress=0.0, items=[item])],
        )


def _failing(verdict: Verdict) -> list[str]:
    return sorted({c.predicate for c in verdict.conditions if not c.ok})


def _subjects(grounded, predicate: str) -> dict[str, Any]:
    """What the failing ``predicate`` was about (a ``base_near``'s target), offered first to a fallback."""
    conds = [c for c in grounded.pre + grounded.post if c.predicate == predicate and hasattr(c, "target")]
    return {"_target": conds[0].target} if conds else {}


def bound_for(steps: list[tuple[str, dict[str, Any]]]) -> dict[str, str]:
    """object -> where the first of ``steps`` (verb, arguments) that sets it down puts it (a pick reads it
    to choose its grasp: a level one for a place under a low ceiling)."""
    out: dict[str, str] = {}
    for verb, args in steps:
        if verb in SETS_DOWN and isinstance(args.get("object"), str):
            out.setdefault(args["object"], args[SETS_DOWN[verb]])
    return out


def _fill(skill: SkillNode, args: dict[str, Any], types: dict[str, str]) -> dict[str, Any] | None:
    """``skill``'s required arguments filled from another call's: a place from the failing condition's
    subject (``_target``) or any argument that can stand for one, anything else from the same name or
    type; each value used once. None when one cannot be filled."""
    out: dict[str, Any] = {}
    for a in skill.inputs:
        if a.default is not None:
            continue
        names = [n for n in args if n == a.name and types.get(n) == a.type] + [
            n for n in args if types.get(n) == a.type
        ]
        if a.type == "place":
            names = ["_target", *(n for n in args if "place" in COMPATIBLE.get(types.get(n, ""), ()))]
        found = next((args[n] for n in names if n in args and args[n] not in out.values()), None)
        if found is None:
            return None
        out[a.name] = found
    return out


class SubgraphRun:
    def __init__(
        self, sub: Subgraph, world: World, ctx: SkillContext, attempts: int = 2, judge: Judge | None = None
    ) -> None:
        self.order = ground_subgraph(sub, world, sub.scene or "subgraph")
        self.world, self.ctx, self.attempts, self.judge = world, ctx, attempts, judge
        self.blocks = {b.id: b for b in sub.blocks or []}
        self.skill: RunSkill = lambda skill, obs: tried(skill, ctx, obs, events=True)  # a judged node's skills
        self.judged: Blocks | None = None
        self.outputs: dict[str, dict[str, Any]] = {}
        self.results: list[dict[str, Any]] = []  # one row per top-level node: node, verb, ok
        self.held: Observation | None = None  # where a ``post_anytime`` contract's postconditions held

    def run(self, obs: Observation) -> Generator[Action, Observation, Observation]:
        steps = [(node.verb, node.args) for node, _ in self.order]
        i = 0
        while i < len(self.order):
            node, skill = self.order[i]
            if node.rules is not None:  # judged by its planner: a retry block
                nodes = block_at([n for n, _ in self.order], i)
                block = self.blocks.get(node.rules.block or "")
                self.judged = self.judged or Blocks(self.judge, self.skill, self.ctx)
                ok, obs = yield from self.judged.run(nodes, block, obs)
                self.results += [{"node": n.id, "verb": n.verb, "ok": ok} for n in nodes]
                i += len(nodes)
                continue
            i += 1
            args = {k: self._value(v) for k, v in node.args.items()}
            self.world.bound_for = bound_for(steps[i - 1 :])
            self.world.next_call = self._resolved(steps[i]) if i < len(steps) else None
            ok, obs = yield from self.call(node.id, skill, args, obs, self.attempts)
            self.results.append({"node": node.id, "verb": node.verb, "ok": ok})
            if not ok:
                self.ctx.log("subgraph_end", ok=False, node=node.id)
                return obs
        self.ctx.log("subgraph_end", ok=True, node="")
        return obs

    def _value(self, value: Any) -> Any:
        m = REF.match(value) if isinstance(value, str) else None
        return self.outputs[m[1]][m[2]] if m else value

    def _resolved(self, step: tuple[str, dict[str, Any]]) -> tuple[str, dict[str, Any]]:
        """A (verb, arguments) step, a reference to an output not made yet left as written."""
        verb, args = step
        made = {k: v for k, v in args.items() if not ((m := REF.match(str(v))) and m[1] not in self.outputs)}
        return verb, {**args, **{k: self._value(v) for k, v in made.items()}}

    def call(self, where: str, skill: SkillNode, args: dict[str, Any], obs: Observation, attempts: int) -> Run:
        """One node (or a nested call) with its retries and fallbacks: ``(ok, last observation)``."""
        log = self.ctx.log
        types = {a.name: a.type for a in skill.inputs}
        for attempt in range(1, attempts + 1):
            self.world.state = obs.state
            try:
                grounded = ground(skill, args, self.world)
            except (ContractError, GoalError) as err:
                log("node_failed", node=where, verb=skill.verb, attempt=attempt, stage="ground", failed=[str(err)])
                return False, obs
            pre = _measure(grounded, "pre", self.world, obs.state, self.ctx.initial)
            log(
                "node_pre",
                node=where,
                verb=skill.verb,
                args=args,
                attempt=attempt,
                ok=pre.success,
                failed=failed_items(pre),
            )
            if pre.success:
                path, passed = choose_path(skill, grounded.args, self.world)
                log("node_path", node=where, verb=skill.verb, path=path.name if path else "", passed=passed)
                start = obs.state
                self.held = None
                error, obs = yield from self._execute(where, skill, grounded, path, obs)
                self.world.state = obs.state
                post = _measure(grounded, "post", self.world, (self.held or obs).state, start)
                ok = post.success and error not in NOT_RUN  # a call that never ran does not pass
                log("node_post", node=where, verb=skill.verb, ok=ok, failed=failed_items(post), error=error)
                if ok:
                    self.outputs[where] = self._outputs(skill, grounded.args, obs)
                    return True, obs
                stage, failing = "post", _failing(post) or ["run"]
            else:
                stage, failing = "pre", _failing(pre)
            options = [(on, verb) for on, verb in _fallbacks().get(skill.verb, []) if on in failing]
            log("node_failed", node=where, verb=skill.verb, attempt=attempt, stage=stage, failed=failing,
                fallbacks=[f"{verb} ({on})" for on, verb in options])  # fmt: skip
            if attempt == attempts or stage == "post":  # a call that ran is tried again as it is
                continue
            for on, verb in options:
                fallback = skills()[verb]
                filled = _fill(fallback, {**args, **_subjects(grounded, on)}, types)
                if filled is None or not (fallback.calls or executor(verb)):
                    continue
                log("fallback", node=where, verb=verb, args=filled, on=on)
                tries = 1 if "/" in where else 2  # a fallback's own unmet precondition gets one fallback
                _, obs = yield from self.call(f"{where}/{verb}", fallback, filled, obs, tries)
                break
        return False, obs

    def _execute(self, where: str, skill: SkillNode, grounded, path, obs: Observation):
        """Run the chosen path: ``(error or "", last observation)``."""
        if skill.calls:
            steps, outer, after = calls(grounded, self.world), self.world.bound_for, self.world.next_call
            for k, (verb, args) in enumerate(steps, 1):
                self.world.bound_for = {**outer, **bound_for(steps[k - 1 :])}
                self.world.next_call = steps[k] if k < len(steps) else after
                ok, obs = yield from self.call(f"{where}.{k}", skills()[verb], args, obs, self.attempts)
                self.world.bound_for, self.world.next_call = outer, after
                if not ok:
                    return f"call {where}.{k} ({verb}) failed", obs
            self.held = None  # a called skill's moment is not the nested contract's
            return "", obs
        if path is None:
            return NOT_RUN[0], obs
        factory = executor(skill.verb)
        if factory is None:
            return NOT_RUN[1], obs
        try:
            made = factory(grounded.args, self.world, self.ctx, obs, path.name)
            watch = self._watch(grounded, obs) if skill.post_anytime else None
            obs = yield from drive(made, self.ctx, obs, checked=False, watch=watch)
            self.held = watch.held if watch is not None else None  # the moment they held (a spring button)
        except SkillFailure as failure:
            return str(failure), getattr(failure, "obs", obs)
        return "", obs

    def _watch(self, grounded, start: Observation):
        """A per-step judge of the postconditions that keeps the first observation where they held."""
        world = self.world

        def watch(obs: Observation) -> None:
            if watch.held is None and _measure(grounded, "post", world, obs.state, start.state).success:
                watch.held = obs

        watch.held = None
        return watch

    def _outputs(self, skill: SkillNode, args: dict[str, Any], obs: Observation) -> dict[str, Any]:
        names = {o.name for o in skill.outputs}
        out: dict[str, Any] = {}
        if "held" in names:
            out["held"] = args["object"]
        if "waited" in names:
            out["waited"] = args["seconds"]
        if names & {"found", "count"}:
            seen = [n for n in self.world.instances(args["role"]) if n in obs.objects]
            out.update(found=seen[0] if seen else "", count=len(seen))
        return out
