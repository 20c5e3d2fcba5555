"""Inverse kinematics for Fetch: mink (differential IK, QP with joint limits) on the kinematic model.

The target is the grasp frame ``robot0:pad`` (centre of the finger pads; x: the approach direction,
y: the axis the fingers close along). Joints named in ``frozen`` keep their start value (the base
during an arm motion, say); the rest start from ``start`` and are pulled gently towards it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import mink
import mujoco
import numpy as np

from housebench.robot.fetch import ARM_JOINTS, BASE_JOINTS, PREFIX, TORSO_JOINT
from housebench.robot.model import kinematic_model

GRASP_SITE = f"{PREFIX}pad"
ARM = (TORSO_JOINT, *ARM_JOINTS)  # what an arm motion moves


def top_down(yaw: float) -> np.ndarray:
    """Rotation of a grasp from above: approach straight down, fingers closing along ``yaw``."""
    x = np.array([0.0, 0.0, -1.0])
    y = np.array([np.cos(yaw), np.sin(yaw), 0.0])
    return np.column_stack([x, y, np.cross(x, y)])


def side(yaw: float) -> np.ndarray:
    """Rotation of a horizontal grasp: approach along ``yaw``, fingers closing horizontally."""
    x = np.array([np.cos(yaw), np.sin(yaw), 0.0])
    z = np.array([0.0, 0.0, 1.0])
    return np.column_stack([x, np.cross(z, x), z])


@dataclass(frozen=True)
class IKResult:
    joints: dict[str, float]  # every joint of the kinematic model
    pos_err: float  # metres
    rot_err: float  # radians
    iters: int

    def ok(self, pos_tol: float = 0.005, rot_tol: float = 0.05) -> bool:
        return self.pos_err <= pos_tol and self.rot_err <= rot_tol


class FetchIK:
    """mink IK on :func:`kinematic_model` (one instance per process; not thread-safe)."""

    def __init__(self, model: mujoco.MjModel | None = None, dt: float = 0.1) -> None:
        self.model = model if model is not None else kinematic_model()
        self.config = mink.Configuration(self.model)
        self.dt = dt
        self.names = [self.model.joint(j).name for j in range(self.model.njnt)]
        self._adr = {n: int(self.model.joint(n).qposadr[0]) for n in self.names}
        self._dof = {n: int(self.model.joint(n).dofadr[0]) for n in self.names}
        self.frame = mink.FrameTask(GRASP_SITE, "site", position_cost=1.0, orientation_cost=0.5, lm_damping=1e-3)
        self.posture = mink.PostureTask(self.model, cost=1e-3)
        self.limits = [mink.ConfigurationLimit(self.model)]

    def qpos(self, joints: dict[str, float]) -> np.ndarray:
        q = self.model.qpos0.copy()
        for name, value in joints.items():
            if name in self._adr:
                q[self._adr[name]] = value
        return q

    def joints(self, q: np.ndarray) -> dict[str, float]:
        return {n: float(q[a]) for n, a in self._adr.items()}

    def fk(self, joints: dict[str, float]) -> tuple[np.ndarray, np.ndarray]:
        """Position and rotation matrix of the grasp frame."""
        self.config.update(self.qpos(joints))
        pose = self.config.get_transform_frame_to_world(GRASP_SITE, "site")
        return pose.translation().copy(), pose.rotation().as_matrix().copy()

    def solve(
        self,
        start: dict[str, float],
        pos: Iterable[float],
        rot: np.ndarray,
        frozen: Iterable[str] = BASE_JOINTS,
        max_iters: int = 200,
        pos_tol: float = 0.003,
        rot_tol: float = 0.03,
    ) -> IKResult:
        """Joint values that put the grasp frame at ``pos`` / ``rot``, from ``start``."""
        q0 = self.qpos(start)
        for name in frozen:  # held still outside its range (a measured torso over its top), the QP has no solution
            adr, jnt = self._adr[name], self.model.joint(name)
            if jnt.limited[0]:
                q0[adr] = np.clip(q0[adr], *jnt.range)
        self.config.update(q0)
        self.posture.set_target(q0)
        target = mink.SE3.from_rotation_and_translation(mink.SO3.from_matrix(np.asarray(rot)), np.asarray(pos, float))
        self.frame.set_target(target)
        fixed = [self._dof[n] for n in frozen]
        constraints = [mink.DofFreezingTask(self.model, dof_indices=fixed)] if fixed else None
        pos_err = rot_err = np.inf
        it = 0
        while it < max_iters:
            it += 1
            vel = mink.solve_ik(
                self.config,
                [self.frame, self.posture],
                self.dt,
                "daqp",
                1e-3,
                limits=self.limits,
                constraints=constraints,
            )
            self.config.integrate_inplace(vel, self.dt)
            err = self.frame.compute_error(self.config)
            pos_err, rot_err = float(np.linalg.norm(err[:3])), float(np.linalg.norm(err[3:]))
            if pos_err <= pos_tol and rot_err <= rot_tol:
                break
        return IKResult(self.joints(self.config.q), pos_err, rot_err, it)
