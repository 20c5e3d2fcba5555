"""The skills the library adds for verbs the skills package has no module for, needing no new manipulation:
``wait`` (hold still), ``look`` / ``inspect`` (the head on an object, the base turned first past the head's
stop), ``search`` / ``count`` (each instance of a role looked at in turn), ``lift`` (the held item straight up),
and :class:`Sequence` (several skills as one call: push to an edge, then pinch there)."""

from __future__ import annotations

import math

from housebench.robot.head import HeadCamera
from housebench.skill_library.contracts import World
from housebench.skills.base import Skill, SkillContext, SkillGen
from housebench.skills.motion import cartesian, hold
from housebench.skills.navigate import Navigate
from housebench.skills.tuning import tuning
from housebench.skills.view import pad_pose, wrap
from housebench.state import Action, Observation
from housebench.tasks import geometry


class Wait(Skill):
    name = "wait"

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.timeout_s = seconds + tuning().runtime.wait_margin_s

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        return (yield from hold(obs, self.seconds, ctx))


class Look(Skill):
    """Pan and tilt the head so the camera axis passes through an object's centre; the base turns to
    face it first when the pan would pass the head's stop (``skills.runtime.pan_max``)."""

    name = "look"

    def __init__(self, world: World, obj: str) -> None:
        self.world, self.obj = world, obj
        self.timeout_s = tuning().runtime.head_wait_s + tuning().runtime.look_drive_s

    def target(self) -> str:
        return self.obj

    def look_at(self) -> str | None:
        return self.obj

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        asset = self.world.scene.objects[self.obj].asset
        centre = geometry.centre(obs.objects[self.obj], asset)
        x, y, yaw = obs.base
        bearing = math.atan2(centre[1] - y, centre[0] - x)
        tune = tuning().runtime
        if abs(wrap(bearing - yaw)) > tune.pan_max:
            obs = yield from Navigate((x, y, bearing), why=self.obj).body(ctx, obs)
        joints = ctx.tool("head_camera", HeadCamera).aim(obs.joints, centre)  # the rule every skill's head follows
        waited = 0.0  # the head moves with a time constant of about 0.7 s
        while waited < tune.head_wait_s and max(abs(obs.joints[j] - q) for j, q in joints.items()) > tune.head_tol:
            obs = yield Action(joints=joints)
            waited += ctx.control_dt
        return obs  # the contract measures where it looks


class Sequence(Skill):
    """Several skills' bodies one after the other, as one call (push to an edge, then pinch there)."""

    def __init__(self, name: str, *parts: Skill) -> None:
        self.name, self.parts = name, parts
        self.timeout_s = sum(p.timeout_s for p in parts)
        self.current: Skill | None = None

    def look_at(self) -> str | None:
        return self.current.look_at() if self.current is not None else None

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        for part in self.parts:
            self.current = part
            obs = yield from part.body(ctx, obs)
        return obs


class Scan(Skill):
    """Look at each instance of a role in turn (nearest first)."""

    name = "scan"

    def __init__(self, world: World, role: str) -> None:
        self.world, self.role = world, role
        tune = tuning().runtime
        self.timeout_s = (tune.head_wait_s + tune.scan_margin_s) * max(1, len(world.instances(role)))

    def target(self) -> str:
        return self.role

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        def far(name: str) -> float:
            return math.dist(obs.objects[name].pos[:2], obs.base[:2])

        for name in sorted(self.world.instances(self.role), key=far):
            obs = yield from Look(self.world, name).body(ctx, obs)
        return obs


class Lift(Skill):
    """Raise the held object straight up by moving the grasp frame along a vertical line (IK)."""

    name = "lift"

    def __init__(self, height: float) -> None:
        self.height = height
        self.timeout_s = tuning().runtime.lift_timeout_s

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        pos, rot = pad_pose(ctx, obs)
        up = self.height + tuning().runtime.lift_margin_m
        return (yield from cartesian(self.name, obs, ctx, pos + (0.0, 0.0, up), rot, gripper=0.0))
