"""present: the held item raised into the carry pose and the head camera turned onto it (shown to the camera).

The skill library's verb ``present`` (its entry in ``skill_library/skills.yaml``): what a vision model asks for
to look at what the robot holds. The arm goes to the carry pose where the robot stands (:class:`Carry`), then the
head is aimed at the item's centre (:meth:`HeadCamera.aim`) and waited on as ``reset`` waits on it.
"""

from __future__ import annotations

from typing import Any

from housebench.robot.head import HeadCamera
from housebench.skills.base import ObjectSkill, Skill, SkillContext, SkillGen
from housebench.skills.carry import Carry
from housebench.skills.motion import settle_arm
from housebench.skills.tuning import tuning
from housebench.state import Observation
from housebench.tasks import geometry
from housebench.tasks import goal as g


class Present(ObjectSkill):
    name = verb = "present"

    @classmethod
    def for_call(cls, args: dict[str, Any]) -> Skill:
        return cls(args["object"])

    def look_at(self) -> str | None:
        return None  # the skill aims the head itself, at the held item

    def preconditions(self, ctx: SkillContext) -> list[g.Condition]:
        return [g.Holding(predicate="holding", items=[self.obj])]

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        obs = yield from Carry().body(ctx, obs)
        point = geometry.centre(obs.objects[self.obj], ctx.scene.objects[self.obj].asset)
        head = ctx.tool("head_camera", HeadCamera).aim(obs.joints, point)
        tune = tuning().body
        return (yield from settle_arm(self.name, obs, head, ctx, tol=tune.head_tol, max_s=tune.head_max_s))
