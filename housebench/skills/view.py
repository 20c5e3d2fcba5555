"""The robot view: read-only queries on what the robot and the scene are now (one place for them).

What the hand holds (:func:`held`, :func:`end_held`, :func:`side_held`), where the hand is (:func:`pad_pose`,
:func:`finger_yaw`), whether the arm is folded (:func:`tucked`), what an item rests on or lies in (:func:`support_of`,
:func:`lies_in`, :func:`containing`); and the robot's IK, whose forward kinematics the hand's pose is read with.
Nothing here moves the robot.
"""

from __future__ import annotations

import math

import numpy as np

from housebench.annotations.schema import Support
from housebench.house.query import HouseQuery
from housebench.robot.fetch import ARM_JOINTS, HOME, TORSO_JOINT
from housebench.robot.kinematics import ARM, FetchIK
from housebench.skills.base import SkillContext
from housebench.skills.grasp import edge_only
from housebench.skills.tuning import tuning
from housebench.state import Observation
from housebench.tasks.geometry import rotation, world_box

TUCK = {j: HOME[j] for j in (TORSO_JOINT, *ARM_JOINTS)}


def ik(ctx: SkillContext) -> FetchIK:
    return ctx.tool("ik", FetchIK)


def held(obs: Observation) -> str | None:
    """The prop both fingers touch (what an arm motion carries), or None."""
    both = set(obs.finger_contacts.get("left", ())) & set(obs.finger_contacts.get("right", ()))
    return next((name for name in sorted(both) if name in obs.objects), None)


def end_held(ctx: SkillContext, obs: Observation) -> bool:
    """Whether the hand holds a flat item by its end (one taken only at an overhang: the pinch bears the
    item's weight on a lever)."""
    hand = held(obs)
    return hand is not None and edge_only(ctx.scene.objects[hand].asset)


def tucked(obs: Observation) -> bool:
    """Whether the arm and torso stand in the tuck."""
    return all(abs(obs.joints[j] - TUCK[j]) < tuning().motion.tucked_tol for j in ARM)


def lies_in(ctx: SkillContext, obs: Observation, obj: str, container: str) -> bool:
    """Whether ``obj``'s origin lies in the cavity of the prop ``container`` (one with a container profile)."""
    placed, at = ctx.scene.objects[container], obs.objects.get(container)
    profile = placed.asset.container
    if obj == container or profile is None or at is None:
        return False
    local = rotation(at.quat).T @ (np.asarray(obs.objects[obj].pos) - np.asarray(at.pos))
    return profile.holds(
        tuple(local + [0.0, 0.0, placed.asset.bottom_offset]), below=tuning().motion.lies_in_below_m, above=0.0
    )[0]


def wrap(angle: float) -> float:
    return (angle + math.pi) % (2 * math.pi) - math.pi


def pad_pose(ctx: SkillContext, obs: Observation) -> tuple[np.ndarray, np.ndarray]:
    """The grasp frame (pad centre) now: position and rotation matrix, from the measured joints."""
    return ik(ctx).fk(obs.joints)


def finger_yaw(ctx: SkillContext, obs: Observation) -> float:
    """World yaw of the fingers' closing axis (the grasp frame's y axis) now."""
    rot = pad_pose(ctx, obs)[1]
    return math.atan2(rot[1, 1], rot[0, 1])


def support_of(ctx: SkillContext, obs: Observation, obj: str) -> Support | None:
    te = tuning().edge
    box = world_box(obs.objects[obj], ctx.scene.objects[obj].asset)
    return HouseQuery(ctx.scene.house).support_under(
        (box[0] + box[3]) / 2, (box[1] + box[4]) / 2, box[2] + te.support_probe_m
    )


def containing(ctx: SkillContext, obs: Observation, obj: str) -> tuple[str, ...]:
    """The containers whose cavity holds ``obj``'s origin."""
    return tuple(name for name in ctx.scene.objects if lies_in(ctx, obs, obj, name))


def side_held(ctx: SkillContext, obs: Observation) -> bool:
    """Whether the hand is level (a side grasp) rather than pointing down."""
    ts = tuning().side
    return abs(pad_pose(ctx, obs)[1][2, 0]) < math.sin(max(*ts.pitches, *ts.low_tips) + ts.level_margin)
