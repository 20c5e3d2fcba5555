"""What the network sees and what it says, as functions of named values, so training (a LeRobot dataset's
feature names) and serving (a housebench ``Observation``) build the same numbers from the same names.

Everything is in the robot's base frame, so a start a few centimetres or degrees off the demonstrated ones looks
the same to the network: the arm joints and torso, the finger gap, the gripper frame, the object's position and
yaw, and the object relative to the gripper. An action chunk is ``CHUNK`` control steps of: the arm and torso
targets relative to the joints now, the base target in the base frame now, and the finger gap target.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

CHUNK = 10  # control steps of actions predicted at once (the first is executed, the rest regularise)
JOINTS = 8  # the action layout: 7 arm joints and the torso, then base x, y, yaw, then the finger gap
ACTION_DIMS = JOINTS + 4
INPUT_DIMS = JOINTS + 1 + 3 + 5 + 3

Named = Mapping[str, np.ndarray | float]


def _wrap(angle):
    return (np.asarray(angle) + np.pi) % (2 * np.pi) - np.pi


def _to_base(named: Named, x, y, z):
    """World point (x, y, z) in the base frame (the base's yaw about its own position)."""
    bx, by, yaw = (np.asarray(named[k], dtype=np.float64) for k in ("base.x", "base.y", "base.yaw"))
    dx, dy = np.asarray(x) - bx, np.asarray(y) - by
    c, s = np.cos(yaw), np.sin(yaw)
    return c * dx + s * dy, -s * dx + c * dy, np.asarray(z, dtype=np.float64)


def _yaw(qw, qx, qy, qz):
    return np.arctan2(2 * (qw * qz + qx * qy), 1 - 2 * (qy * qy + qz * qz))


def inputs(named: Named, joints: Sequence[str], item: str) -> np.ndarray:
    """The network's input, (..., INPUT_DIMS), from the names of the dataset's ``observation.state`` and
    ``observation.environment_state`` (``joints.<name>``, ``base.x``, ``objects.<item>.x``, ...)."""
    obj = [np.asarray(named[f"objects.{item}.{k}"], dtype=np.float64) for k in ("x", "y", "z", "qw", "qx", "qy", "qz")]
    ee = _to_base(named, *(named[f"ee_pos.{k}"] for k in "xyz"))
    it = _to_base(named, *obj[:3])
    item_yaw = _wrap(_yaw(*obj[3:]) - np.asarray(named["base.yaw"]))
    cols = [
        *(np.asarray(named[f"joints.{j}"], dtype=np.float64) for j in joints),
        np.asarray(named["gripper_opening"], dtype=np.float64),
        *ee,
        *it,
        np.sin(item_yaw),
        np.cos(item_yaw),
        it[0] - ee[0],
        it[1] - ee[1],
        it[2] - ee[2],
    ]
    return np.stack(np.broadcast_arrays(*cols), axis=-1).astype(np.float32)


def encode(action: np.ndarray, named: Named, joints: Sequence[str]) -> np.ndarray:
    """Absolute env actions (..., CHUNK, ACTION_DIMS) -> the network's targets, relative to the state ``named``."""
    now = np.stack([np.asarray(named[f"joints.{j}"], dtype=np.float64) for j in joints], axis=-1)[..., None, :]
    bx, by, yaw = (np.asarray(named[k], dtype=np.float64)[..., None] for k in ("base.x", "base.y", "base.yaw"))
    dx, dy = action[..., JOINTS] - bx, action[..., JOINTS + 1] - by
    c, s = np.cos(yaw), np.sin(yaw)
    base = np.stack([c * dx + s * dy, -s * dx + c * dy, _wrap(action[..., JOINTS + 2] - yaw)], axis=-1)
    return np.concatenate([action[..., :JOINTS] - now, base, action[..., JOINTS + 3 :]], axis=-1).astype(np.float32)


def decode(target: np.ndarray, named: Named, joints: Sequence[str]) -> np.ndarray:
    """One step of the network's targets (ACTION_DIMS,) -> the absolute env action, :func:`encode`'s inverse."""
    now = np.array([float(named[f"joints.{j}"]) for j in joints])
    bx, by, yaw = (float(named[k]) for k in ("base.x", "base.y", "base.yaw"))
    c, s = np.cos(yaw), np.sin(yaw)
    fx, fy, fyaw = (float(v) for v in target[JOINTS : JOINTS + 3])
    base = [bx + c * fx - s * fy, by + s * fx + c * fy, yaw + fyaw]  # the yaw joint is not wrapped
    return np.array([*(now + target[:JOINTS]), *base, float(target[JOINTS + 3])])
