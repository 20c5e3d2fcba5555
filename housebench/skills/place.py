"""place: set the held object down on a support or into a container, from above.

The release point keeps the measured hold (pad height over the object's bottom): the bottom is
released ``DROP`` above the surface, or ``RIM_CLEAR`` above a container's rim over its cavity
centre. Stance as for ``pick`` (IK reaches above and at the release point); the base drives there
with the arm in the carry pose; then down, open, up, tuck. ``spot`` picks a free place on a support.
"""

from __future__ import annotations

import math

import numpy as np

from housebench.annotations.schema import Support
from housebench.robot.kinematics import top_down
from housebench.skills.base import Reason, Skill, SkillContext, SkillGen
from housebench.skills.motion import cartesian, hold
from housebench.skills.pick import APPROACH, OPEN, _held_yaw, approach, stance_search, to_carry
from housebench.state import Observation
from housebench.tasks import goal as g
from housebench.tasks.geometry import rotation

DROP = 0.015  # release height of the object's bottom over a surface, m
RIM_CLEAR = 0.02  # ... over a container's rim, m
EDGE = 0.07  # a spot keeps this far from the support's edges, m


def spot(
    support: Support, obs: Observation, ctx: SkillContext, obj: str, near: tuple[float, float]
) -> tuple[float, float] | None:
    """A free point on ``support`` for ``obj``, nearest ``near``: clear of every other object's footprint."""
    size = ctx.scene.objects[obj].asset.size
    r = math.hypot(size[0], size[1]) / 2
    xmin, ymin, xmax, ymax = support.box
    pad = EDGE + r * 0.5
    if xmax - xmin < 2 * pad or ymax - ymin < 2 * pad:
        return None
    xs, ys = np.meshgrid(np.linspace(xmin + pad, xmax - pad, 25), np.linspace(ymin + pad, ymax - pad, 25))
    points = np.stack([xs.ravel(), ys.ravel()], axis=1)
    ok = np.ones(len(points), bool)
    for name, other in obs.objects.items():
        if name == obj:
            continue
        osize = ctx.scene.objects[name].asset.size
        if abs(other.pos[2] - support.height) > 0.3:
            continue
        clear = r + math.hypot(osize[0], osize[1]) / 2 + 0.03
        ok &= np.hypot(points[:, 0] - other.pos[0], points[:, 1] - other.pos[1]) >= clear
    if not ok.any():
        return None
    points = points[ok]
    best = int(np.argmin(np.hypot(points[:, 0] - near[0], points[:, 1] - near[1])))
    return float(points[best, 0]), float(points[best, 1])


class Place(Skill):
    """Put the held ``obj`` on ``support`` (at ``at``, x y) or into ``container``."""

    name = "place"
    timeout_s = 120.0

    def __init__(
        self,
        obj: str,
        support: Support | None = None,
        at: tuple[float, float] | None = None,
        container: str | None = None,
    ) -> None:
        if (container is None) == (support is None):
            raise ValueError("place: give a support or a container")
        self.obj, self.support, self.at, self.container = obj, support, at, container

    def target(self) -> str:
        return f"{self.obj} -> {self.container or self.support.name}"

    def preconditions(self, ctx: SkillContext):
        return [g.Holding(predicate="holding", items=[self.obj])]

    def postconditions(self, ctx: SkillContext):
        if self.container:
            return [g.Inside(predicate="inside", items=[self.obj], container=self.container)]
        return [g.On(predicate="on", items=[self.obj], support=self.support.name)]

    def _release(self, ctx: SkillContext, obs: Observation) -> np.ndarray:
        """Pad position at release (keeps the measured pad-over-bottom offset of the hold)."""
        hold_dz = obs.ee_pos[2] - obs.objects[self.obj].pos[2]
        held_xy = np.asarray(obs.ee_pos[:2]) - np.asarray(obs.objects[self.obj].pos[:2])
        if self.container:
            pose = obs.objects[self.container]
            profile = ctx.scene.objects[self.container].asset.container
            centre = np.asarray(pose.pos) + rotation(pose.quat) @ np.array([0.0, 0.0, profile.rim_z])
            bottom, xy = centre[2] + RIM_CLEAR, centre[:2]
        else:
            bottom, xy = self.support.height + DROP, np.asarray(self.at)
        return np.array([*(xy + held_xy), bottom + hold_dz])

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        target = self._release(ctx, obs)
        yaw = _held_yaw(obs)
        found = stance_search(ctx, obs, target, (yaw, yaw + math.pi), APPROACH)
        if found is None:
            raise self.fail(Reason.UNREACHABLE, at=[round(float(v), 3) for v in target])
        pose, (_, _, yaw) = found
        ctx.log("stance", skill=self.name, target=self.target(), base=[round(v, 3) for v in pose], yaw=round(yaw, 3))
        obs = yield from approach(self, ctx, obs, pose)
        obs = yield from cartesian(self.name, obs, ctx, target + (0, 0, APPROACH), top_down(yaw))
        if not all(self.obj in obs.finger_contacts.get(f, ()) for f in ("left", "right")):
            raise self.fail(Reason.DROPPED, where="approach", height=round(obs.objects[self.obj].pos[2], 3))
        obs = yield from cartesian(self.name, obs, ctx, target, top_down(yaw))
        obs = yield from hold(obs, 0.8, ctx, gripper=OPEN)
        obs = yield from cartesian(self.name, obs, ctx, target + (0, 0, APPROACH), top_down(yaw))
        return (yield from to_carry(self, ctx, obs, yaw))
