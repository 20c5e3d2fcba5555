"""One loaded scene in Newton, in the shared state format.

Names follow the MuJoCo backend: props by their prim name (``/World/Props/apple`` -> ``apple``), part joints
by their path under ``/World/House`` without ``_joint`` (``fridge/door``), robot joints ``robot0:<name>``.
The robot's base joints move it in its prim's frame (q = 0 at the start pose); this class turns them into
world x, y and yaw, as the MuJoCo backend's base joints are. Finger contacts are what each finger's body
touches in the last step (a prop, a part such as ``fridge/door``, or ``house``), as in the MuJoCo backend. Not
here: images (the scripted policy uses none; render with the MuJoCo backend).
"""

from __future__ import annotations

import math
from pathlib import Path

import newton
import numpy as np
from pxr import Gf, Usd, UsdGeom
from scipy.spatial.transform import Rotation

from housebench.robot.fetch import BASE_JOINTS, FINGER_BODIES, FINGER_JOINTS, HOME, PREFIX
from housebench.sim.backend import View
from housebench.state import FINGERS, HOUSE_CONTACT, ObjectState, Observation, SimState
from housebench.usd.paths import HOUSE_ROOT, PROPS_PATH, ROBOT_PATH

GRIP = "grip"  # the gripper frame's prim (the MJCF site ``robot0:grip``) in the robot's USD


def _name(label: str) -> str | None:
    """The shared-state name of a Newton joint labelled by its USD path (None: not one we name)."""
    if label.startswith(ROBOT_PATH + "/"):
        return PREFIX + label.rsplit("/", 1)[1]
    if label.startswith(HOUSE_ROOT + "/") and label.endswith("_joint"):
        return label[len(HOUSE_ROOT) + 1 : -len("_joint")]
    return None


def _contact_label(label: str) -> str | None:
    """What touching the Newton body labelled ``label`` means: the prop, the part (``fridge/door``), or None
    for the robot's own links."""
    if label.startswith(PROPS_PATH + "/"):
        return label[len(PROPS_PATH) + 1 :].split("/", 1)[0]
    if label.startswith(HOUSE_ROOT + "/"):
        return label[len(HOUSE_ROOT) + 1 :]
    return None if label.startswith(ROBOT_PATH + "/") else HOUSE_CONTACT


def _robot_start(stage: Usd.Stage) -> tuple[float, float, float]:
    xf = Gf.Transform(UsdGeom.Xformable(stage.GetPrimAtPath(ROBOT_PATH)).ComputeLocalToWorldTransform(0))
    rot = xf.GetRotation().GetQuat()
    w, z = rot.GetReal(), rot.GetImaginary()[2]  # a rotation about Z only
    return float(xf.GetTranslation()[0]), float(xf.GetTranslation()[1]), 2 * math.atan2(z, w)


def _grip(stage: Usd.Stage, bodies: list[str]) -> tuple[int, np.ndarray, Rotation]:
    """The Newton body that carries the gripper frame (fixed links are merged), and the frame in it."""
    grip = next(p for p in Usd.PrimRange(stage.GetPrimAtPath(ROBOT_PATH)) if p.GetName() == GRIP)
    body = grip.GetParent()
    while str(body.GetPath()) not in bodies:
        body = body.GetParent()
    world = UsdGeom.Xformable(body).ComputeLocalToWorldTransform(0).RemoveScaleShear()
    local = Gf.Transform(UsdGeom.Xformable(grip).ComputeLocalToWorldTransform(0) * world.GetInverse())
    quat = local.GetRotation().GetQuat()
    rot = Rotation.from_quat([*quat.GetImaginary(), quat.GetReal()])
    return bodies.index(str(body.GetPath())), np.array(local.GetTranslation()), rot


class NewtonSimulation:
    """A :class:`housebench.sim.backend.Simulation` over a finalized Newton model and its solver."""

    def __init__(
        self, model: newton.Model, solver, timestep: float, stage_path: Path, pipeline: newton.CollisionPipeline | None
    ) -> None:
        self.model, self.solver, self.timestep, self.pipeline = model, solver, timestep, pipeline
        self.contacts = pipeline.contacts() if pipeline else None
        stage = Usd.Stage.Open(str(stage_path))
        self.start = _robot_start(stage)
        self._grip = _grip(stage, list(model.body_label))
        q_start, qd_start = model.joint_q_start.numpy(), model.joint_qd_start.numpy()
        types, children = model.joint_type.numpy(), model.joint_child.numpy()
        self._free: dict[str, tuple[int, int, int]] = {}  # prop -> (q, qd, body)
        self._joints: dict[str, tuple[int, int]] = {}  # name -> (q, qd)
        for j, label in enumerate(model.joint_label):
            body = model.body_label[children[j]]
            if types[j] == newton.JointType.FREE and body.startswith(PROPS_PATH + "/"):
                self._free[body.rsplit("/", 1)[1]] = (int(q_start[j]), int(qd_start[j]), int(children[j]))
            elif (name := _name(label)) is not None:
                self._joints[name] = (int(q_start[j]), int(qd_start[j]))
        labels = list(model.body_label)
        self._labels = [_contact_label(label) for label in labels] + [HOUSE_CONTACT]  # index -1: the world
        self._fingers = {
            side: next(i for i, label in enumerate(labels) if label.rsplit("/", 1)[-1] == name.removeprefix(PREFIX))
            for side, name in FINGER_BODIES.items()
        }
        self._shape_body = model.shape_body.numpy()
        self._time = 0.0
        self.reset()

    def reset(self) -> None:
        """The stage's poses, the robot in its home pose holding it (its drives' targets)."""
        self.state, self.next_state = self.model.state(), self.model.state()
        self.control = self.model.control()
        self._time = 0.0
        self.set_state(SimState(joints={**dict(zip(BASE_JOINTS, self.start)), **HOME}))

    @property
    def time(self) -> float:
        return self._time

    def step(self, n: int = 1) -> None:
        for _ in range(n):
            self.state.clear_forces()
            if self.pipeline:
                self.pipeline.collide(self.state, self.contacts)
            self.solver.step(self.state, self.next_state, self.control, self.contacts, self.timestep)
            self.state, self.next_state = self.next_state, self.state
        self._time += n * self.timestep

    def contact_count(self) -> int:
        """Contacts in the last step (MuJoCo's active ones, or every one Newton's pipeline generated)."""
        if self.contacts is not None:
            return int(self.contacts.rigid_contact_count.numpy()[0])
        return int(self.solver.mj_data.ncon)

    def _to_local(self, joints: dict[str, float]) -> dict[str, float]:
        """World base x, y, yaw -> the base joints' values in the robot prim's frame (others unchanged)."""
        if not set(BASE_JOINTS) & set(joints):
            return joints
        x0, y0, yaw0 = self.start
        q = self._get_q()
        x, y, yaw = (joints.get(n, self._to_world(q)[n]) for n in BASE_JOINTS)
        c, s = math.cos(yaw0), math.sin(yaw0)
        local = (c * (x - x0) + s * (y - y0), -s * (x - x0) + c * (y - y0), yaw - yaw0)
        return {**joints, **dict(zip(BASE_JOINTS, local))}

    def _to_world(self, q: np.ndarray) -> dict[str, float]:
        x0, y0, yaw0 = self.start
        qx, qy, qyaw = (float(q[self._joints[n][0]]) for n in BASE_JOINTS)
        c, s = math.cos(yaw0), math.sin(yaw0)
        return dict(zip(BASE_JOINTS, (x0 + c * qx - s * qy, y0 + s * qx + c * qy, yaw0 + qyaw)))

    def _get_q(self) -> np.ndarray:
        return self.state.joint_q.numpy()

    def get_state(self) -> SimState:
        q, body_q, body_qd = self._get_q(), self.state.body_q.numpy(), self.state.body_qd.numpy()
        objects = {
            name: ObjectState(
                pos=tuple(body_q[b, :3].tolist()),
                quat=(float(body_q[b, 6]), *body_q[b, 3:6].tolist()),  # Newton: x, y, z, w
                linvel=tuple(body_qd[b, :3].tolist()),
                angvel=tuple(body_qd[b, 3:].tolist()),
            )
            for name, (_, _, b) in self._free.items()
        }
        joints = {name: float(q[i]) for name, (i, _) in self._joints.items()}
        return SimState(
            time=self._time, objects=objects, joints={**joints, **self._to_world(q)}, contacts=self._finger_contacts()
        )

    def _contact_bodies(self) -> np.ndarray:
        """(n, 2) Newton body indices (-1: the world) of the last step's contacts."""
        if self.contacts is not None:
            n = int(self.contacts.rigid_contact_count.numpy()[0])
            shapes = np.stack(
                [self.contacts.rigid_contact_shape0.numpy()[:n], self.contacts.rigid_contact_shape1.numpy()[:n]], 1
            )
            return self._shape_body[shapes]
        data, mj_model = self.solver.mj_data, self.solver.mj_model
        to_newton = self.solver.mjc_body_to_newton.numpy()[0]
        return to_newton[mj_model.geom_bodyid[data.contact.geom[: data.ncon]]]

    def _finger_contacts(self) -> dict[str, list[str]]:
        """For each finger, the sorted labels of what its body touches now."""
        bodies = self._contact_bodies()
        touched = {}
        for side, finger in self._fingers.items():
            others = np.concatenate([bodies[bodies[:, 0] == finger, 1], bodies[bodies[:, 1] == finger, 0]])
            touched[side] = sorted({self._labels[b] for b in others.tolist()} - {None})
        return touched

    def set_state(self, state: SimState) -> None:
        """Set what ``state`` names; joint values also become their drives' targets."""
        q, qd = self._get_q(), self.state.joint_qd.numpy()
        target = self.control.joint_target_q.numpy()
        for name, obj in state.objects.items():
            i, v, _ = self._free[name]
            q[i : i + 3], q[i + 3 : i + 7] = obj.pos, (*obj.quat[1:], obj.quat[0])
            qd[v : v + 3], qd[v + 3 : v + 6] = obj.linvel or (0, 0, 0), obj.angvel or (0, 0, 0)
        for name, value in self._to_local(state.joints).items():
            i, v = self._joints[name]
            q[i] = target[i] = value
            qd[v] = 0.0
        self.state.joint_q.assign(q)
        self.state.joint_qd.assign(qd)
        self.control.joint_target_q.assign(target)
        newton.eval_fk(self.model, self.state.joint_q, self.state.joint_qd, self.state)
        self._time = state.time

    def set_control(self, targets: dict[str, float]) -> None:
        unknown = sorted(set(targets) - set(self._joints))
        if unknown:
            raise KeyError(f"no actuator {unknown[0]!r}; known: {sorted(self._joints)}")
        target = self.control.joint_target_q.numpy()
        for name, value in self._to_local(targets).items():
            target[self._joints[name][0]] = value
        self.control.joint_target_q.assign(target)

    def observe(self, cameras: tuple[str, ...] = (), size: tuple[int, int] = (320, 240)) -> Observation:
        """The robot's joints and velocities (base in the world), the gripper frame, props and parts."""
        if cameras:
            raise NotImplementedError("the newton backend renders no camera images yet")
        state = self.get_state()
        robot = {name: value for name, value in state.joints.items() if name.startswith(PREFIX)}
        qd = self.state.joint_qd.numpy()
        velocities = {name: float(qd[self._joints[name][1]]) for name in robot}
        c, s = math.cos(self.start[2]), math.sin(self.start[2])
        vx, vy = (velocities[n] for n in BASE_JOINTS[:2])
        velocities.update(dict(zip(BASE_JOINTS[:2], (c * vx - s * vy, s * vx + c * vy))))
        body, offset, rot = self._grip
        pose = self.state.body_q.numpy()[body]
        frame = Rotation.from_quat(pose[3:7])
        ee = (frame * rot).as_quat()  # x, y, z, w
        return Observation(
            time=state.time,
            joints=robot,
            joint_velocities=velocities,
            base=tuple(robot[n] for n in BASE_JOINTS),
            ee_pos=tuple((pose[:3] + frame.apply(offset)).tolist()),
            ee_quat=(float(ee[3]), *map(float, ee[:3])),
            gripper_opening=sum(robot[n] for n in FINGER_JOINTS),
            finger_contacts={side: tuple(state.contacts.get(side, ())) for side in FINGERS},
            objects=state.objects,
            parts={name: value for name, value in state.joints.items() if name not in robot},
            temperatures_c={},
            state=state,
        )

    def render(
        self, camera: str | View | None = None, width: int = 640, height: int = 480, depth: bool = False
    ) -> np.ndarray:
        raise NotImplementedError("the newton backend renders nothing; render with the mujoco backend")

    def close(self) -> None:
        """Nothing to release."""
