"""The scene file says where the robot starts, read by Newton's USD importer alone (issue 31 item 4): a
settled scene of the small build loaded with ``newton.ModelBuilder().add_usd`` and Newton's, PhysX's and
MuJoCo's schema resolvers (``NewtonBackend.build``: the importer call and nothing else; not the backend's
simulation, which sets the home pose by hand), stepped one second with Newton's MuJoCo solver from the
model's own initial state and the joints' authored drive targets. The arm starts at the home
pose and stays there; before the scene authored it, every arm joint started at 0 (the wrist 0.96 m ahead of
the base) and the drives swung it back to the tuck, the wrist travelling 1.8 m in the first second.
Skipped where newton is not installed (run in a ``.[test,newton]`` venv); the authoring itself is checked
with pxr in the default suite (``tests/robot/test_scene_home_pose.py``)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

newton = pytest.importorskip("newton")

from housebench.robot.fetch import ARM_JOINTS, HOME, PREFIX, TORSO_JOINT, home_qpos  # noqa: E402
from housebench.robot.model import fetch_spec  # noqa: E402
from housebench.sim.newton import NewtonBackend  # noqa: E402

PAIR = ("put_fruit_in_container", "v000")
SECONDS = 1.0


def _home_wrist(start: tuple[float, float, float]) -> np.ndarray:
    """Where the MuJoCo backend's keyframe puts the wrist (the kinematic model at home, the base at ``start``)."""
    import mujoco

    model = fetch_spec().compile()
    data = mujoco.MjData(model)
    for name, value in home_qpos(start).items():
        data.qpos[model.joint(name.removeprefix(PREFIX)).qposadr[0]] = value
    mujoco.mj_kinematics(model, data)
    return data.xpos[model.body("wrist_roll_link").id].copy()


def test_newtons_importer_starts_the_arm_at_home_and_it_stays(built_layout):
    scene = built_layout.settled_scene(*PAIR)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model, dt = NewtonBackend().build(scene)  # newton.ModelBuilder().add_usd and finalize, nothing else
        solver = newton.solvers.SolverMuJoCo(model, use_mujoco_cpu=True, use_mujoco_contacts=True, enable_multiccd=True)
    q_start = model.joint_q_start.numpy()
    index = {label.rsplit("/", 1)[-1]: int(q_start[j]) for j, label in enumerate(model.joint_label)}
    labels = list(model.body_label)
    wrist = next(i for i, label in enumerate(labels) if label.endswith("/wrist_roll_link"))
    base = next(i for i, label in enumerate(labels) if label.endswith("/base_link"))
    props = [i for i, label in enumerate(labels) if label.startswith("/World/Props/")]
    q0 = model.joint_q.numpy()
    for name in (*ARM_JOINTS, TORSO_JOINT):
        assert q0[index[name.removeprefix(PREFIX)]] == pytest.approx(HOME[name], abs=1e-4), name

    state, next_state, control = model.state(), model.state(), model.control()
    body = state.body_q.numpy()
    start, base_pose, props0 = body[wrist, :3].copy(), body[base], body[props, :3].copy()
    yaw = 2 * math.atan2(base_pose[5], base_pose[6])  # x, y, z, qx, qy, qz, qw: a turn about z
    home = _home_wrist((float(base_pose[0]), float(base_pose[1]), yaw))
    assert start == pytest.approx(home, abs=0.001)  # tucked over the base, not 0.96 m ahead of it
    travel, last = 0.0, start
    for _ in range(round(SECONDS / dt)):
        state.clear_forces()
        solver.step(state, next_state, control, None, dt)
        state, next_state = next_state, state
        now = state.body_q.numpy()[wrist, :3].copy()
        travel += float(np.linalg.norm(now - last))
        last = now
    assert travel < 0.02, travel  # was 1.8 m with every arm joint starting at 0
    q = state.joint_q.numpy()
    for name in ARM_JOINTS:
        assert q[index[name.removeprefix(PREFIX)]] == pytest.approx(HOME[name], abs=0.01), name
    assert props and float(np.linalg.norm(state.body_q.numpy()[props, :3] - props0, axis=1).max()) < 0.001


def test_every_robot_link_starts_where_the_mujoco_backend_starts_it(built_layout):
    """Both backends on the same scene: each link Newton keeps (fixed links merged) sits as MuJoCo's body of
    the same name. The head tilt's MuJoCo ``ref`` (0.06 rad), once missing from the USD joint, tilted Newton's
    head camera 3.4 deg off MuJoCo's at the same joint value."""
    from scipy.spatial.transform import Rotation

    from housebench.sim.mujoco import MujocoBackend
    from housebench.usd.paths import ROBOT_PATH

    scene = built_layout.settled_scene(*PAIR)
    mj = MujocoBackend().load(scene)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nt = NewtonBackend().load(scene)
    poses = nt.state.body_q.numpy()
    links = {label.rsplit("/", 1)[-1]: i for i, label in enumerate(nt.model.body_label) if label.startswith(ROBOT_PATH)}
    links = {name: i for name, i in links.items() if name not in ("base_x", "base_y")}  # the USD's carriers
    assert {"head_tilt_link", "wrist_roll_link", "l_gripper_finger_link"} <= set(links)
    for name, i in links.items():
        body = mj.model.body(PREFIX + name).id
        assert poses[i, :3] == pytest.approx(mj.data.xpos[body], abs=1e-4), name
        w, x, y, z = mj.data.xquat[body]
        turn = Rotation.from_quat([x, y, z, w]).inv() * Rotation.from_quat(poses[i, 3:7])
        assert np.degrees(turn.magnitude()) < 0.01, name
