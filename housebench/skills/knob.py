"""switch: turn a rotary key or knob to on by pinching it and turning the wrist about its axis.

The hand approaches along the knob's grasp direction (level, fingers closing across the key), the pad
centre on the knob's axis with the fingertips ``skills.knob.depth_m`` into the key; the fingers close, the hand turns
about the knob's own axis (through the pad) by the knob's travel plus ``overturn``, in steps, and the
deepest turn measured is kept; then the fingers open and the hand backs out. A spring-return key turns
back when let go, so ``STALLED`` is judged on the deepest value (under half its travel).
"""

from __future__ import annotations

import numpy as np
from scipy.spatial.transform import Rotation

from housebench.house.query import HouseQuery
from housebench.skills.base import PartSkill, Reason, SkillContext, SkillGen
from housebench.skills.carry import approach, to_carry
from housebench.skills.grasp import CLOSED, FINGER_HALF, OPEN
from housebench.skills.motion import cartesian, hold
from housebench.skills.press import approach_rot
from housebench.skills.stance import stance_search
from housebench.skills.tuning import tuning
from housebench.state import Observation


class Turn(PartSkill):
    name = "switch"

    @property
    def timeout_s(self) -> float:  # type: ignore[override]
        return tuning().knob.timeout_s

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        tune = tuning().knob
        part = HouseQuery(ctx.scene.house).parts.get(self.part)
        if part is None or part.category != "knob" or part.joint != "revolute":
            raise self.fail(Reason.UNSUPPORTED, part=self.part)
        box = np.asarray(part.handle.box, float)
        normal, grasp = np.asarray(part.handle.normal, float), np.asarray(part.handle.grasp, float)
        axis, pivot = np.asarray(part.axis, float), np.asarray(part.pivot, float)
        centre = (box[:3] + box[3:]) / 2
        front = max(float(box[:3] @ normal), float(box[3:] @ normal))  # the key's outer face along the normal
        pad = centre + normal * (front - float(centre @ normal) - tune.depth_m + FINGER_HALF)
        off_axis = (pad - pivot) - axis * float((pad - pivot) @ axis)
        if np.linalg.norm(off_axis) > tune.on_axis_m:  # turning the hand about its pad must turn the key about its axis
            raise self.fail(Reason.UNSUPPORTED, part=self.part, off_axis_m=round(float(np.linalg.norm(off_axis)), 3))
        rot = approach_rot(grasp)
        found = stance_search(ctx, obs, [(pad, [rot])], normal * tune.back_m)
        if found is None:
            raise self.fail(Reason.UNREACHABLE, at=[round(float(v), 3) for v in pad])
        pose, (pre, _, rot, _) = found
        ctx.log("stance", skill=self.name, target=self.part, base=[round(v, 3) for v in pose])
        obs = yield from approach(self, ctx, obs, pose)
        obs = yield from cartesian(self.name, obs, ctx, pad + normal * tune.back_m, rot, fallback=pre, gripper=OPEN)
        obs = yield from cartesian(self.name, obs, ctx, pad, rot, gripper=OPEN)
        obs = yield from hold(obs, tune.close_s, ctx, gripper=CLOSED)
        span = part.open - part.closed
        deepest = 0.0
        for k in range(1, tune.steps + 1):
            angle = (span + np.sign(span) * tune.overturn) * k / tune.steps
            turned = Rotation.from_rotvec(axis * angle).as_matrix() @ rot
            obs = yield from cartesian(self.name, obs, ctx, pad, turned, gripper=CLOSED)
            deepest = max(deepest, abs(obs.parts.get(self.part, part.closed) - part.closed))
        obs = yield from hold(obs, tune.settle_s, ctx, gripper=CLOSED)
        deepest = max(deepest, abs(obs.parts.get(self.part, part.closed) - part.closed))
        obs = yield from hold(obs, tune.open_s, ctx, gripper=OPEN)
        obs = yield from cartesian(self.name, obs, ctx, pad + normal * tune.back_m, turned, gripper=OPEN)
        fraction = deepest / abs(span)
        ctx.log("turned", part=self.part, fraction=round(fraction, 3))
        if fraction < tune.done_fraction:
            raise self.fail(Reason.STALLED, part=self.part, fraction=round(fraction, 3))
        return (yield from to_carry(self, ctx, obs))
