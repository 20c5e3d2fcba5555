"""One loaded scene in MuJoCo: stepping, the shared state format, position targets, rendering.

Objects are the free bodies (named after their USD prims); joints are every other joint (the
robot's). Free-joint angular velocity is body-frame in MuJoCo and world-frame in :class:`SimState`.
"""

from __future__ import annotations

from pathlib import Path

import mujoco
import numpy as np

from housebench.robot import fetch
from housebench.sim.backend import View
from housebench.sim.mujoco.bodies import HULL_GROUP
from housebench.sim.mujoco.looks import CEILING_GROUP
from housebench.state import FINGERS, HOUSE_CONTACT, ObjectState, Observation, SimState

ROBOT_CAMERAS = ("head", "third")  # the robot's head camera and a view from behind and above it
# What get_physics_state() saves: MuJoCo's integration state (time, qpos, qvel, act, history, plugin state,
# the solver's warm start, controls, applied forces, mocap, active equalities). The full physics alone
# (mjSTATE_FULLPHYSICS) leaves out the warm start, which the iterative solver starts from, and the controls,
# which an action that names only some actuators keeps: both are needed for a bitwise replay.
PHYSICS_SPEC = mujoco.mjtState.mjSTATE_INTEGRATION
# MuJoCo's island sleeping (the scenes enable it) keeps which kinematic trees sleep outside that state: a
# restored step that woke a sleeping tree would not replay bitwise. These MjData fields are saved with it.
SLEEP_FIELDS = (
    "tree_asleep",
    "tree_awake",
    "body_awake",
    "body_awake_ind",
    "parent_awake_ind",
    "dof_awake_ind",
    "ntree_awake",
    "nbody_awake",
    "nparent_awake",
    "nv_awake",
)


def _rotate(quat: np.ndarray, vec: np.ndarray, inverse: bool = False) -> np.ndarray:
    out = np.zeros(3)
    q = quat.copy()
    if inverse:
        q[1:] *= -1
    mujoco.mju_rotVecQuat(out, vec, q)
    return out


class MujocoSimulation:
    """A :class:`housebench.sim.backend.Simulation` over a compiled model, reset to keyframe 0."""

    def __init__(self, model: mujoco.MjModel, cache_file: Path | None = None, cache_hit: bool = False) -> None:
        self.model, self.data = model, mujoco.MjData(model)
        self.cache_file, self.cache_hit = cache_file, cache_hit
        self.timestep = float(model.opt.timestep)
        self._renderers: dict[tuple[int, int], mujoco.Renderer] = {}
        self._free, self._joints = {}, {}
        for j in range(model.njnt):
            name = model.joint(j).name
            if model.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE:
                self._free[name] = (int(model.jnt_qposadr[j]), int(model.jnt_dofadr[j]))
            else:
                self._joints[name] = int(model.jnt_qposadr[j])
        self._joint_adr = np.array(list(self._joints.values()), dtype=int)
        self._actuators = {model.actuator(a).name: a for a in range(model.nu)}
        self._dofs = {model.joint(j).name: int(model.jnt_dofadr[j]) for j in range(model.njnt)}
        self._robot = [name for name in self._joints if name.startswith(fetch.PREFIX)]  # in the state's order
        self._robot_dofs = np.array([self._dofs[name] for name in self._robot], dtype=int)
        self._parts = [name for name in self._joints if not name.startswith(fetch.PREFIX)]
        self._labels = _body_labels(model)
        self._fingers = {
            side: model.body(name).id for side, name in fetch.FINGER_BODIES.items() if _has_body(model, name)
        }
        self.reset()

    def reset(self) -> None:
        """Back to the initial state (keyframe 0 when the model has one)."""
        if self.model.nkey:
            mujoco.mj_resetDataKeyframe(self.model, self.data, 0)
        else:
            mujoco.mj_resetData(self.model, self.data)
        mujoco.mj_forward(self.model, self.data)

    @property
    def time(self) -> float:
        return float(self.data.time)

    def step(self, n: int = 1) -> None:
        mujoco.mj_step(self.model, self.data, n)

    def get_state(self) -> SimState:
        """The state as plain floats (built without re-validation: every value comes from MuJoCo's arrays)."""
        d = self.data
        objects = {}
        for name, (q, v) in self._free.items():
            quat = d.qpos[q + 3 : q + 7]
            objects[name] = ObjectState.model_construct(
                pos=tuple(d.qpos[q : q + 3].tolist()),
                quat=tuple(quat.tolist()),
                linvel=tuple(d.qvel[v : v + 3].tolist()),
                angvel=tuple(_rotate(quat, d.qvel[v + 3 : v + 6]).tolist()),
            )
        joints = dict(zip(self._joints, d.qpos[self._joint_adr].tolist()))
        return SimState.model_construct(
            time=float(d.time), objects=objects, joints=joints, temperatures_c={}, contacts=self._finger_contacts()
        )

    def _finger_contacts(self) -> dict[str, list[str]]:
        """For each robot finger, the sorted labels of the bodies its geoms touch now."""
        if not self._fingers:
            return {}
        bodies = self.model.geom_bodyid[self.data.contact.geom]  # (ncon, 2): the bodies of each contact
        touched = {}
        for side, finger in self._fingers.items():
            others = np.concatenate([bodies[bodies[:, 0] == finger, 1], bodies[bodies[:, 1] == finger, 0]])
            touched[side] = sorted({self._labels[b] for b in others.tolist()} - {None})
        return touched

    def observe(self, cameras: tuple[str, ...] = (), size: tuple[int, int] = (320, 240)) -> Observation:
        """The robot's joints, base, gripper and finger contacts, every prop and part, and the images of
        ``cameras`` (``head`` or ``third``; RGB as ``<camera>/rgb``, depth in metres as ``<camera>/depth``)."""
        state = self.get_state()
        robot = {name: state.joints[name] for name in self._robot}
        site = self.data.site(fetch.GRIP_SITE)
        quat = np.zeros(4)
        mujoco.mju_mat2Quat(quat, site.xmat)
        base = tuple(robot.get(name, 0.0) for name in fetch.BASE_JOINTS)
        images = {}
        for camera in cameras:
            if camera not in ROBOT_CAMERAS:
                raise ValueError(f"observe: unknown camera {camera!r} (known: {', '.join(ROBOT_CAMERAS)})")
            images[f"{camera}/rgb"] = self.render(camera, *size)
            images[f"{camera}/depth"] = self.render(camera, *size, depth=True)
        return Observation(
            time=state.time,
            joints=robot,
            joint_velocities=dict(zip(self._robot, self.data.qvel[self._robot_dofs].tolist())),
            base=base,
            ee_pos=tuple(site.xpos.tolist()),
            ee_quat=tuple(quat.tolist()),
            gripper_opening=sum(robot.get(name, 0.0) for name in fetch.FINGER_JOINTS),
            finger_contacts={side: tuple(state.contacts.get(side, ())) for side in FINGERS},
            objects=state.objects,
            parts={name: state.joints[name] for name in self._parts},
            temperatures_c={},
            state=state,
            images=images,
        )

    def set_state(self, state: SimState) -> None:
        """Set what ``state`` names; joint values also become the targets of their actuators."""
        d = self.data
        for name, obj in state.objects.items():
            q, v = self._free[name]
            d.qpos[q : q + 3], d.qpos[q + 3 : q + 7] = obj.pos, obj.quat
            d.qvel[v : v + 3] = obj.linvel or (0.0, 0.0, 0.0)
            d.qvel[v + 3 : v + 6] = _rotate(np.array(obj.quat), np.array(obj.angvel or (0, 0, 0)), inverse=True)
        for name, value in state.joints.items():
            d.qpos[self._joints[name]] = value
            if name in self._actuators:
                d.ctrl[self._actuators[name]] = value
        d.time = state.time
        mujoco.mj_forward(self.model, d)

    @property
    def physics_state_size(self) -> int:
        """The length of :meth:`get_physics_state`'s vector for this model."""
        return int(mujoco.mj_stateSize(self.model, PHYSICS_SPEC)) + sum(
            np.asarray(getattr(self.data, name)).size for name in SLEEP_FIELDS
        )

    def get_physics_state(self) -> np.ndarray:
        """Everything MuJoCo needs to continue exactly from here, float64: the integration state
        (:data:`PHYSICS_SPEC`) followed by the island sleep state (:data:`SLEEP_FIELDS`, small integers)."""
        state = np.empty(int(mujoco.mj_stateSize(self.model, PHYSICS_SPEC)))
        mujoco.mj_getState(self.model, self.data, state, PHYSICS_SPEC)
        sleep = [np.asarray(getattr(self.data, name), dtype=np.float64).reshape(-1) for name in SLEEP_FIELDS]
        return np.concatenate([state, *sleep])

    def set_physics_state(self, state: np.ndarray) -> None:
        """Restore a :meth:`get_physics_state` vector of this model: stepping on from it is bitwise the same
        as stepping on from where it was taken (same build). The derived quantities (body and site poses,
        inertias, contacts) are computed by a forward pass with every body awake, as a sleeping body keeps
        those of the step it fell asleep in and they are not part of MuJoCo's state; then the sleep state and
        the integration state (the forward pass leaves its own warm start) are set."""
        state = np.asarray(state, dtype=np.float64)
        if state.shape != (self.physics_state_size,):
            raise ValueError(f"physics state: {state.shape} values, this model takes {self.physics_state_size}")
        n = int(mujoco.mj_stateSize(self.model, PHYSICS_SPEC))
        fresh = mujoco.MjData(self.model)  # every tree awake
        mujoco.mj_setState(self.model, fresh, state[:n], PHYSICS_SPEC)
        mujoco.mj_forward(self.model, fresh)
        at = n
        for name in SLEEP_FIELDS:
            field = getattr(fresh, name)
            size = np.asarray(field).size
            values = state[at : at + size].astype(np.int64)
            if np.ndim(field):
                field[:] = values
            else:
                setattr(fresh, name, int(values[0]))
            at += size
        mujoco.mj_setState(self.model, fresh, state[:n], PHYSICS_SPEC)
        mujoco.mj_copyData(self.data, self.model, fresh)

    @property
    def actuator_names(self) -> tuple[str, ...]:
        """The actuators in the order of MuJoCo's control vector (each named after the joint it drives)."""
        return tuple(self._actuators)

    def get_control(self) -> np.ndarray:
        """The current actuator targets, in :attr:`actuator_names` order."""
        return self.data.ctrl.copy()

    def set_control(self, targets: dict[str, float]) -> None:
        for name, value in targets.items():
            if name not in self._actuators:
                raise KeyError(f"no actuator {name!r}; known: {sorted(self._actuators)}")
            self.data.ctrl[self._actuators[name]] = value

    def render(
        self,
        camera: str | View | None = None,
        width: int = 640,
        height: int = 480,
        depth: bool = False,
        collision: bool = False,
    ) -> np.ndarray:
        """RGB image (or, with ``depth``, metres as float32) from the robot's ``head`` or ``third`` camera, a
        camera of the scene by name, a :class:`View`, or a free camera over the whole scene; ``collision``:
        the colliders (mesh hulls, boxes, spheres) instead of the visual meshes."""
        renderer = self._renderers.get((width, height))
        if renderer is None:
            renderer = self._renderers[(width, height)] = mujoco.Renderer(self.model, height, width)
        if camera == "head":
            camera = fetch.HEAD_CAMERA
        elif camera == "third":
            base = tuple(float(self.data.qpos[self._joints[joint]]) for joint in fetch.BASE_JOINTS)
            camera = View(*fetch.third_person_view(base))
        option = mujoco.MjvOption()
        option.geomgroup[CEILING_GROUP] = isinstance(camera, str)  # a free camera looks in from above the ceilings
        if collision:
            option.geomgroup[:] = 0
            option.geomgroup[[0, HULL_GROUP]] = 1
        if isinstance(camera, str):
            renderer.update_scene(self.data, camera=camera, scene_option=option)
        else:
            view = camera or View(tuple(self.model.stat.center), 1.3 * float(self.model.stat.extent), 135.0, -40.0)
            cam = mujoco.MjvCamera()
            cam.lookat[:] = view.lookat
            cam.distance, cam.azimuth, cam.elevation = view.distance, view.azimuth, view.elevation
            renderer.update_scene(self.data, camera=cam, scene_option=option)
        if not depth:
            return renderer.render().copy()
        renderer.enable_depth_rendering()
        try:
            return renderer.render().astype(np.float32)
        finally:
            renderer.disable_depth_rendering()

    def close(self) -> None:
        for renderer in self._renderers.values():
            renderer.close()
        self._renderers.clear()


def _has_body(model: mujoco.MjModel, name: str) -> bool:
    return mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY, name) >= 0


def _body_labels(model: mujoco.MjModel) -> list[str | None]:
    """What a contact with each body means: the prop or part it belongs to (the name of the free or part
    joint at or above it), ``house`` for static bodies, None for the robot's own bodies."""
    labels: list[str | None] = [HOUSE_CONTACT] * model.nbody
    for body in range(1, model.nbody):
        owner, label = body, HOUSE_CONTACT
        while owner > 0:
            joints = range(model.body_jntadr[owner], model.body_jntadr[owner] + model.body_jntnum[owner])
            names = [model.joint(j).name for j in joints]
            if any(name.startswith(fetch.PREFIX) for name in names) or model.body(owner).name.startswith(fetch.PREFIX):
                label = None
                break
            if names:
                label = names[0]
                break
            owner = int(model.body_parentid[owner])
        labels[body] = label
    return labels
