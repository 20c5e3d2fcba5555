"""A component's start state applied to an episode just reset: a recorded state, then the arranged fields.

Arranging is not teleporting a skill's work: it happens before the start counts (time is set back to 0
afterwards) and a held object is still held by physics. It is set with its centre at the pad (the centre of
the finger pads), turned so its narrower side lies across the fingers, the fingers opened a few millimetres
wider than it and their targets closed; ``settle_s`` of physics then lets them close on it (at the fingers'
60 N) and the props come to rest.
"""

from __future__ import annotations

import json
import math

import numpy as np

from housebench.annotations.schema import SceneAnnotations
from housebench.jsonfile import SpecError, load_model
from housebench.robot.fetch import BASE_JOINTS, FINGER_JOINTS, HEAD_JOINTS, HOME, TORSO_JOINT
from housebench.robot.kinematics import ARM, FetchIK, top_down
from housebench.skills.tuning import tuning
from housebench.state import ObjectState, SimState
from housebench.tasks import geometry

from .scenario import Component, Start, components

FINGER_SLACK = 0.004  # m each finger stands off a held object before it closes
PIN_S = 1.5  # s of physics at most for the fingers to close on a held object kept in place
_IK: FetchIK | None = None


def yaw_quat(yaw: float) -> tuple[float, float, float, float]:
    return (math.cos(yaw / 2), 0.0, 0.0, math.sin(yaw / 2))


def _ik() -> FetchIK:
    global _IK  # one per process: building mink's configuration takes a while
    if _IK is None:
        _IK = FetchIK()
    return _IK


def arm_joints(arm, base: tuple[float, float, float], now: dict[str, float]) -> dict[str, float]:
    """Torso and arm joints of a named pose (``tuck``; ``carry``: the pad where the skills carry, pointing
    down, fingers across the heading; ``ready``: the skills' IK seed) or the given joint values."""
    if isinstance(arm, dict):
        return dict(arm)
    tuck = {j: HOME[j] for j in ARM}
    if arm == "tuck":
        return tuck
    x, y, yaw = base
    if arm == "ready":
        target, rot = (x + 0.6 * math.cos(yaw), y + 0.6 * math.sin(yaw), 1.0), top_down(yaw + math.pi / 2)
    else:
        c, s = math.cos(yaw), math.sin(yaw)
        carry = tuning().pick.carry
        target = (x + c * carry[0] - s * carry[1], y + s * carry[0] + c * carry[1], carry[2])
        rot = top_down(yaw + math.pi / 2)
    start = {**now, **dict(zip(BASE_JOINTS, base)), **tuck}
    start.update({TORSO_JOINT: 0.3})  # the IK's seed: torso up, as the skills' ``ready_arm``
    result = _ik().solve(start, target, rot, max_iters=300)
    if not result.ok(0.01, 0.08):
        raise ValueError(f"arm: no IK solution for '{arm}' at base {base} (error {result.pos_err:.3f} m)")
    return {j: result.joints[j] for j in ARM}


def held_pose(asset, joints: dict[str, float]) -> tuple[ObjectState, float]:
    """The pose that puts ``asset``'s box centre at the pad, upright, its narrower side across the fingers,
    and that width."""
    pad, rot = _ik().fk(joints)
    closing = math.atan2(rot[1, 1], rot[0, 1])  # world yaw of the fingers' closing axis (the pad's y)
    sx, sy, _ = asset.size
    yaw = closing if sx <= sy else closing + math.pi / 2
    quat = yaw_quat(yaw)
    offset = geometry.centre(ObjectState(pos=(0.0, 0.0, 0.0), quat=quat), asset)
    pos = tuple(float(v) for v in np.asarray(pad) - offset)
    return ObjectState(pos=pos, quat=quat), float(min(sx, sy))


def _close_on(sim, name: str, pose: ObjectState) -> None:
    """Step the physics with ``name`` kept at ``pose`` (at rest) until both fingers touch it: the fingers
    close slower than it would fall out of them."""
    for _ in range(round(PIN_S / sim.timestep) // 10):
        sim.step(10)
        sim.set_state(SimState(time=sim.time, objects={name: pose}))
        contacts = sim.get_state().contacts
        if all(name in contacts.get(side, ()) for side in ("left", "right")):
            return


def _parts(start: Start, scene: SceneAnnotations, where) -> dict[str, float]:
    known = {p.name: p for p in scene.house.articulated}
    out = {}
    for name, value in start.parts.items():
        if name not in known:
            raise SpecError(f"{where('parts.' + name)}: no articulated part '{name}' in the house")
        part = known[name]
        q = part.open if value == "open" else part.closed if value == "closed" else float(value)
        lo, hi = part.limits
        if not lo - 1e-6 <= q <= hi + 1e-6:
            raise SpecError(f"{where('parts.' + name)}: {q} is outside the joint's limits [{lo}, {hi}]")
        out[name] = q
    return out


def recorded_state(component: Component, start: Start, where) -> SimState:
    """The SimState file a start names (``from: {state: ...}``)."""
    path = component.resolve(start.source.state)
    try:
        state = load_model(SimState, path)
    except (SpecError, OSError, json.JSONDecodeError) as err:
        raise SpecError(f"{where('from.state')}: {str(err).splitlines()[0]}") from None
    return state


def restore_recording(episode, component: Component, start: Start, where) -> None:
    """The episode put at step ``from.step`` of the recorded episode ``from.recording`` (the demos package's
    reader and restore)."""
    try:
        from housebench.demos.recording import load_recording
        from housebench.demos.replay import restore
    except ImportError:
        raise SpecError(f"{where('from.recording')}: recordings need housebench.demos (not installed)") from None
    path = component.resolve(start.source.recording)
    try:
        rec = load_recording(path)
    except ValueError as err:
        raise SpecError(f"{where('from.recording')}: {err}") from None
    task, variant = str(rec.meta.get("task")), str(rec.meta.get("variant"))
    scene = f"{task}/{variant}"
    recorded_component = components().get(task)  # a recorded component episode: its start's base scene
    if recorded_component is not None and any(s.id == variant for s in recorded_component.spec.starts):
        scene = recorded_component.start(variant)[1].scene
    if scene != start.scene:
        raise SpecError(f"{where('from.recording')}: recorded in {scene}, the start's scene is {start.scene}")
    if start.source.step > rec.steps:
        raise SpecError(f"{where('from.step')}: {start.source.step} is past the recording's {rec.steps} steps")
    restore(episode, rec, start.source.step)


def apply_start(episode, component: Component, index: int) -> None:
    """``component``'s start ``index`` applied to ``episode`` (reset, with its thermal model), then settled;
    the simulated time set back to 0."""
    start = component.spec.starts[index]

    def where(key: str = "") -> str:
        return component.where(index, key)

    sim, scene = episode.sim, episode.scene
    held: str | None = None
    if start.source is not None and start.source.recording is not None:
        restore_recording(episode, component, start, where)
    elif start.source is not None:
        state = recorded_state(component, start, where)
        unknown = sorted(set(state.objects) - set(scene.objects))
        if unknown:
            raise SpecError(f"{where('from.state')}: objects {unknown} are not in {start.scene}")
        sim.set_state(state.model_copy(update={"contacts": {}, "temperatures_c": {}}))
        for name, value in state.temperatures_c.items():
            if name in episode.thermal.temperatures_c:
                episode.thermal.temperatures_c[name] = value
        both = set(state.contacts.get("left", ())) & set(state.contacts.get("right", ()))
        held = next((n for n in sorted(both) if n in scene.objects), None)  # held when recorded: keep the grip

    now = sim.get_state()
    joints: dict[str, float] = {}
    robot = start.robot
    if robot is not None:
        base = robot.base or tuple(now.joints[j] for j in BASE_JOINTS)
        joints.update(zip(BASE_JOINTS, base))
        try:
            joints.update(arm_joints(robot.arm, base, now.joints))
        except ValueError as err:
            raise SpecError(f"{where('robot')}: {err}") from None
        if robot.torso is not None:
            joints[TORSO_JOINT] = robot.torso
        if robot.head is not None:
            joints.update(zip(HEAD_JOINTS, robot.head))
    joints.update(_parts(start, scene, where))
    objects: dict[str, ObjectState] = {}
    for name, pose in start.props.items():
        if name not in scene.objects:
            raise SpecError(f"{where('props.' + name)}: no object '{name}' in {start.scene}")
        objects[name] = ObjectState(pos=pose.pos, quat=pose.quat)
    gripper = robot.gripper if robot is not None and robot.gripper is not None else None
    if start.held is not None:
        if start.held not in scene.objects:
            raise SpecError(f"{where('held')}: no object '{start.held}' in {start.scene}")
        held = start.held
        pose, width = held_pose(scene.objects[held].asset, {**now.joints, **joints})
        if width + 2 * FINGER_SLACK > 0.1:
            raise SpecError(f"{where('held')}: '{held}' is {width:.3f} m across, wider than the open fingers")
        objects[held] = pose
        joints.update(dict.fromkeys(FINGER_JOINTS, width / 2 + FINGER_SLACK))
    elif robot is not None:
        joints.update(dict.fromkeys(FINGER_JOINTS, (0.1 if gripper is None else gripper) / 2))
    if joints or objects:
        sim.set_state(SimState(time=now.time, objects=objects, joints=joints))  # also the actuators' targets
    if held is not None:  # close on it: the fingers' own force holds it, as after a pick
        sim.set_control(dict.fromkeys(FINGER_JOINTS, 0.0 if gripper is None else gripper / 2))
        if start.held is not None:
            _close_on(sim, held, objects[held])
    if start.settle > 0:
        sim.step(max(1, round(start.settle / sim.timestep)))
    sim.set_state(SimState(time=0.0))  # the start counts from here
