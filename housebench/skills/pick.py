"""pick: take one object from above (top pinch) and hold it in the carry pose.

Stance: a free-floor base pose around the object from which the IK reaches both the pre-grasp
(above) and the grasp; the base drives there with the arm tucked. Where no upright grasp keeps the arm
clear (a pad a few centimetres from a wall: the wrist above it meets the wall), the hand leans away from
the base (:data:`LEANS`), so the wrist stands back from the wall. Out of a container, the pre-grasp and
the lift clear its rim and the torso stays still between them (:func:`still`). Then: arm to the pre-grasp with
the fingers open, straight down, close (force-limited), check both fingers touch the object
(``MISSED``), lift straight up, check it is still held (``DROPPED``), carry pose.
"""

from __future__ import annotations

import numpy as np

from housebench.robot.fetch import BASE_JOINTS
from housebench.skills.base import ObjectSkill, Reason, Skill, SkillContext, SkillGen
from housebench.skills.carry import approach, to_carry
from housebench.skills.grasp import CLOSED, FINGER_HALF, OPEN, UP, TopGrasp, grasps, in_box
from housebench.skills.motion import cartesian, hold
from housebench.skills.stance import stance_search, still
from housebench.skills.tuning import tuning
from housebench.skills.view import containing
from housebench.state import Observation
from housebench.tasks.goal import HandEmpty, Holding


class Pick(ObjectSkill):
    name = "pick"

    @property
    def timeout_s(self) -> float:  # type: ignore[override]
        return tuning().pick.timeout_s

    def preconditions(self, ctx: SkillContext):
        return [HandEmpty(predicate="hand_empty")]

    def postconditions(self, ctx: SkillContext):
        return [Holding(predicate="holding", items=[self.obj])]

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        asset = ctx.scene.objects[self.obj].asset
        pose = obs.objects[self.obj]
        options = grasps(asset, pose)
        if not options:
            raise self.fail(Reason.UNSUPPORTED, asset=asset.name, grasps=[g.kind for g in asset.grasps])
        walls = containing(ctx, obs, self.obj)
        for name in walls:  # lying in a box: fingers along its nearest wall, the arm clear of its walls
            options = [in_box(o, asset, pose, ctx.scene.objects[name].asset, obs.objects[name]) for o in options]
        tops = [(o.pad, o.rotations()) for o in options]
        pre = UP * max([tuning().pick.approach_m, *(above_rim(ctx, obs, name, options) for name in walls)])
        for lean in (0.0, *tuning().pick.leans):
            found = stance_search(ctx, obs, tops, pre, clear_of=(self.obj,), walls=walls, lean=lean)
            if found is not None:
                break
        else:
            raise self.fail(Reason.UNREACHABLE, at=[round(float(v), 3) for v in options[0].pad])
        pose, (above, at, rot, k) = found
        grasp = options[k]
        base = [round(v, 3) for v in pose]
        ctx.log("stance", skill=self.name, target=self.obj, grasp=grasp.kind, base=base, lean=lean)
        obs = yield from approach(self, ctx, obs, pose)
        joints = (above, at)
        lift = UP * max(tuning().pick.lift_m, float(pre[2]))  # out over the rim
        return (yield from grasp_at(self, ctx, obs, grasp.pad, rot, pre, joints, lift, grasp.opening, still(walls)))


def above_rim(ctx: SkillContext, obs: Observation, container: str, options: list[TopGrasp]) -> float:
    """How far above the lowest pad of ``options`` the pre-grasp goes for the fingertips to stand
    ``skills.pick.rim_tips_m`` over ``container``'s rim: 12 cm over an item on the toy box's floor left the pre-grasp
    8 cm inside the box, the open fingers within the planning margin of its wall (every stance refused)."""
    asset, at = ctx.scene.objects[container].asset, obs.objects[container]
    rim = at.pos[2] + asset.container.rim_z - asset.bottom_offset
    return rim + tuning().pick.rim_tips_m + FINGER_HALF - min(o.pad[2] for o in options)


def grasp_at(
    skill: Skill,
    ctx: SkillContext,
    obs: Observation,
    pad: np.ndarray,
    rot: np.ndarray,
    pre: np.ndarray,
    joints: tuple[dict[str, float], dict[str, float]],
    lift: np.ndarray,
    opening: float | None = None,
    frozen: tuple[str, ...] = BASE_JOINTS,
) -> SkillGen:
    """From the stance: fingers open (to ``opening``) to ``pad + pre``, straight in to ``pad``, close, check both
    fingers touch the object (``MISSED``), move by ``lift``, check it is still held (``DROPPED``), carry pose.
    ``frozen``: the joints the descent and the lift keep still (:func:`still`)."""
    obj, tune = skill.target(), tuning().pick
    opening = OPEN if opening is None else opening
    obs = yield from cartesian(skill.name, obs, ctx, pad + pre, rot, fallback=joints[0], avoid=True, gripper=opening)
    obs = yield from cartesian(skill.name, obs, ctx, pad, rot, fallback=joints[1], frozen=frozen, gripper=opening)
    obs = yield from hold(obs, tune.close_s, ctx, gripper=CLOSED)
    touching = [f for f, names in obs.finger_contacts.items() if obj in names]
    if len(touching) < 2:
        yield from hold(obs, tune.reopen_s, ctx, gripper=OPEN)
        raise skill.fail(Reason.MISSED, touching=touching, gap=round(obs.gripper_opening, 4))
    ctx.log("grasped", obj=obj, gap=round(obs.gripper_opening, 4))
    obs = yield from cartesian(skill.name, obs, ctx, pad + lift, rot, frozen=frozen)
    if not obs.holding(obj):
        raise skill.fail(Reason.DROPPED, where="lift", height=round(obs.objects[obj].pos[2], 3))
    return (yield from to_carry(skill, ctx, obs, rot))
