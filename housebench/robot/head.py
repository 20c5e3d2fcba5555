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

AIM_ROUNDS = 4  # fixed-point rounds of the aim: the camera sits off the pan and tilt axes (~6 cm), which shifts
# the angles it needs by a few degrees at a metre; each round shrinks what is left about tenfold
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
        head = {j: joints.get(j, 0.0) for j in HEAD_JOINTS}
        pan, tilt = HEAD_JOINTS
        for _ in range(AIM_ROUNDS):
            pos, rot = self.pose({**joints, **head})
            axis, ray = -rot[:, 2], point - pos
            yaw_err = wrap(math.atan2(ray[1], ray[0]) - math.atan2(axis[1], axis[0]))
            # positive tilt looks down
            pitch_err = math.atan2(-ray[2], math.hypot(ray[0], ray[1])) - math.atan2(-axis[2], math.hypot(*axis[:2]))
            head[pan] = float(np.clip(head[pan] + yaw_err, *self.range[pan]))
            head[tilt] = float(np.clip(head[tilt] + pitch_err, *self.range[tilt]))
        return head

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
