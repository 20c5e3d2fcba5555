"""A symbolic planner over the evaluator's predicates: a task variant's goal -> a skill subgraph.

The operators are the library's own contracts (:data:`OPERATORS`), grounded over the task's objects, the supports
its goal and its objects name, the appliances it uses and the doors that enclose them, with a staging surface beside
each appliance with a door (to free the hand for a door). A contract's preconditions (plus the access rule, read on
the symbolic state) gate it and its postconditions are its effects (:mod:`housebench.skill_library.symbolic`).
Weighted A* (f = g + w h, ``plan.weight``; h counts the goal's unmet items, weighted by the
skills each needs) finds a chain of calls; the goal test is the task's own goal tree, slots and bindings expanded by
the evaluator's ``Context``.
"""

from __future__ import annotations

import heapq
import itertools
import math
from dataclasses import dataclass
from typing import Any

from housebench.annotations.schema import Support
from housebench.skill_library import symbolic
from housebench.skill_library.contracts import Grounded, World, enclosure_doors, ground
from housebench.skill_library.library import skills
from housebench.skill_library.staging import staging_surface
from housebench.skill_library.subgraph import PlanNode, Subgraph, chain
from housebench.skills.tuning import tuning
from housebench.tasks import goal as g
from housebench.tasks import refs
from housebench.tasks.context import Context
from housebench.tasks.spec import TaskVariant
from housebench.tasks.thermal import ThermalSetup, time_to_chill, time_to_heat

OPERATORS = ("navigate", "pick", "place", "insert", "stack", "lay", "lift", "open", "close", "heat", "chill")

MAX_EXPANSIONS = 200_000  # the upper bound of every A* budget in params (10x the default; minutes, not hours)


class PlanError(ValueError):
    """No plan within the search budget (the message names the task and what stayed unmet)."""


@dataclass(frozen=True)
class Operator:
    verb: str
    args: tuple[tuple[str, Any], ...]
    contract: Grounded
    access: tuple[str, ...]  # objects / supports whose enclosure doors must be open

    def node(self, i: int) -> PlanNode:
        return PlanNode(id=f"n{i:02d}", verb=self.verb, args=dict(self.args))


def _preference(support: Support) -> tuple:
    """Open tops first, then levels under a ceiling nearest ``skills.appliance.reach_z_m`` (the search takes the first
    that fits)."""
    covered = support.clearance is not None
    return covered, abs(support.height - tuning().appliance.reach_z_m) if covered else 0.0, support.name


def _goal_leaves(node: g.Node) -> list[g.Condition]:
    return [c for _, c in g.leaves(node)]


class Problem:
    """One variant's planning problem: operators, initial state, goal test and heuristic."""

    def __init__(self, variant: TaskVariant, world: World):
        self.variant, self.world = variant, world
        self.sym = symbolic.Symbols(world.scene, dict(variant.goal.places))
        self.ctx = Context(variant.goal, world.state, world.scene, world.state)
        self.thermal = variant.thermal or ThermalSetup()
        self.objects = sorted(variant.goal.roles)
        self.initial = self._initial()
        self.operators = self._operators()

    # ---- the world, symbolically -------------------------------------------------------------
    def _initial(self) -> symbolic.State:
        facts = {("pose", "tuck"), ("pose", "home")}
        containers = [n for n in self.objects if self.world.scene.objects[n].asset.container]
        for name in self.objects:
            holder = next((c for c in containers if c != name and name in self.world.contents(c)), None)
            support = self.world.support_of(name)
            if holder:
                facts.add(("at", name, "in", holder))
            else:
                facts.add(("at", name, "on", support.name if support else ""))
            if self.ctx.tilt_deg(name) >= g.Lying.model_fields["min_tilt_deg"].default:
                facts.add(("lying", name))
        return frozenset(facts)

    def _start_c(self, name: str) -> float:
        return self.thermal.initial_c.get(name, self.thermal.ambient_c)

    # ---- operators ---------------------------------------------------------------------------
    def _supports(self) -> list[Support]:
        """Where objects may be set down: the goal's supports, where objects start, inside the
        appliances in play, and the staging surface beside each appliance with a door (the scripted flow's own)."""
        found: list[Support] = []
        for cond in _goal_leaves(self.variant.goal.condition):
            if isinstance(cond, g.OnSupport):
                found += sorted(self.ctx.supports(cond.support), key=_preference)
        found += [s for n in self.objects if (s := self.world.support_of(n))]
        for appliance in self._appliances():
            inside = refs.inside_supports(appliance.name, self.world.scene.house)
            found += sorted(inside, key=_preference)[:1]
            if appliance.door and (stage := staging_surface(self.world.scene.house, appliance)):
                found.append(stage)
        return list({s.name: s for s in found}.values())

    def _appliances(self):
        house = self.world.scene.house
        used = set(self.thermal.appliances)
        used |= {o.inside for o in self.variant.objects.values() if o.inside and refs.appliance(o.inside, house)}
        return [a for a in house.appliances if a.name in used]

    def operator(self, verb: str, **args: Any) -> Operator:
        skill = skills()[verb]
        contract = ground(skill, args, self.world, access=False)
        self.sym.places.update(contract.places)
        return Operator(verb, tuple(args.items()), contract, tuple(args[a] for a in skill.access))

    def _operators(self) -> list[Operator]:
        supports = self._supports()
        containers = [n for n in self.objects if self.world.scene.objects[n].asset.container]
        appliances = self._appliances()
        doors = sorted(
            {d for s in supports for d in enclosure_doors(s, self.world)} | {a.door for a in appliances if a.door}
        )
        targets = list(
            dict.fromkeys([*self.objects, *(s.name for s in supports), *(a.name for a in appliances), *doors])
        )
        ops = [self.operator("navigate", target=t) for t in targets]
        leaves = _goal_leaves(self.variant.goal.condition)
        for obj in self.objects:
            ops.append(self.operator("pick", object=obj))
            ops += [self.operator("place", object=obj, support=s.name) for s in supports]
            ops += [self.operator("insert", object=obj, container=c) for c in containers if c != obj]
            if any(isinstance(c, g.Stacked) for c in leaves):
                ops += [self.operator("stack", object=obj, base=b) for b in self.objects if b != obj]
            if any(isinstance(c, g.Lying) for c in leaves):
                ops += [self.operator("lay", object=obj, support=s.name) for s in supports]
            for cond in leaves:
                if isinstance(cond, g.Lifted):
                    ops.append(self.operator("lift", object=obj, height=cond.height))
                if isinstance(cond, g.Heated):
                    ops += [self._heat(obj, a, cond.min_c) for a in appliances if a.kind == "microwave"]
                if isinstance(cond, g.Chilled):
                    ops += [self._chill(obj, a, cond.max_c) for a in appliances if a.kind == "fridge"]
                    ops = [o for o in ops if o is not None]  # a fridge that never gets it there: no operator
        ops += [self.operator(verb, part=d) for d in doors for verb in ("open", "close")]
        return list({(o.verb, o.args): o for o in ops}.values())

    def _heat(self, obj: str, appliance, min_c: float) -> Operator:
        seconds = math.ceil(time_to_heat(self._start_c(obj), min_c, self.thermal) + tuning().appliance.wait_margin_s)
        return self.operator("heat", object=obj, appliance=appliance.name, min_c=min_c, seconds=float(seconds))

    def _chill(self, obj: str, appliance, max_c: float) -> Operator | None:
        need = time_to_chill(self._start_c(obj), max_c, self.thermal)
        if math.isinf(need):
            return None
        seconds = math.ceil(need + tuning().appliance.wait_margin_s)
        return self.operator("chill", object=obj, appliance=appliance.name, max_c=max_c, seconds=float(seconds))

    # ---- search ------------------------------------------------------------------------------
    def _items(self, cond: g.Condition) -> list[str | None]:
        if isinstance(cond, (g.Closed, g.Open, g.Pressed)):
            return list(dict.fromkeys(p.name for ref in cond.parts for p in self.ctx.parts(ref)))
        if isinstance(cond, (g.HandEmpty, g.BaseNear, g.ArmPose, g.NotDropped)):
            return [None]
        return list(cond.items)

    def applicable(self, op: Operator, state: symbolic.State) -> bool:
        for cond in op.contract.pre:
            if not all(symbolic.holds(cond, i, state, self.sym) for i in self._items(cond)):
                return False
        for name in op.access:
            support = self._support_now(name, state)
            if any(("open", d) not in state for d in enclosure_doors(support, self.world)):
                return False
        return True

    def _support_now(self, name: str, state: symbolic.State) -> Support | None:
        if name in self.world.scene.objects:
            how, where = self.sym.where(state, name)
            return self.sym.supports.get(where) if how == "on" else None
        found = self.sym.resolve(name)
        return found[0] if found else None

    def apply(self, op: Operator, state: symbolic.State) -> symbolic.State:
        for cond in op.contract.post:
            state = symbolic.make(cond, state, self.sym)
        return state

    def unmet(self, state: symbolic.State) -> int:
        """The goal's unmet items, weighted (0: the goal holds)."""
        self.ctx.bindings = {}
        return self._unmet(self.variant.goal.condition, state)

    def _unmet(self, node: g.Node, state: symbolic.State) -> int:
        if isinstance(node, g.AllOf):
            return sum(self._unmet(c, state) for c in node.all_of)
        if isinstance(node, g.AnyOf):
            return min(self._unmet(c, state) for c in node.any_of)
        cost = tuning().planner.cost(node.predicate)
        if isinstance(node, g.Inside):
            return self._inside(node, state, cost)
        if isinstance(node, g.Stacked):
            return self._stacked(node, state, cost)
        total = 0
        slots = [[i] for i in self._items(node)] if node.slots() == [] else None
        for candidates in slots or [c for slot in node.items for c in self.ctx.items(slot)]:
            if not any(symbolic.holds(node, c, state, self.sym) for c in candidates):
                held = any(self.sym.where(state, c)[0] == "held" for c in candidates if c)
                total += cost - 2 if held and cost > 2 else cost
        return total

    def _inside(self, node: g.Inside, state: symbolic.State, cost: int) -> int:
        best = None
        for container in self.ctx.items(node.container)[0]:
            cond = node.model_copy(update={"container": container})
            missing = sum(
                cost
                for slot in node.items
                for cands in self.ctx.items(slot)
                if not any(symbolic.holds(cond, c, state, self.sym) for c in cands)
            )
            if best is None or missing < best[0]:
                best = (missing, container)
        if node.bind:
            self.ctx.bindings[node.bind] = best[1]
        return best[0]

    def _stacked(self, node: g.Stacked, state: symbolic.State, cost: int) -> int:
        base = self.ctx.items(node.base)[0][0]
        cond = node.model_copy(update={"base": base})
        return sum(
            cost
            for slot in node.items
            for cands in self.ctx.items(slot)
            if not any(symbolic.holds(cond, c, state, self.sym) for c in cands)
        )

    def solve(self, max_expansions: int = 20000, weight: float = 2.0) -> list[Operator]:
        start = self.initial
        tie = itertools.count()
        frontier = [(weight * self.unmet(start), next(tie), 0, start, ())]
        seen = {start: 0}
        expanded = 0
        while frontier and expanded < max_expansions:
            _, _, cost, state, plan = heapq.heappop(frontier)
            if self.unmet(state) == 0:
                return list(plan)
            expanded += 1
            for op in self.operators:
                if not self.applicable(op, state):
                    continue
                nxt = self.apply(op, state)
                if nxt == state or seen.get(nxt, math.inf) <= cost + 1:
                    continue
                seen[nxt] = cost + 1
                heapq.heappush(frontier, (cost + 1 + weight * self.unmet(nxt), next(tie), cost + 1, nxt, (*plan, op)))
        raise PlanError(
            f"{self.variant.task}/{self.variant.variant}: no plan after {expanded} expansions "
            f"(best left {min((self.unmet(s) for s in seen), default='?')} unmet)"
        )


def finish(problem: Problem, ops: list[Operator]) -> Subgraph:
    """A solved chain of operators as a subgraph (nodes ``n01``, ``n02``, ...)."""
    scene = problem.world.scene.scene
    return chain([op.node(i + 1) for i, op in enumerate(ops)], task=problem.variant.task, scene=scene)


def plan(variant: TaskVariant, world: World) -> Subgraph:
    """The variant's goal decomposed into a chain of skill calls (a :class:`PlanError` when none is found)."""
    problem = Problem(variant, world)
    return finish(problem, problem.solve())


def world_of(variant: TaskVariant, scene) -> World:
    """The world a variant's plan is grounded in: its roles and place aliases, the annotated poses."""
    return World(scene, dict(variant.goal.roles), dict(variant.goal.places))
