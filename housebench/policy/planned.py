"""``planned``: the symbolic planner's subgraph for the task, run by the skill library's runtime.

At reset the planner decomposes the resolved goal into a skill subgraph (event ``plan``); every
control step drives :class:`~housebench.skill_library.runtime.SubgraphRun`, whose events (node
preconditions, path, postconditions, failures and fallbacks) land in the ``events`` table; the episode
is scored by the task's own evaluator as for any policy. When the run ends the policy says stop.
"""

from __future__ import annotations

from pydantic import Field

from housebench.policy.base import PolicyContext, PolicyParams, require_state
from housebench.skill_library.planner import MAX_EXPANSIONS, PlanError, Problem, finish, world_of
from housebench.skill_library.runtime import SubgraphRun
from housebench.skill_library.subgraph import MAX_ATTEMPTS
from housebench.skills.base import SkillContext
from housebench.skills.drive import Stepper
from housebench.state import Action, Observation


class PlannedPolicy:
    name = "planned"
    tracks = ("state",)  # plans on ground truth

    class Params(PolicyParams):
        attempts: int = Field(3, ge=1, le=MAX_ATTEMPTS)  # tries per node (a re-pick after a drop)
        max_expansions: int = Field(20000, gt=0, le=MAX_EXPANSIONS)  # the planner's search budget
        look: bool = True  # the head aimed at what each skill works on (housebench/skills/look.py); false: fixed

    def __init__(self, params: Params | None = None) -> None:
        self.params = params or self.Params()

    def reset(self, ctx: PolicyContext, obs: Observation) -> None:
        task, scene = require_state(ctx, self.name)
        world = world_of(task, scene)
        world.state = obs.state
        self.stepper: Stepper | None = None
        try:
            problem = Problem(task, world)
            sub = finish(problem, problem.solve(self.params.max_expansions))
        except PlanError as err:
            ctx.log("plan", ok=False, reason=str(err), nodes=[])
            return
        ctx.log("plan", ok=True, reason="", nodes=[f"{n.id} {n.verb} {n.args}" for n in sub.nodes])
        skill_ctx = SkillContext(
            task=task, scene=scene, control_dt=ctx.control_dt, log=ctx.log, initial=obs.state, look=self.params.look
        )
        self.run = SubgraphRun(sub, world, skill_ctx, self.params.attempts)
        self.stepper = Stepper(self.run.run(obs))

    def act(self, obs: Observation) -> Action | None:
        return (self.stepper and self.stepper.step(obs)) or Action(stop=True)
