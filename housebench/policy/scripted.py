"""``scripted``: a goal-driven baseline on ground-truth annotations, built from skills.

The brain is the skill library's script (:mod:`housebench.skill_library.script`): a planner that writes the
appliance flow's steps and the goal's moves as subgraphs the one runtime runs (as the planned policy's), each way
chosen from the choice table, each skill driven by the one driver. This policy only steps it, one control step per
``act``; when the script ends it says stop.
"""

from __future__ import annotations

from pydantic import Field

from housebench.policy.base import PolicyContext, PolicyParams, require_state
from housebench.skill_library.script import Script
from housebench.skill_library.subgraph import MAX_ATTEMPTS
from housebench.skills.base import SkillContext
from housebench.skills.drive import Stepper
from housebench.state import Action, Observation


class ScriptedPolicy:
    name = "scripted"
    tracks = ("state",)  # a script on ground truth

    class Params(PolicyParams):
        attempts: int = Field(default=3, ge=1, le=MAX_ATTEMPTS)  # pick-and-place tries per move
        look: bool = True  # the head aimed at what each skill works on (housebench/skills/look.py); false: fixed

    def __init__(self, params: Params) -> None:
        self.params = params

    def reset(self, ctx: PolicyContext, obs: Observation) -> None:
        task, scene = require_state(ctx, self.name)
        skill_ctx = SkillContext(
            task=task, scene=scene, control_dt=ctx.control_dt, log=ctx.log, initial=obs.state, look=self.params.look
        )
        self.stepper = Stepper(Script(skill_ctx, self.params.attempts).run(obs))

    def act(self, obs: Observation) -> Action | None:
        return self.stepper.step(obs) or Action(stop=True)
