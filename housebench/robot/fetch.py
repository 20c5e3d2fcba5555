"""The Fetch mobile manipulator, simulator-agnostic facts: joint names, home pose, reach by height.

The model files are gymnasium-robotics' Fetch MJCF (MIT, ``envs/assets/fetch/``); a backend builds
its robot from them (MuJoCo: :mod:`housebench.robot.model`). The base is planar: x, y and yaw
in world coordinates. Names carry the ``robot0:`` prefix, as in the shared :class:`SimState`.
"""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

from housebench.state import Action

PREFIX = "robot0:"
BASE_JOINTS = (f"{PREFIX}base_x_joint", f"{PREFIX}base_y_joint", f"{PREFIX}base_yaw_joint")
ARM_JOINTS = tuple(
    f"{PREFIX}{j}_joint"
    for j in (
        "shoulder_pan",
        "shoulder_lift",
        "upperarm_roll",
        "elbow_flex",
        "forearm_roll",
        "wrist_flex",
        "wrist_roll",
    )
)
FINGER_JOINTS = (f"{PREFIX}l_gripper_finger_joint", f"{PREFIX}r_gripper_finger_joint")
TORSO_JOINT = f"{PREFIX}torso_lift_joint"
HEAD_JOINTS = (f"{PREFIX}head_pan_joint", f"{PREFIX}head_tilt_joint")
HEAD_CAMERA = f"{PREFIX}head_camera_rgb"
USD_ASSET = Path(__file__).with_name("fetch.usda")  # the robot as a UsdPhysics articulation (robot.usd_asset)
GRIP_SITE = f"{PREFIX}grip"  # the gripper frame between the finger pads
FINGER_BODIES = {"left": f"{PREFIX}l_gripper_finger_link", "right": f"{PREFIX}r_gripper_finger_link"}
BASE_CLEARANCE = 0.005  # the base glides 5 mm above the floor (driven, not rolling)
IMPRATIO = 10.0  # frictional-to-normal impedance ratio: held objects slip far less (elliptic cone)

# Fetch's standard "tucked" arm pose (fetch_ros), torso low, gripper open.
HOME: dict[str, float] = {
    TORSO_JOINT: 0.05,
    **dict(zip(ARM_JOINTS, (1.32, 1.40, -0.2, 1.72, 0.0, 1.66, 0.0))),
    **dict.fromkeys(FINGER_JOINTS, 0.05),
    **dict.fromkeys(HEAD_JOINTS, 0.0),
}
# The head camera from the base frame (Fetch's URDF, rounded): the pan axis stands HEAD_PAN_XZ from
# the base origin (at torso 0); the camera sits HEAD_CAMERA_XZ from the tilt axis's foot, along the
# pan direction. Enough to say what the camera sees, not to render it.
HEAD_PAN_XZ = (-0.034, 1.040)
HEAD_CAMERA_XZ = (0.198, 0.081)
# Reach by height of the grasp point: ((zmin, zmax), min, max horizontal distance from the base centre,
# the base facing the point), metres. Measured with IK by bench/measure_reach.py (table in
# bench/RESULTS.md): top-down grasps up to 1.3 m, side grasps above; 5 cm off the far end.
REACH = (
    ((0.0, 0.1), 0.4, 0.55),
    ((0.1, 0.2), 0.4, 0.6),
    ((0.2, 0.4), 0.4, 0.7),
    ((0.4, 1.0), 0.4, 0.75),
    ((1.0, 1.1), 0.4, 0.7),
    ((1.1, 1.2), 0.4, 0.65),
    ((1.2, 1.3), 0.4, 0.6),
    ((1.3, 1.4), 0.4, 1.05),
    ((1.4, 1.5), 0.4, 1.0),
    ((1.5, 1.6), 0.4, 0.95),
    ((1.6, 1.7), 0.4, 0.85),
    ((1.7, 1.8), 0.45, 0.65),
)
GRIPPER_OPENING = 0.1  # finger gap when open, metres (2 x 0.05 finger travel)


def model_dir() -> Path:
    """gymnasium-robotics' ``envs/assets/fetch`` folder, found without importing the package."""
    spec = importlib.util.find_spec("gymnasium_robotics")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("gymnasium-robotics is not installed (it ships the Fetch model files)")
    return Path(next(iter(spec.submodule_search_locations))) / "envs" / "assets" / "fetch"


def home_qpos(start: tuple[float, float, float]) -> dict[str, float]:
    """Initial joint values: the base at ``start`` (x, y, yaw in the world) plus :data:`HOME`."""
    return {**dict(zip(BASE_JOINTS, start)), **HOME}


def action_targets(action: Action) -> dict[str, float]:
    """Position targets by actuator (joint) name for ``action``: its joints, the base's x, y and yaw, and
    each finger at half the gripper opening."""
    targets = dict(action.joints)
    if action.base is not None:
        targets.update(zip(BASE_JOINTS, action.base))
    if action.gripper is not None:
        targets.update(dict.fromkeys(FINGER_JOINTS, min(max(action.gripper, 0.0), GRIPPER_OPENING) / 2))
    return targets


def third_person_view(base: tuple[float, float, float]) -> tuple[tuple[float, float, float], float, float, float]:
    """A camera behind and above the robot, looking where it faces: lookat, distance, azimuth and
    elevation (degrees)."""
    x, y, yaw = base
    return (x + 0.4 * math.cos(yaw), y + 0.4 * math.sin(yaw), 0.7), 2.4, math.degrees(yaw) + 25.0, -30.0
