"""A small scripted robot for physics tests: it moves only through its position actuators.

``reach`` solves the arm and torso targets that put the gripper frame (``robot0:grip``) at a
point, facing along a horizontal direction with the fingers closing horizontally (damped least
squares on the scene's own kinematics, in a scratch copy of the state: nothing in the running
simulation moves); ``move`` then drives the actuators there along a straight line in joint space.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import mujoco
import numpy as np
from pxr import Gf, Usd

from housebench.robot import fetch
from housebench.sim.mujoco.simulation import MujocoSimulation
from housebench.usd.paths import ROBOT_PATH

GRIP = f"{fetch.PREFIX}grip"
IK_JOINTS = (fetch.TORSO_JOINT, *fetch.ARM_JOINTS)
CLOSED, OPEN = 0.0, 0.05  # finger targets (each finger's travel), metres
SEED = (0.0, -0.5, 0.0, 1.5, 0.0, -1.0, 0.0)  # arm joints the solver starts from: elbow bent, hand level


def place_robot(task_usda: Path, out: Path, x: float, y: float, yaw_deg: float) -> Path:
    """A layer over ``task_usda`` that stands the robot at (x, y) facing ``yaw_deg``."""
    stage = Usd.Stage.CreateNew(str(out))
    stage.GetRootLayer().subLayerPaths.append(os.path.relpath(task_usda, out.parent))
    robot = stage.GetPrimAtPath(ROBOT_PATH)
    robot.GetAttribute("xformOp:translate").Set(Gf.Vec3d(x, y, 0.0))
    robot.GetAttribute("xformOp:rotateZ").Set(yaw_deg)
    stage.GetRootLayer().Save()
    return out


def reach(sim: MujocoSimulation, point, facing, vertical: bool = False, iterations: int = 500) -> dict[str, float]:
    """Torso and arm targets that put the gripper frame at ``point`` with its x axis along the
    horizontal ``facing``; the fingers close horizontally, or vertically (``vertical``: around a
    horizontal bar). Solved from :data:`SEED`."""
    m = sim.model
    data = mujoco.MjData(m)
    data.qpos[:] = sim.data.qpos
    x_axis = np.array([facing[0], facing[1], 0.0]) / math.hypot(facing[0], facing[1])
    side = np.cross([0.0, 0.0, 1.0], x_axis)
    goal = np.column_stack([x_axis, [0.0, 0.0, 1.0], -side] if vertical else [x_axis, side, [0.0, 0.0, 1.0]])
    site = m.site(GRIP).id
    ids = [m.joint(j).id for j in IK_JOINTS]
    qadr, dadr = m.jnt_qposadr[ids], m.jnt_dofadr[ids]
    data.qpos[qadr[1:]] = SEED
    data.qpos[qadr[-1]] = math.pi / 2 if vertical else 0.0  # wrist roll
    limited = m.jnt_limited[ids].astype(bool)
    low, high = np.where(limited, m.jnt_range[ids, 0], -np.inf), np.where(limited, m.jnt_range[ids, 1], np.inf)
    jacp, jacr = np.zeros((3, m.nv)), np.zeros((3, m.nv))
    for _ in range(iterations):
        mujoco.mj_kinematics(m, data)
        mujoco.mj_comPos(m, data)
        rot = data.site_xmat[site].reshape(3, 3)
        err = np.concatenate(
            [point - data.site_xpos[site], 0.5 * sum(np.cross(rot[:, i], goal[:, i]) for i in range(3))]
        )
        if np.linalg.norm(err) < 1e-5:
            break
        mujoco.mj_jacSite(m, data, jacp, jacr, site)
        jac = np.vstack([jacp, jacr])[:, dadr]
        step = jac.T @ np.linalg.solve(jac @ jac.T + 1e-4 * np.eye(6), err)
        data.qpos[qadr] = np.clip(data.qpos[qadr] + step, low, high)
    assert np.linalg.norm(err) < 1e-3, f"target out of reach: error {err}"
    return {j: float(data.qpos[a]) for j, a in zip(IK_JOINTS, qadr)}


def move(sim: MujocoSimulation, targets: dict[str, float], seconds: float, settle: float = 0.3) -> None:
    """Drive the named actuators from their current targets to ``targets`` in ``seconds`` (targets
    updated every 10 ms), then hold them for ``settle`` seconds."""
    start = {j: float(sim.data.ctrl[sim.model.actuator(j).id]) for j in targets}
    ticks = max(1, round(seconds / 0.01))
    for k in range(1, ticks + 1):
        sim.set_control({j: start[j] + (targets[j] - start[j]) * k / ticks for j in targets})
        sim.step(round(0.01 / sim.timestep))
    sim.step(round(settle / sim.timestep))


def grip(sim: MujocoSimulation, opening: float) -> None:
    """Both fingers to ``opening`` (each finger's travel) over 0.5 s."""
    move(sim, dict.fromkeys(fetch.FINGER_JOINTS, opening), 0.5)


def asleep(sim: MujocoSimulation, body: str) -> bool:
    """Whether island sleeping has taken ``body`` out of the computation."""
    return int(sim.data.body_awake[sim.model.body(body).id]) == int(mujoco.mjtSleepState.mjS_ASLEEP)
