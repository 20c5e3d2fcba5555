"""Grasp physics of the Fetch model: a ball held by contact survives a lift and a carry.

Each manipulation setting of :mod:`housebench.robot.model` is switched back to upstream's value
in one case, which must then fail the same measurement (the setting is what makes it pass); the
finger priority's case is a held ball's creep while it hangs still. The force limit's and the cone's
cases also mix the finger contacts as upstream does: the fingers' stiff contacts alone squeeze 7 mm
unlimited and slip 2.6 mm on a pyramidal cone.
"""

from __future__ import annotations

import mujoco
import numpy as np
import pytest

from housebench.robot import fetch
from housebench.robot import model as mjfetch
from housebench.robot.kinematics import ARM, GRASP_SITE, FetchIK, top_down
from housebench.sim.mujoco.bodies import AFFINITY, ROBOT

BALL = 0.035  # radius, m (an apple)
TABLE = 0.72  # table top height, m
REACH = 0.6  # ball distance from the base, m


def _world(
    force_limit: bool = True,
    elliptic: bool = True,
    roll_spring: bool = False,
    arm_kp: float | None = None,
    finger_priority: bool = True,
) -> mujoco.MjModel:
    spec = mujoco.MjSpec()
    spec.option.timestep = 0.002
    spec.option.integrator = mujoco.mjtIntegrator.mjINT_IMPLICITFAST
    if elliptic:
        mjfetch.manipulation_options(spec.option)
    spec.worldbody.add_geom(type=mujoco.mjtGeom.mjGEOM_PLANE, size=[5, 5, 0.1])
    spec.worldbody.add_geom(type=mujoco.mjtGeom.mjGEOM_BOX, size=[0.2, 0.3, TABLE / 2], pos=[REACH, 0, TABLE / 2])
    ball = spec.worldbody.add_body(name="ball", pos=[REACH, 0, TABLE + BALL])
    ball.add_freejoint(name="ball")
    ball.add_geom(type=mujoco.mjtGeom.mjGEOM_SPHERE, size=[BALL, 0, 0], mass=0.2, friction=[0.8, 0.005, 0.0001])
    robot = mjfetch.fetch_spec(ROBOT, AFFINITY[ROBOT])
    if not force_limit:
        for act in robot.actuators:
            act.forcelimited = mujoco.mjtLimited.mjLIMITED_FALSE
    for act in robot.actuators if arm_kp else ():
        if fetch.PREFIX + act.name in fetch.ARM_JOINTS:
            act.set_to_position(kp=arm_kp, dampratio=1.0)
    if roll_spring:
        robot.joint("forearm_roll_joint").stiffness = [10.0, 0.0, 0.0]
    for finger in fetch.FINGER_BODIES.values() if not finger_priority else ():
        for geom in robot.body(finger.removeprefix(fetch.PREFIX)).geoms:
            geom.priority = 0
    spec.attach(robot, prefix=fetch.PREFIX, frame=spec.worldbody.add_frame())
    return spec.compile()


def _set(model, data, joints: dict[str, float]) -> None:
    for name, value in joints.items():
        data.ctrl[model.actuator(name).id] = value


def _ball_in_pad(model, data) -> np.ndarray:
    site = data.site(GRASP_SITE)
    return site.xmat.reshape(3, 3).T @ (data.body("ball").xpos - site.xpos)


def grasp_lift_carry(hold_s: float = 0.0, **switches) -> dict[str, float]:
    """Grasp the ball from above, lift it 15 cm, hold it still ``hold_s``, drive the base 0.5 m; the ball's
    slip in the pad frame (m)."""
    model = _world(**switches)
    data = mujoco.MjData(model)
    ik = FetchIK()
    start = fetch.home_qpos((0.0, 0.0, 0.0))
    grasp = ik.solve(start, (REACH, 0.0, TABLE + BALL), top_down(np.pi / 2))
    lift = ik.solve(grasp.joints, (REACH, 0.0, TABLE + BALL + 0.15), top_down(np.pi / 2))
    assert grasp.ok() and lift.ok()
    qpos = {**start, **{j: grasp.joints[j] for j in ARM}}
    for name, value in qpos.items():
        data.qpos[model.joint(name).qposadr[0]] = value
    mujoco.mj_forward(model, data)
    _set(model, data, qpos)
    mujoco.mj_step(model, data, 250)
    reach_error = float(np.linalg.norm(data.site(GRASP_SITE).xpos - (REACH, 0.0, TABLE + BALL)))
    _set(model, data, dict.fromkeys(fetch.FINGER_JOINTS, 0.0))
    mujoco.mj_step(model, data, 500)
    held = _ball_in_pad(model, data)
    _set(model, data, {j: lift.joints[j] for j in ARM})
    mujoco.mj_step(model, data, 1000)
    lifted = _ball_in_pad(model, data)
    mujoco.mj_step(model, data, round(hold_s / model.opt.timestep))
    waited = _ball_in_pad(model, data)
    _set(model, data, {fetch.BASE_JOINTS[0]: 0.5})
    mujoco.mj_step(model, data, 1500)
    carried = _ball_in_pad(model, data)
    gap = sum(data.qpos[model.joint(j).qposadr[0]] for j in fetch.FINGER_JOINTS)
    return {
        "lift_slip": float(np.linalg.norm(lifted - held)),
        "hold_slip": float(np.linalg.norm(waited - lifted)),
        "carry_slip": float(np.linalg.norm(carried - held)),
        "squeeze": float(2 * BALL - (gap + 0.0018)),  # inner pad faces are 0.9 mm off the centre at q = 0
        "reach_error": reach_error,
        "height": float(data.body("ball").xpos[2] - (TABLE + BALL)),
    }


def test_held_ball_survives_lift_and_carry():
    got = grasp_lift_carry()
    assert got["reach_error"] < 0.008  # the pad site is where the IK put it
    assert got["height"] > 0.14 and got["carry_slip"] < 0.005, got


def test_finger_force_limit_stops_the_fingers_sinking_in():
    assert grasp_lift_carry()["squeeze"] < 0.006  # soft contact: a few mm
    unlimited = grasp_lift_carry(force_limit=False, finger_priority=False)  # upstream: the pads nearly meet inside
    assert unlimited["squeeze"] > 0.02, unlimited


def test_elliptic_cone_cuts_the_slip():
    assert grasp_lift_carry()["carry_slip"] < 0.005
    loose = grasp_lift_carry(elliptic=False, finger_priority=False)
    assert loose["carry_slip"] > 0.01 and loose["height"] < 0.135, loose


def test_finger_priority_stops_the_creep():
    assert grasp_lift_carry(hold_s=20.0)["hold_slip"] < 0.001  # 0.5 mm measured
    assert grasp_lift_carry(hold_s=20.0, finger_priority=False)["hold_slip"] > 0.002  # 3.1 mm: the mean's softness


def _roll_error(spring: bool) -> float:
    model = _world(roll_spring=spring)
    data = mujoco.MjData(model)
    joint = f"{fetch.PREFIX}forearm_roll_joint"
    _set(model, data, {joint: 1.0})
    mujoco.mj_step(model, data, 1500)
    return abs(float(data.qpos[model.joint(joint).qposadr[0]]) - 1.0)


def test_forearm_roll_holds_its_target_without_the_spring():
    assert _roll_error(spring=False) < 0.003
    assert _roll_error(spring=True) > 0.01  # upstream's spring pulls it back towards 0


def test_roll_joints_are_limited():
    model = _world()
    for roll in ("upperarm_roll", "forearm_roll", "wrist_roll"):
        joint = model.joint(f"{fetch.PREFIX}{roll}_joint")
        assert joint.limited and joint.range[1] == pytest.approx(mjfetch.ROLL_RANGE)
