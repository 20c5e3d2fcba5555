"""The runtime: a skill subgraph run node by node inside one episode, held to its contracts.

``SubgraphRun(sub, world, ctx).run(obs)`` is a generator of actions (``obs = yield action``), so a
policy drives it one control step at a time. For each node, in the subgraph's run order:

1. ground the contract on the current state; measure the preconditions (event ``node_pre``);
2. choose the policy path by the noun (``node_path``, with why earlier paths were passed over);
3. run it: a nested contract runs the skills it calls (each one a node of its own, ``<id>.<k>``), a
   leaf its executor (:mod:`housebench.skill_library.executors`) under a time budget;
4. measure the postconditions against the state the call started from (``node_post``).

When a pre- or postcondition is measured false (or the executor fails), ``node_failed`` lists the
failing predicates and the fallback candidates from the relations graph; the first candidate whose
arguments can be filled from the node's own (an executable one) is taken (``fallback``), then the node
is tried again, up to ``attempts`` times. A node that still fails ends the run (``subgraph_end``).
"""

from __future__ import annotations

from collections.abc import Generator
from functools import cache
from typing import Any

from housebench.skill_library.contracts import World, calls, choose_path, ground, judge_grounded
from housebench.skill_library.executors import EXECUTORS
from housebench.skill_library.library import skills
from housebench.skill_library.model import SkillNode
from housebench.skill_library.relations import COMPATIBLE, relations
from housebench.skill_library.subgraph import REF, Subgraph
from housebench.skill_library.subgraph import ground as ground_subgraph
from housebench.skills.base import Reason, Skill, SkillContext, SkillFailure, failed_items
from housebench.state import Action, Observation
from housebench.tasks.verdict import Verdict

Run = Generator[Action, Observation, tuple[bool, Observation]]


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


def _failing(verdict: Verdict) -> list[str]:
    return sorted({c.predicate for c in verdict.conditions if not c.ok})


def _fill(skill: SkillNode, args: dict[str, Any], types: dict[str, str]) -> dict[str, Any] | None:
    """``skill``'s required arguments filled from another call's (same name, same type, or a type that
    can stand for it), or None when one cannot be."""
    out = {}
    for a in skill.inputs:
        if a.default is not None:
            continue
        found = args.get(a.name) if types.get(a.name) == a.type else None
        found = found or next((args[n] for n, t in types.items() if t == a.type), None)
        found = found or next((args[n] for n, t in types.items() if a.type in COMPATIBLE.get(t, ())), None)
        if found is None:
            return None
        out[a.name] = found
    return out


class SubgraphRun:
    def __init__(self, sub: Subgraph, world: World, ctx: SkillContext, attempts: int = 2) -> None:
        self.order = ground_subgraph(sub, world, sub.scene or "subgraph")
        self.world, self.ctx, self.attempts = world, ctx, attempts
        self.outputs: dict[str, dict[str, Any]] = {}
        self.results: list[dict[str, Any]] = []  # one row per top-level node: node, verb, ok

    def run(self, obs: Observation) -> Generator[Action, Observation, Observation]:
        for node, skill in self.order:
            args = {k: self._value(v) for k, v in node.args.items()}
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

    def call(self, where: str, skill: SkillNode, args: dict[str, Any], obs: Observation, attempts: int) -> Run:
        """One node (or a nested call) with its retries and fallbacks: ``(ok, last observation)``."""
        log = self.ctx.log
        types = {a.name: a.type for a in skill.inputs}
        for attempt in range(1, attempts + 1):
            self.world.state = obs.state
            grounded = ground(skill, args, self.world)
            pre = judge_grounded(grounded, "pre", self.world, obs.state, self.ctx.initial)
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
                error, obs = yield from self._execute(where, skill, grounded, path, obs)
                self.world.state = obs.state
                post = judge_grounded(grounded, "post", self.world, obs.state, start)
                log("node_post", node=where, verb=skill.verb, ok=post.success, failed=failed_items(post), error=error)
                if post.success:
                    self.outputs[where] = self._outputs(skill, grounded.args, obs)
                    return True, obs
                stage, failing = "post", _failing(post) or ["run"]
            else:
                stage, failing = "pre", _failing(pre)
            options = [(on, verb) for on, verb in _fallbacks().get(skill.verb, []) if on in failing]
            log("node_failed", node=where, verb=skill.verb, attempt=attempt, stage=stage, failed=failing,
                fallbacks=[f"{verb} ({on})" for on, verb in options])  # fmt: skip
            if attempt == attempts:
                break
            for on, verb in options:
                fallback = skills()[verb]
                filled = _fill(fallback, args, types)
                if filled is None or not (fallback.calls or verb in EXECUTORS):
                    continue
                log("fallback", node=where, verb=verb, args=filled, on=on)
                _, obs = yield from self.call(f"{where}/{verb}", fallback, filled, obs, 1)
                break
        return False, obs

    def _execute(self, where: str, skill: SkillNode, grounded, path, obs: Observation):
        """Run the chosen path: ``(error or "", last observation)``."""
        if skill.calls:
            for k, (verb, args) in enumerate(calls(grounded, self.world), 1):
                ok, obs = yield from self.call(f"{where}.{k}", skills()[verb], args, obs, self.attempts)
                if not ok:
                    return f"call {where}.{k} ({verb}) failed", obs
            return "", obs
        if path is None:
            return "no path fits the noun", obs
        factory = EXECUTORS.get(skill.verb)
        if factory is None:
            return f"{Reason.UNSUPPORTED.value}: no executor for {skill.verb}", obs
        try:
            executor = factory(grounded.args, self.world, self.ctx, obs)
            obs = yield from _timed(executor, self.ctx, obs)
        except SkillFailure as failure:
            return str(failure), getattr(failure, "obs", obs)
        return "", obs

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


def _timed(skill: Skill, ctx: SkillContext, obs: Observation) -> Generator[Action, Observation, Observation]:
    """``skill``'s body under its time budget (``timeout``), the last observation kept on failure."""
    started, gen = obs.time, skill.body(ctx, obs)
    try:
        action = next(gen)
        while True:
            obs = yield action
            if obs.time - started > skill.timeout_s:
                gen.close()
                raise skill.fail(Reason.TIMEOUT, elapsed_s=round(obs.time - started, 3))
            action = gen.send(obs)
    except StopIteration as stop:
        return stop.value if stop.value is not None else obs
    except SkillFailure as failure:
        failure.obs = obs
        raise
