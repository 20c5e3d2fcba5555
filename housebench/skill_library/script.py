"""The scripted brain: a planner that writes a goal's moves as a subgraph, run by the one runtime, on ground-truth
annotations.

What goes into or out of a fridge or microwave (heat, chill, a fridge shelf) runs first, through the appliance
flow (:mod:`housebench.skill_library.appliance_flow`); then the moves of :mod:`housebench.skill_library.moves`,
planned from where the flow left things, become a subgraph (:meth:`Script.subgraph`) that
:class:`~housebench.skill_library.runtime.SubgraphRun` runs, this planner judging its nodes
(:mod:`housebench.skill_library.blocks`). Per move ``m<k>``:

- ``m<k>_up``: a toppled object (knocked over on the way) is stood up first (once, its failure no end);
- block ``m<k>``, ``attempts`` tries: the hand lets go of what it caught (``touching``, not holding the object), the
  pick (unless held; a miss is a re-pick: the block again), the set-down (``insert``, ``stack``, ``lay`` or
  ``place``), done when it succeeded or the move's goal conditions hold; a place that found its surface out of reach
  or full tries the next surface (:func:`~housebench.skill_library.moves.choose_surface` leaves it out);

then ``let_go`` (an open hand) and, for each item of an ``upright`` goal measured toppled after the moves, block
``u<k>``: stand it up, ``attempts`` tries. Each way is chosen from the choice table when the node runs (a place's
surface: the one it reaches and has not failed on, nearest the item it goes near, where that was set down).
"""

from __future__ import annotations

from collections.abc import Generator

from housebench.annotations.schema import Support
from housebench.skill_library.appliance_flow import ApplianceFlow
from housebench.skill_library.blocks import RunSkill
from housebench.skill_library.choose import Noun, choose
from housebench.skill_library.moves import Move, choose_surface, clear_the_way, plan_moves, shape_moves, toppled
from housebench.skill_library.planner import world_of
from housebench.skill_library.runtime import SubgraphRun
from housebench.skill_library.subgraph import Block, PlanNode, Rules, Subgraph, chain
from housebench.skills.base import Reason, Skill, SkillContext, SkillFailure
from housebench.skills.drive import tried
from housebench.skills.hand import Stack
from housebench.skills.lay import Lay, Upright
from housebench.skills.place import Release
from housebench.skills.tuning import tuning
from housebench.state import Action, Observation
from housebench.tasks.geometry import rotation

Run = Generator[Action, Observation, Observation]
SETS_DOWN = ("insert", "stack", "lay", "place")


class Script:
    """The planner (``subgraph``) and judge (``way``, ``test``, ``after``) of the scripted brain's moves."""

    def __init__(self, ctx: SkillContext, attempts: int) -> None:
        self.ctx, self.attempts = ctx, attempts
        self.skill: RunSkill = lambda skill, obs: tried(skill, ctx, obs, events=True)
        self.moves: dict[str, Move] = {}  # block id -> its move
        self.placed: dict[str, tuple[float, float]] = {}  # object -> where it was set down
        self.surface: dict[str, Support | None] = {}  # set-down node -> the surface its way went to
        self.at_end: list[str] | None = None  # the toppled items after the moves, measured once

    def run(self, obs: Observation) -> Run:
        flow = ApplianceFlow(self.ctx, obs, self.attempts, self.skill)  # into and out of the fridge and microwave
        obs = yield from flow.run(obs)
        moves = [m for m in shape_moves(self.ctx, obs, plan_moves(self.ctx, obs)) if m.obj not in flow.objects]
        moves = clear_the_way(self.ctx, obs, moves)
        self.ctx.log("plan", moves=[m.describe() for m in moves])
        return (yield from self.run_moves(moves, obs))

    def run_moves(self, moves: list[Move], obs: Observation) -> Run:
        """``moves``' subgraph run by the one runtime, this planner its judge."""
        world = world_of(self.ctx.task, self.ctx.scene)
        world.state = obs.state
        run = SubgraphRun(self.subgraph(moves, obs), world, self.ctx, self.attempts, judge=self)
        run.skill = self.skill
        return (yield from run.run(obs))

    def subgraph(self, moves: list[Move], obs: Observation) -> Subgraph:
        """``moves`` as nodes in blocks, the hand opened after them, the ``upright`` items stood up."""
        ctx = self.ctx
        nodes: list[PlanNode] = []
        blocks: list[Block] = []
        for k, move in enumerate(moves, 1):
            block, o = f"m{k}", move.obj
            self.moves[block] = move
            blocks.append(Block(id=block, attempts=self.attempts))
            up = Rules(when=[f"tilted:{o}", f"not holding:{o}"], must=False)
            nodes += [
                PlanNode(id=f"{block}_up", verb="upright", args={"object": o}, rules=up),
                PlanNode(
                    id=f"{block}_release",
                    verb="release",
                    args={"object": o},
                    rules=Rules(block=block, when=[f"not holding:{o}", "touching"], must=False),
                ),
                PlanNode(
                    id=f"{block}_pick",
                    verb="pick",
                    args={"object": o},
                    rules=Rules(block=block, when=[f"not holding:{o}"], ok_if=f"holding:{o}"),
                ),
            ]
            down = _set_down(move)
            if down is not None:
                rules = Rules(block=block, ok_if=f"done:{block}")
                nodes.append(PlanNode(id=f"{block}_{down[0]}", verb=down[0], args=down[1], rules=rules))
        last = moves[-1].obj if moves else next(iter(ctx.scene.objects))  # the object the hand may still hold
        let_go = Rules(when=["touching"], must=False)
        nodes.append(PlanNode(id="let_go", verb="release", args={"object": last}, rules=let_go))
        for k, obj in enumerate(toppled(ctx, obs, every=True), 1):
            blocks.append(Block(id=f"u{k}", attempts=self.attempts, when=[f"toppled_after:{obj}"]))
            rules = Rules(block=f"u{k}", ok_if=f"not toppled:{obj}")
            nodes.append(PlanNode(id=f"u{k}_upright", verb="upright", args={"object": obj}, rules=rules))
        return chain(nodes, blocks=blocks)

    # ---- the judge: the ways, the tests, what each outcome teaches ----
    def way(self, node: PlanNode, obs: Observation) -> tuple[Skill, ...] | None:
        obj = node.args["object"]
        if node.verb == "upright":
            return (Upright(obj),)
        if node.verb == "release":
            return (Release(),)
        move = self.moves[node.rules.block]
        if node.verb == "pick":
            return choose("pick", Noun(self.ctx, obs, obj, supports=move.supports))[1]
        place = self._place(move, obs)
        self.surface[node.id] = getattr(place, "support", None)  # a stack's target is an object, not a surface
        if place is None:
            self.ctx.log("decision", move=move.describe(), choice="no free spot")
            return None
        return (place,)

    def test(self, name: str, arg: str, node: PlanNode, obs: Observation) -> bool:
        if name == "tilted":  # knocked over on the way: stood up before its move
            return rotation(obs.objects[arg].quat)[2, 2] < tuning().grasp.tilted
        if name == "done":
            return self.ctx.judge(self.moves[arg].check, obs.state).success
        if name == "toppled_after":  # measured once, when the moves are done
            self.at_end = toppled(self.ctx, obs) if self.at_end is None else self.at_end
            return arg in self.at_end
        if name == "toppled":
            return arg in toppled(self.ctx, obs)
        raise ValueError(f"no test '{name}'")

    def after(self, node: PlanNode, failure: SkillFailure | None, ok: bool, obs: Observation) -> None:
        if node.verb not in SETS_DOWN:
            return
        move, surface = self.moves[node.rules.block], self.surface.get(node.id)
        if failure is not None and failure.reason in (Reason.UNREACHABLE, Reason.NO_SPACE) and surface:
            move.failed.add(surface.name)  # another surface next time
        if ok:
            self.placed[move.obj] = obs.objects[move.obj].pos[:2]

    def start(self, block: str, obs: Observation) -> None:
        pass

    def _place(self, move: Move, obs: Observation) -> Skill | None:
        if move.container:
            return choose("insert", Noun(self.ctx, obs, move.obj, container=move.container))[1][0]
        if move.base:
            return Stack(move.obj, move.base)
        near = self.placed.get(move.near) if move.near else None
        support = choose_surface(self.ctx, obs, move, near)
        if support is None:
            return None
        self.ctx.log("decision", move=move.describe(), support=support.name)
        if move.lay:
            return Lay(move.obj, support)
        return choose("place", Noun(self.ctx, obs, move.obj, support=support, near=near))[1][0]


def _set_down(move: Move) -> tuple[str, dict[str, str]] | None:
    """The set-down node's verb and arguments (None: nowhere to set it down, the pick is the move); its way chooses
    among the move's supports when it runs, the argument names them as the goal does (else the first)."""
    if move.container:
        return "insert", {"object": move.obj, "container": move.container}
    if move.base:
        return "stack", {"object": move.obj, "base": move.base}
    where = move.where or (move.supports[0].name if move.supports else None)
    if where is None:
        return None
    return ("lay" if move.lay else "place"), {"object": move.obj, "support": where}
