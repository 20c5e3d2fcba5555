"""The head camera's geometry: where it is and what it sees for given joints (forward kinematics on
:func:`~housebench.robot.model.kinematic_model`, the model the backend attaches), the pan and tilt that
aim it at a point, and whether a point lands in its image.

MuJoCo's camera frame looks along its -z axis, x to the image's right, y up; the vertical field of view
is the model's ``fovy`` and the horizontal one follows from the image's aspect.
"""

from __future__ import annotations

import math

import mujoco
import numpy as np

from housebench.robot.fetch import HEAD_CAMERA, HEAD_JOINTS
from housebench.robot.model import kinematic_model

AIM_ROUNDS = 3  # Newton steps of the aim: the camera sits 0.2 m ahead of the pan axis and 2-3 cm off the axes, so
# the angles it needs differ from the bearings of the point by up to tens of degrees at half a metre
STEP = 1e-4  # rad: the finite difference of the aim's Jacobian
NEAR = 0.05  # m: a point closer to the camera than this along its axis is at the lens, not in the image


def wrap(angle: float) -> float:
    return (angle + math.pi) % (2.0 * math.pi) - math.pi


class HeadCamera:
    """The head camera of the kinematic model (not thread-safe: one instance per episode or process)."""

    def __init__(self, model: mujoco.MjModel | None = None) -> None:
        self.model = model if model is not None else kinematic_model()
        self.data = mujoco.MjData(self.model)
        self.cam = self.model.camera(HEAD_CAMERA).id
        self.fovy = math.radians(float(self.model.cam_fovy[self.cam]))
        self._adr = {self.model.joint(j).name: int(self.model.jnt_qposadr[j]) for j in range(self.model.njnt)}
        self.range = {j: tuple(map(float, self.model.joint(j).range)) for j in HEAD_JOINTS}

    def pose(self, joints: dict[str, float]) -> tuple[np.ndarray, np.ndarray]:
        """The camera's position and rotation (columns: image right, image up, backwards) in the world for
        ``joints`` (every robot joint by its ``robot0:`` name; those left out stand at the model's zero)."""
        self.data.qpos[:] = self.model.qpos0
        for name, value in joints.items():
            if name in self._adr:
                self.data.qpos[self._adr[name]] = value
        mujoco.mj_kinematics(self.model, self.data)
        mujoco.mj_camlight(self.model, self.data)
        return self.data.cam_xpos[self.cam].copy(), self.data.cam_xmat[self.cam].reshape(3, 3).copy()

    def aim(self, joints: dict[str, float], point) -> dict[str, float]:
        """Pan and tilt targets that put ``point`` on the camera's optical axis, the robot's other joints as
        in ``joints``; each within its joint's range (a point behind the robot: the pan stops at its limit)."""
        point = np.asarray(point, float)
        lo, hi = np.array([self.range[j] for j in HEAD_JOINTS]).T
        q = np.clip([joints.get(j, 0.0) for j in HEAD_JOINTS], lo, hi)
        for _ in range(AIM_ROUNDS):  # Newton's method on the angles off the axis; its Jacobian by differences
            err = self._off_axis(joints, q, point)
            jac = np.column_stack([(self._off_axis(joints, q + step, point) - err) / STEP for step in np.eye(2) * STEP])
            q = np.clip(q - np.linalg.lstsq(jac, err, rcond=None)[0], lo, hi)  # lstsq: a point straight below
        return dict(zip(HEAD_JOINTS, map(float, q)))

    def _off_axis(self, joints: dict[str, float], q: np.ndarray, point: np.ndarray) -> np.ndarray:
        """(yaw, pitch) of ``point`` seen from the camera less those of its optical axis, head at ``q``."""
        pos, rot = self.pose({**joints, **dict(zip(HEAD_JOINTS, q))})
        axis, ray = -rot[:, 2], point - pos
        yaw = wrap(math.atan2(ray[1], ray[0]) - math.atan2(axis[1], axis[0]))
        pitch = math.atan2(ray[2], math.hypot(ray[0], ray[1])) - math.atan2(axis[2], math.hypot(axis[0], axis[1]))
        return np.array([yaw, pitch])

    def pixel(self, joints: dict[str, float], point, size: tuple[int, int]) -> tuple[float, float] | None:
        """Where ``point`` lands in an image of ``size`` (width, height) pixels, (column, row) from the top
        left, or None when it is behind the camera or nearer than :data:`NEAR`."""
        pos, rot = self.pose(joints)
        local = rot.T @ (np.asarray(point, float) - pos)
        depth = -local[2]
        if depth < NEAR:
            return None
        width, height = size
        focal = height / 2 / math.tan(self.fovy / 2)  # pixels
        return width / 2 + focal * local[0] / depth, height / 2 - focal * local[1] / depth

    def sees(self, joints: dict[str, float], point, size: tuple[int, int]) -> bool:
        """Whether ``point`` lands inside an image of ``size`` (no occlusion test)."""
        at = self.pixel(joints, point, size)
        return at is not None and bool(0.0 <= at[0] <= size[0] and 0.0 <= at[1] <= size[1])
