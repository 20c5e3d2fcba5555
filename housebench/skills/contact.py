"""push, pull, sweep: move an object across its support into a zone by contact, never grasping it.

The closed fingers point down, their broad side across the stroke, the fingertips ``TIP`` above the
support and ``GAP`` behind the object; the hand then moves along the stroke in legs of ``LEG``, and
after each leg the object's centre is measured: the stroke ends when it has come within ``TOL`` of the
zone's centre along the stroke. A hand that has gone ``OVERRUN`` past where it should have reached it
without moving it there fails with ``STALLED`` (the object rolled away or was never touched).

The verbs differ only by where the robot stands: ``push`` behind the object (the stroke leads away from
the base), ``pull`` beyond it (the fingertips reach past the object and draw it towards the base),
``sweep`` beside it (a stroke across the base's heading).
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np

from housebench.skills.base import Reason, Skill, SkillContext, SkillGen
from housebench.skills.carry import approach
from housebench.skills.grasp import CLOSED, FINGER_HALF, UP
from housebench.skills.motion import cartesian, hold
from housebench.skills.stance import stance_search
from housebench.skills.tuning import tuning
from housebench.skills.view import ik, pad_pose, support_of
from housebench.state import Observation
from housebench.tasks import geometry
from housebench.tasks import goal as g

BEARINGS = {"push": (math.pi,), "pull": (0.0,), "sweep": (math.pi / 2, -math.pi / 2)}  # base from the object


def stroke_rot(direction: np.ndarray) -> np.ndarray:
    """Fingers pointing down, closing across the stroke ``direction`` (a horizontal unit vector)."""
    x = np.array([0.0, 0.0, -1.0])
    y = np.array([-direction[1], direction[0], 0.0])
    return np.column_stack([x, y, np.cross(x, y)])


class Shove(Skill):
    """Move ``obj`` by contact until its centre lies in ``zone`` (xmin, ymin, zmin, xmax, ymax, zmax);
    ``name`` (push, pull or sweep) says where the robot stands."""

    @property
    def timeout_s(self) -> float:  # type: ignore[override]
        return tuning().contact.timeout_s

    def __init__(self, name: str, obj: str, zone: tuple[float, ...]) -> None:
        if name not in BEARINGS:
            raise ValueError(f"shove: unknown verb '{name}'")
        self.name, self.obj, self.zone = name, obj, tuple(float(v) for v in zone)

    def target(self) -> str:
        return self.obj

    def look_at(self) -> str | None:
        return self.obj

    def preconditions(self, ctx: SkillContext):
        return [g.HandEmpty(predicate="hand_empty")]

    def postconditions(self, ctx: SkillContext):
        return [g.PlacedInZone(predicate="placed_in_zone", items=[self.obj], zone=self.zone)]

    def _stances(self, centre: np.ndarray, direction: np.ndarray) -> Iterator[tuple[float, float, float]]:
        """Base poses facing the object at the verb's bearings from it (relative to the stroke)."""
        heading = math.atan2(direction[1], direction[0])
        tune = tuning().contact
        for dist in tune.distances_m:
            for bearing in BEARINGS[self.name]:
                for spread in tune.spread:
                    a = heading + bearing + spread
                    x, y = centre[0] + dist * math.cos(a), centre[1] + dist * math.sin(a)
                    yield x, y, math.atan2(centre[1] - y, centre[0] - x)

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        tune = tuning().contact
        tol, gap, overrun, lift = tune.tol_m, tune.gap_m, tune.overrun_m, UP * tune.raise_m
        asset = ctx.scene.objects[self.obj].asset
        support = support_of(ctx, obs, self.obj)
        if support is None:
            raise self.fail(Reason.UNSUPPORTED, why="not on a support")
        centre = geometry.centre(obs.objects[self.obj], asset)
        goal = (np.asarray(self.zone[:3]) + np.asarray(self.zone[3:])) / 2
        delta = goal[:2] - centre[:2]
        travel = float(np.linalg.norm(delta))
        if travel < tol:
            return obs
        d = np.array([*(delta / travel), 0.0])
        box = geometry.world_box(obs.objects[self.obj], asset)
        half = abs(d[0]) * (box[3] - box[0]) / 2 + abs(d[1]) * (box[4] - box[1]) / 2
        start = centre - d * (half + gap)
        start[2] = support.height + tune.tip_m + FINGER_HALF
        end = start + d * (travel + overrun)
        rot = stroke_rot(d)
        # the IK must reach both ends of the stroke: the end as the target, the start as its pre-pose
        found = stance_search(ctx, obs, [(end, [rot])], start - end, poses=self._stances(centre, d))
        if found is None:
            raise self.fail(Reason.UNREACHABLE, at=[round(float(v), 3) for v in start], travel=round(travel, 3))
        pose, (at_start, _, rot, _) = found
        ctx.log("stance", skill=self.name, target=self.obj, base=[round(v, 3) for v in pose], travel=round(travel, 3))
        obs = yield from approach(self, ctx, obs, pose)
        above = ik(ctx).solve({**obs.joints, **at_start}, start + lift, rot, max_iters=tune.ik_iters).joints
        obs = yield from cartesian(self.name, obs, ctx, start + lift, rot, fallback=above, gripper=CLOSED)
        obs = yield from cartesian(self.name, obs, ctx, start, rot, gripper=CLOSED)
        c0 = geometry.centre(obs.objects[self.obj], asset)
        need = float((goal - c0)[:2] @ d[:2])  # how far the object still has to go along the stroke
        hand = 0.0
        while True:
            moved = float((geometry.centre(obs.objects[self.obj], asset) - c0)[:2] @ d[:2])
            if moved >= need - tol:
                break
            if hand >= need + gap + overrun:
                raise self.fail(Reason.STALLED, moved=round(moved, 3), needed=round(need, 3), hand=round(hand, 3))
            hand = min(hand + tune.leg_m, need + gap + overrun)
            obs = yield from cartesian(self.name, obs, ctx, start + d * hand, rot, step=tune.step_m, gripper=CLOSED)
        obs = yield from hold(obs, tune.rest_s, ctx)  # let a rolling object come to rest before the hand leaves
        ctx.log("shoved", obj=self.obj, moved=round(moved, 3), hand=round(hand, 3))
        return (yield from cartesian(self.name, obs, ctx, pad_pose(ctx, obs)[0] + lift, rot))
