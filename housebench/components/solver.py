"""``skill``: the scripted solver of a component task, the skill library's runtime running its one node.

As the ``verify`` stage runs a verification scenario's verb, the policy reads the component's node from the
task (``choices``: ``component.verb``, ``component.args``), grounds it in the scene at reset and drives
:class:`~housebench.skill_library.runtime.SubgraphRun` one control step at a time, its contract measured
(``node_pre``, ``node_path``, ``node_post`` events). On a task that is no component it stops at once.
Use it as ``policies.skill: {class: "housebench.components.solver:SkillPolicy"}``.
"""

from __future__ import annotations

import json

from pydantic import Field

from housebench.policy.base import PolicyContext, PolicyParams, require_state
from housebench.policy.planned import PlannedPolicy
from housebench.skill_library.contracts import World
from housebench.skill_library.runtime import SubgraphRun
from housebench.skill_library.subgraph import MAX_ATTEMPTS, PlanNode, chain
from housebench.skills.base import SkillContext
from housebench.skills.drive import Stepper
from housebench.state import Observation


class SkillPolicy(PlannedPolicy):
    """The planned policy's runtime driver over one node instead of the planner's subgraph."""

    name = "skill"
    tracks = ("state",)  # grounds the node on the scene's annotations

    class Params(PolicyParams):
        attempts: int = Field(1, ge=1, le=MAX_ATTEMPTS)  # tries of the node (a fallback between tries), as verify's

    def __init__(self, params: Params | None = None) -> None:
        super().__init__(params or self.Params())
        self.stepper, self.run = None, None

    def reset(self, ctx: PolicyContext, obs: Observation) -> None:
        task, scene = require_state(ctx, self.name)
        self.stepper = None
        verb = task.choices.get("component.verb")
        if verb is None:
            ctx.log("plan", ok=False, reason=f"{task.task} is no component task", nodes=[])
            return
        args = json.loads(task.choices["component.args"])
        world = World(scene, dict(task.goal.roles), {k: list(v) for k, v in task.goal.places.items()}, obs.state)
        node = PlanNode(id="v", verb=verb, args=args)
        ctx.log("plan", ok=True, reason="", nodes=[f"v {verb} {args}"])
        skill_ctx = SkillContext(task=task, scene=scene, control_dt=ctx.control_dt, log=ctx.log, initial=obs.state)
        self.run = SubgraphRun(
            chain([node], scene=f"{task.task}/{task.variant}"), world, skill_ctx, self.params.attempts
        )
        self.stepper = Stepper(self.run.run(obs))
