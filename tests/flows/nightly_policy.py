"""A policy for the nightly flow's test, loaded by import path (``class: tests.flows.nightly_policy:Skipping``): the
scripted policy, with a param that plants a regression the way a changed policy would. On a task it names in
``skip`` it stops at once, so that task's success drops to nothing while every other task runs as scripted."""

from __future__ import annotations

from pydantic import Field

from housebench.policy.base import PolicyContext
from housebench.policy.scripted import ScriptedPolicy
from housebench.state import Action, Observation


class Skipping(ScriptedPolicy):
    name = "skipping"

    class Params(ScriptedPolicy.Params):
        skip: list[str] = Field(default_factory=list)  # tasks it gives up on at once

    def reset(self, ctx: PolicyContext, obs: Observation) -> None:
        self.skipping = ctx.task is not None and ctx.task.task in self.params.skip
        if not self.skipping:
            super().reset(ctx, obs)

    def act(self, obs: Observation) -> Action | None:
        return Action(stop=True) if self.skipping else super().act(obs)
