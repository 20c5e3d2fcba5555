"""navigate: drive the base to a pose along an A* path over the free floor (arm held as it is)."""

from __future__ import annotations

import math

from housebench.house.query import HouseQuery
from housebench.planning.base_path import BasePlanner, NoPath
from housebench.skills.base import Reason, Skill, SkillContext, SkillGen
from housebench.skills.motion import drive
from housebench.state import Observation


def planner(ctx: SkillContext) -> BasePlanner:
    return ctx.tool("base_planner", lambda: BasePlanner(HouseQuery(ctx.scene.house).grid))


class Navigate(Skill):
    name = "navigate"
    timeout_s = 90.0

    def __init__(self, pose: tuple[float, float, float], why: str = "") -> None:
        self.pose, self.why = pose, why

    def target(self) -> str:
        return self.why or f"({self.pose[0]:.2f}, {self.pose[1]:.2f})"

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        start = obs.base[:2]
        if math.dist(start, self.pose[:2]) < 0.02:
            path = [start, self.pose[:2]]
        else:
            try:
                path = planner(ctx).path(start, self.pose[:2])
            except NoPath as err:
                raise self.fail(Reason.NO_PATH, error=str(err)) from None
        ctx.log("base_path", waypoints=len(path), length=round(sum(math.dist(a, b) for a, b in zip(path, path[1:])), 3))
        return (yield from drive(self.name, obs, path, self.pose[2], ctx))
