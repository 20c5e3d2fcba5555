"""tuck and reset: the arm folded into the travel pose (reset: every home joint, the gripper open).

The arm folds in three joint motions: forearm and wrist folded where the arm is, then the shoulder
turned, then shoulder and torso lowered. On the way the folded arm swings out beyond the footprint the
stances are chosen with, so standing beside a table it would come down on the table top: the arm's
links along the motion (forward kinematics of the robot model) are tested against the house's obstacle
boxes and the props at the current base pose, and where they hit, the base first moves to the nearest
free pose (same heading, shifted up to ``MAX_SHIFT``) from which they do not.
"""

from __future__ import annotations

import math

import mujoco
import numpy as np

from housebench.house.stance import stance_free
from housebench.robot.fetch import ARM_JOINTS, BASE_JOINTS, HEAD_JOINTS, HOME, TORSO_JOINT
from housebench.robot.model import kinematic_model
from housebench.skills.base import Reason, Skill, SkillContext, SkillGen
from housebench.skills.motion import hold, move_arm, settle_arm
from housebench.skills.navigate import Navigate, obstacle_boxes
from housebench.skills.tuning import tuning
from housebench.skills.view import TUCK
from housebench.state import Observation

LINKS = ("elbow_flex", "forearm_roll", "wrist_flex", "wrist_roll", "gripper")


def arm_points(ctx: SkillContext, joints: dict[str, float]) -> np.ndarray:
    """The arm's link origins (:data:`LINKS`) in the base frame (x ahead, y left, z up) for ``joints``
    (torso and arm; forward kinematics of the robot model)."""
    model = ctx.tool("robot_model", kinematic_model)
    data = mujoco.MjData(model)
    for joint, value in {**dict.fromkeys(BASE_JOINTS, 0.0), **joints}.items():
        data.qpos[model.joint(joint).qposadr[0]] = value
    mujoco.mj_kinematics(model, data)
    return np.array([data.body(f"robot0:{link}_link").xpos for link in LINKS])


def sweep_points(ctx: SkillContext, start: dict[str, float], waypoints: list[dict[str, float]]) -> np.ndarray:
    """The arm's link origins (base frame) at ``skills.body.samples`` points of every joint-space leg."""
    out, current = [], start
    for waypoint in waypoints:
        for t in np.linspace(0.0, 1.0, tuning().body.samples):
            out.append(arm_points(ctx, {j: current[j] + (waypoint[j] - current[j]) * t for j in waypoint}))
        current = waypoint
    return np.concatenate(out)


def tuck_hits(points: np.ndarray, pose, boxes) -> list[int]:
    """Indices of ``boxes`` that ``points`` (base frame) touch with the base at ``pose``."""
    c, s = math.cos(pose[2]), math.sin(pose[2])
    world = np.column_stack(
        [pose[0] + c * points[:, 0] - s * points[:, 1], pose[1] + s * points[:, 0] + c * points[:, 1], points[:, 2]]
    )
    hits, radius = [], tuning().body.link_radius_m
    for k, b in enumerate(boxes):
        lo, hi = np.asarray(b[:3]) - radius, np.asarray(b[3:]) + radius
        if np.any(np.all((world >= lo) & (world <= hi), axis=1)):
            hits.append(k)
    return hits


class Pose(Skill):
    """Tuck (torso and arm home) or reset (every home joint, gripper open)."""

    def __init__(self, name: str) -> None:
        if name not in ("tuck", "reset"):
            raise ValueError(f"pose: unknown verb '{name}'")
        self.name = name

    @property
    def timeout_s(self) -> float:  # type: ignore[override]
        return tuning().body.timeout_s

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        pan, lift, roll, *fold = ARM_JOINTS
        now = {j: obs.joints[j] for j in (TORSO_JOINT, *ARM_JOINTS)}
        folded = {**now, **{j: TUCK[j] for j in fold}}
        turned = {**folded, pan: TUCK[pan], roll: TUCK[roll]}
        waypoints = [folded, turned, dict(TUCK)]
        points = sweep_points(ctx, now, waypoints)
        boxes = obstacle_boxes(ctx, obs)
        if tuck_hits(points, obs.base, boxes):
            pose = self._clear_pose(points, obs, boxes)
            ctx.log("decision", skill=self.name, shift_to=[round(v, 3) for v in pose])
            obs = yield from Navigate(pose, why="room to tuck").body(ctx, obs)
        obs = yield from move_arm(self.name, obs, waypoints, ctx)
        if self.name == "reset":  # the head is slow (joint damping 1000 against a gain of 100)
            head = {j: HOME[j] for j in HEAD_JOINTS}
            tune = tuning().body
            obs = yield from hold(obs, tune.head_s, ctx, joints=head, gripper=0.1)  # the hand's full opening
            obs = yield from settle_arm(self.name, obs, head, ctx, tol=tune.head_tol, max_s=tune.head_max_s)
        return obs

    def _clear_pose(self, points: np.ndarray, obs: Observation, boxes) -> tuple[float, float, float]:
        x, y, yaw = obs.base
        tune = tuning().body
        for dist in tune.shifts_m:
            for k in range(tune.headings):
                a = yaw + math.pi + 2 * math.pi * k / tune.headings  # straight back first
                pose = (x + dist * math.cos(a), y + dist * math.sin(a), yaw)
                if stance_free(pose, boxes) and not tuck_hits(points, pose, boxes):
                    return pose
        raise self.fail(Reason.NO_SPACE, why="the tucked arm hits furniture within reach", max_shift=tune.shifts_m[-1])
