"""press a button or key with the closed fingertips; wait for heating or chilling.

``press``: the hand horizontal (or down, for a face that looks up) approaching the button's face
along its grasp direction, fingertips ``STANDOFF`` off it, then in by the button's travel plus
``OVERTRAVEL``, held, and back out. A spring-loaded button springs back, so the skill judges
``pressed`` on the deepest value it measured while pushing (``STALLED`` when under half its travel).
``wait``: hold still until the goal's ``heated`` / ``chilled`` conditions hold (``TIMEOUT`` else).
"""

from __future__ import annotations

import numpy as np

from housebench.house.query import HouseQuery
from housebench.skills.base import PartSkill, Reason, Skill, SkillContext, SkillGen
from housebench.skills.carry import approach, to_carry
from housebench.skills.grasp import CLOSED, FINGER_HALF
from housebench.skills.motion import cartesian, hold
from housebench.skills.stance import stance_search
from housebench.skills.tuning import tuning
from housebench.state import Action, Observation
from housebench.tasks import goal as g


def approach_rot(direction: np.ndarray) -> np.ndarray:
    """Grasp frame whose approach axis (x) is ``direction``, fingers closing horizontally."""
    x = direction / np.linalg.norm(direction)
    ref = np.array([0.0, 0.0, 1.0]) if abs(x[2]) < 0.9 else np.array([1.0, 0.0, 0.0])
    y = np.cross(ref, x)
    y /= np.linalg.norm(y)
    return np.column_stack([x, y, np.cross(x, y)])


class Press(PartSkill):
    name = "press"

    @property
    def timeout_s(self) -> float:  # type: ignore[override]
        return tuning().press.timeout_s

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        tune = tuning().press
        part = HouseQuery(ctx.scene.house).parts.get(self.part)
        if part is None or part.category not in ("button", "knob"):
            raise self.fail(Reason.UNSUPPORTED, part=self.part)
        face, normal, grasp = (
            np.asarray(v, float) for v in (part.handle.center, part.handle.normal, part.handle.grasp)
        )
        rot = approach_rot(grasp)
        travel = abs(part.open - part.closed) + tune.overtravel_m
        start = face + normal * (tune.standoff_m + FINGER_HALF)
        found = stance_search(ctx, obs, [(start, [rot])], normal * tune.pre_m)
        if found is None:
            raise self.fail(Reason.UNREACHABLE, at=[round(float(v), 3) for v in start])
        pose, (pre, _, rot, _) = found
        ctx.log("stance", skill=self.name, target=self.part, base=[round(v, 3) for v in pose])
        obs = yield from approach(self, ctx, obs, pose)
        obs = yield from cartesian(self.name, obs, ctx, start + normal * tune.pre_m, rot, fallback=pre, gripper=CLOSED)
        obs = yield from cartesian(self.name, obs, ctx, start, rot, gripper=CLOSED)
        deepest = 0.0
        pushed = face + normal * (FINGER_HALF - travel)
        for point in np.linspace(start, pushed, tune.points)[1:]:
            obs = yield from cartesian(self.name, obs, ctx, point, rot, step=tune.step_m)
            deepest = max(deepest, abs(obs.parts.get(self.part, part.closed) - part.closed))
        obs = yield from hold(obs, tune.settle_s, ctx)
        deepest = max(deepest, abs(obs.parts.get(self.part, part.closed) - part.closed))
        obs = yield from cartesian(self.name, obs, ctx, start + normal * tune.pre_m, rot)
        fraction = deepest / abs(part.open - part.closed)
        ctx.log("pressed", part=self.part, fraction=round(fraction, 3))
        if fraction < tune.done_fraction:
            raise self.fail(Reason.STALLED, part=self.part, fraction=round(fraction, 3))
        return (yield from to_carry(self, ctx, obs))


class WaitUntil(Skill):
    """Hold still until ``conditions`` (``heated`` / ``chilled``) hold, at most ``timeout_s``."""

    name = "wait"

    def __init__(self, conditions: list[g.Condition], timeout_s: float) -> None:
        self.conditions, self.timeout_s = conditions, timeout_s

    def target(self) -> str:
        return ", ".join(c.predicate for c in self.conditions)

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        while not ctx.judge(self.conditions, obs.state).success:
            obs = yield Action()
        return obs
