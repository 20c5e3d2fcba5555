"""switch: turn a rotary key or knob to on by pinching it and turning the wrist about its axis.

The hand approaches along the knob's grasp direction (level, fingers closing across the key), the pad
centre on the knob's axis with the fingertips ``DEPTH`` into the key; the fingers close, the hand turns
about the knob's own axis (through the pad) by the knob's travel plus ``OVERTURN``, in steps, and the
deepest turn measured is kept; then the fingers open and the hand backs out. A spring-return key turns
back when let go, so ``STALLED`` is judged on the deepest value (under half its travel).
"""

from __future__ import annotations

import numpy as np
from scipy.spatial.transform import Rotation

from housebench.house.query import HouseQuery
from housebench.skills.base import PartSkill, Reason, SkillContext, SkillGen
from housebench.skills.grasp import FINGER_HALF
from housebench.skills.motion import cartesian, hold
from housebench.skills.pick import CLOSED, OPEN, approach, stance_search, to_carry
from housebench.skills.press import approach_rot
from housebench.state import Observation

DEPTH = 0.02  # fingertips this far into the key from its front face, m
BACK = 0.08  # the pre-pose and the retreat, this far out along the face normal, m
OVERTURN = 0.15  # rad past the knob's travel
STEPS = 6  # the turn is commanded in this many steps, the knob measured after each


class Turn(PartSkill):
    name = "switch"
    timeout_s = 90.0

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        part = HouseQuery(ctx.scene.house).parts.get(self.part)
        if part is None or part.category != "knob" or part.joint != "revolute":
            raise self.fail(Reason.UNSUPPORTED, part=self.part)
        box = np.asarray(part.handle.box, float)
        normal, grasp = np.asarray(part.handle.normal, float), np.asarray(part.handle.grasp, float)
        axis, pivot = np.asarray(part.axis, float), np.asarray(part.pivot, float)
        centre = (box[:3] + box[3:]) / 2
        front = max(float(box[:3] @ normal), float(box[3:] @ normal))  # the key's outer face along the normal
        pad = centre + normal * (front - float(centre @ normal) - DEPTH + FINGER_HALF)
        off_axis = (pad - pivot) - axis * float((pad - pivot) @ axis)
        if np.linalg.norm(off_axis) > 0.01:  # turning the hand about its pad must turn the key about its axis
            raise self.fail(Reason.UNSUPPORTED, part=self.part, off_axis_m=round(float(np.linalg.norm(off_axis)), 3))
        rot = approach_rot(grasp)
        found = stance_search(ctx, obs, [(pad, [rot])], normal * BACK)
        if found is None:
            raise self.fail(Reason.UNREACHABLE, at=[round(float(v), 3) for v in pad])
        pose, (pre, _, rot, _) = found
        ctx.log("stance", skill=self.name, target=self.part, base=[round(v, 3) for v in pose])
        obs = yield from approach(self, ctx, obs, pose)
        obs = yield from cartesian(self.name, obs, ctx, pad + normal * BACK, rot, fallback=pre, gripper=OPEN)
        obs = yield from cartesian(self.name, obs, ctx, pad, rot, gripper=OPEN)
        obs = yield from hold(obs, 0.8, ctx, gripper=CLOSED)
        span = part.open - part.closed
        deepest = 0.0
        for k in range(1, STEPS + 1):
            angle = (span + np.sign(span) * OVERTURN) * k / STEPS
            turned = Rotation.from_rotvec(axis * angle).as_matrix() @ rot
            obs = yield from cartesian(self.name, obs, ctx, pad, turned, gripper=CLOSED)
            deepest = max(deepest, abs(obs.parts.get(self.part, part.closed) - part.closed))
        obs = yield from hold(obs, 0.3, ctx, gripper=CLOSED)
        deepest = max(deepest, abs(obs.parts.get(self.part, part.closed) - part.closed))
        obs = yield from hold(obs, 0.6, ctx, gripper=OPEN)
        obs = yield from cartesian(self.name, obs, ctx, pad + normal * BACK, turned, gripper=OPEN)
        fraction = deepest / abs(span)
        ctx.log("turned", part=self.part, fraction=round(fraction, 3))
        if fraction < 0.5:
            raise self.fail(Reason.STALLED, part=self.part, fraction=round(fraction, 3))
        return (yield from to_carry(self, ctx, obs))
