"""open and close a hinged door or a drawer by contact, closed loop on the measured joint value.

A door is moved along its arc in *sweeps*, each from one base stance with the base still:

- ``handle``: the fingers close round the handle bar (across it), the hand turns with the door;
- ``inner`` / ``outer``: the closed fingertips press the door's inner face (opening) or outer face
  (closing) at a radius near its free edge, the hand turning with the door.

``open`` pulls by the handle first, until the arm's reach ends or the door would turn past the robot (the
arm would wrap round it), then pushes the inner face on, to ``PUSH_SHORT`` short of ``open``; ``close``
pushes the outer face. Each sweep's stance is the one (of rings round the contact) from which the IK
follows the contact furthest along the arc, clear of the door (of its whole path for a pull, which swings
it towards the robot; of where it stands for a push, the carry arm included, which a push drives in
tucked when it starts so and unfolds at the stance), on the side it works from (a push's base facing the
contact, else turned from it: behind a door swung wide only a base side on has room for the carry arm
between the door and the wall); after each sweep the skill reads the part's joint value and sweeps again
from where the door really is, until it is open (at least ``OPEN_FRACTION`` of ``open``) or closed (within
``CLOSED_TOL``); no progress: ``STALLED`` with the measured value. A drawer is pulled by its handle along
its axis and pushed shut by its handle's face.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from housebench.annotations.schema import ArticulatedPart
from housebench.house.query import HouseQuery
from housebench.house.reach import candidates, near_cells
from housebench.house.stance import MARGIN, TOP_BOX, stance_free
from housebench.robot.kinematics import ARM
from housebench.skills.base import PartSkill, Reason, SkillContext, SkillFailure, SkillGen
from housebench.skills.grasp import FINGER_HALF
from housebench.skills.motion import TUCK, base_joints, cartesian, hold, ik, ready_arm, wrap
from housebench.skills.navigate import Navigate, obstacle_boxes, planner
from housebench.skills.pick import CLOSED, OPEN, approach, stance_search, to_carry
from housebench.skills.press import approach_rot
from housebench.state import Action, Observation
from housebench.tasks import goal as g

HANDLE_OUT = 0.008  # the pad centre this far out of the handle bar's centre, m (fingertips clear the panel)
TIP_GAP = 0.012  # pushing fingertips this far off the face before the sweep, m
PRESS_IN = 0.015  # ... and this far into it along the sweep (the door lags the hand), m
BACK_OFF = 0.10  # pre-contact distance along the face normal, m
FAR = 0.25  # a push first brings the hand this far off the face, m
ARC_STEP = 0.08  # rad between IK waypoints along an arc
OPEN_FRACTION = 0.8  # of the way to ``open`` that counts as open (the ``open`` predicate's default)
CLOSED_TOL = 0.05  # rad / m from closed that ends a close
MIN_SWEEP = 0.25  # rad a stance must cover to be used
SWEEP_SPEED = 0.35  # rad/s of the fastest arm joint along a sweep
BASE_CLEAR = 0.36  # m: the base centre keeps this from the door's swept path
STANCE_RINGS = (0.55, 0.65, 0.75, 0.85, 0.95)
STANCE_SPAN = 1.1  # rad: stances ring the contact's path over this much of the arc
ROUNDS = 4  # sweeps per skill at most
PUSH_SIDE = {"inner": 0.4, "outer": 0.1}  # m a push stance stands out on the side it pushes from (the elbow too)
PUSH_SHORT = 0.15  # rad short of ``open`` an opening push aims for
EDGE_IN = 0.035  # m: pushing fingertips this far in from the free edge
ARM_SPARE = 0.1  # m more round the carry arm a push stance keeps off the door (the arm unfolds there)
TURNS = (0.0, 0.6, -0.6, 1.2, -1.2)  # rad a push stance may turn from facing the contact (behind a door swung wide
# the carry arm fits only side on)
OUTSIDE = 0.3  # m: a handle pull keeps the base this far out on the door's outer side


@dataclass(frozen=True)
class Door:
    """A revolute part's geometry from its annotation: where a point of it is at any joint value."""

    part: ArticulatedPart

    @property
    def axis(self) -> np.ndarray:
        return np.asarray(self.part.axis, float)

    @property
    def pivot(self) -> np.ndarray:
        return np.asarray(self.part.pivot, float)

    @property
    def radial(self) -> np.ndarray:
        """Unit vector from the hinge towards the free edge, at the closed pose."""
        n = np.asarray(self.part.handle.normal, float)
        u = np.cross(n, self.axis)
        return u if np.dot(u, np.asarray(self.part.handle.center) - self.pivot) > 0 else -u

    @property
    def length(self) -> float:
        box = np.asarray(self.part.box, float).reshape(2, 3)
        corners = np.array([[box[i, 0], box[j, 1], box[0, 2]] for i in (0, 1) for j in (0, 1)])
        return float(np.max((corners - self.pivot) @ self.radial))

    @property
    def thickness(self) -> float:
        box = np.asarray(self.part.box, float).reshape(2, 3)
        n = np.abs(np.asarray(self.part.handle.normal, float))
        return float(np.dot(box[1] - box[0], n))

    def turn(self, v: np.ndarray, q: float) -> np.ndarray:
        a, angle = self.axis, q - self.part.closed
        c, s = math.cos(angle), math.sin(angle)
        return v * c + np.cross(a, v) * s + a * np.dot(a, v) * (1 - c)

    def normal(self, q: float) -> np.ndarray:
        return self.turn(np.asarray(self.part.handle.normal, float), q)

    def face_point(self, q: float, radius: float, z: float, inner: bool) -> np.ndarray:
        """A point of the outer (or inner) face ``radius`` from the hinge at height ``z``."""
        p = self.pivot + self.turn(self.radial * radius, q)
        p = p - self.normal(q) * (self.thickness if inner else 0.0)
        return np.array([p[0], p[1], z])

    def segment(self, q: float) -> tuple[np.ndarray, np.ndarray]:
        """The door's footprint at ``q``: hinge and free edge (xy)."""
        return self.pivot[:2], (self.pivot + self.turn(self.radial * self.length, q))[:2]


def seg_dist(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    """The distance from ``p`` to the segment ``a``-``b``."""
    ab = b - a
    t = float(np.clip(np.dot(p - a, ab) / max(float(np.dot(ab, ab)), 1e-12), 0.0, 1.0))
    return float(np.linalg.norm(p - (a + ab * t)))


def arm_clear(pose, a: np.ndarray, b: np.ndarray) -> bool:
    """Whether the arm in the carry pose (the footprint's band above the column, with its margin) at base
    ``pose`` keeps clear of the door's footprint ``a``-``b`` (the stance check skips the door itself)."""
    c, s = math.cos(pose[2]), math.sin(pose[2])
    points = a + (b - a) * np.linspace(0.0, 1.0, 50)[:, None] - np.asarray(pose[:2])
    ahead, side = points @ np.array([c, s]), points @ np.array([-s, c])
    m = MARGIN + ARM_SPARE
    inside = (ahead > TOP_BOX[0] - m) & (ahead < TOP_BOX[1] + m) & (np.abs(side) < TOP_BOX[2] + m)
    return not inside.any()


def contact_pose(door: Door, mode: str, q: float, radius: float, z: float, press: float = 0.0):
    """(pad position, rotation, face normal pointing back at the hand) of a sweep's contact at ``q``."""
    n = door.normal(q)
    if mode == "handle":
        centre = np.asarray(door.part.handle.center, float)
        c = door.pivot + door.turn(centre - door.pivot, q)
        return c + n * HANDLE_OUT, approach_rot(-n), n
    inner = mode == "inner"
    out = -n if inner else n
    point = door.face_point(q, radius, z, inner)
    return point + out * (FINGER_HALF + TIP_GAP - press), approach_rot(-out), out


def door_part(ctx: SkillContext, name: str) -> ArticulatedPart | None:
    return HouseQuery(ctx.scene.house).parts.get(name)


class _Articulate(PartSkill):
    timeout_s = 150.0
    opening: bool

    def _done(self, part: ArticulatedPart, q: float) -> bool:
        if self.opening:
            return abs(q - part.closed) >= OPEN_FRACTION * abs(part.open - part.closed)
        return abs(q - part.closed) <= CLOSED_TOL

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        part = door_part(ctx, self.part)
        if part is None or part.category not in ("door", "drawer"):
            raise self.fail(Reason.UNSUPPORTED, part=self.part)
        q = obs.parts.get(self.part, part.closed)
        self._last = obs
        for round_ in range(ROUNDS):
            if self._done(part, q):
                break
            try:
                if part.joint == "prismatic":
                    obs = yield from self._tracked(self._slide(ctx, obs, part))
                else:
                    mode = ("handle" if round_ == 0 else "inner") if self.opening else "outer"
                    obs = yield from self._tracked(self._sweep(ctx, obs, Door(part), mode))
            except SkillFailure as failure:
                obs = self._last
                if round_ == 0 and not self._done(part, obs.parts.get(self.part, part.closed)):
                    raise
                ctx.log("sweep_failed", part=self.part, reason=failure.reason.value, detail=failure.detail)
                break
            moved = obs.parts.get(self.part, part.closed)
            ctx.log("part_moved", part=self.part, start=round(q, 3), end=round(moved, 3))
            if abs(moved - q) < 0.03 and round_ > 0:
                break
            q = moved
        q = obs.parts.get(self.part, part.closed)
        if not self._done(part, q):
            raise self.fail(Reason.STALLED, part=self.part, q=round(q, 4), open=part.open)
        return obs

    def _tracked(self, gen: SkillGen) -> SkillGen:
        """``gen``, keeping its latest observation in ``_last`` (a sweep that fails part way leaves the
        door wherever it is: the next round starts from there)."""
        try:
            action = next(gen)
            while True:
                self._last = yield action
                action = gen.send(self._last)
        except StopIteration as stop:
            return stop.value

    def _sweep(self, ctx: SkillContext, obs: Observation, door: Door, mode: str) -> SkillGen:
        """One sweep of ``mode`` from the door's measured value towards the goal."""
        part = door.part
        q0 = obs.parts.get(self.part, part.closed)
        if self.opening:  # a pull aims at ``open``, a push short of it: swung further, no room to close it from
            goal = part.open if mode == "handle" else part.open - PUSH_SHORT
        else:
            goal = part.closed - 0.05
        handle = np.asarray(part.handle.center, float)
        radius = float(np.dot(handle - door.pivot, door.radial)) if mode == "handle" else door.length - EDGE_IN
        z = float(handle[2]) if mode == "handle" else self._push_height(door)
        found = self._stance(ctx, obs, door, mode, q0, goal, radius, z)
        if found is None:
            raise self.fail(Reason.UNREACHABLE, part=self.part, mode=mode, q=round(q0, 4))
        pose, waypoints, reach_q = found
        ctx.log("stance", skill=self.name, target=self.part, mode=mode, base=[round(v, 3) for v in pose])
        ctx.log("sweep", part=self.part, mode=mode, start=round(q0, 3), to=round(reach_q, 3))
        if mode != "handle" and all(abs(obs.joints[j] - TUCK[j]) < 0.05 for j in ARM):
            # driven in tucked (inside the footprint the base planner keeps off the door), unfolded at the
            # stance: the carry arm (0.42 m ahead, 0.37 m aside, above 1 m) shoved an open door on, driving past
            obs = yield from Navigate(pose, why=self.target()).body(ctx, obs)
            obs = yield from to_carry(self, ctx, obs)
        obs = yield from approach(self, ctx, obs, pose)
        pad, rot, out = contact_pose(door, mode, q0, radius, z)
        grip = OPEN if mode == "handle" else CLOSED
        if mode != "handle":  # first well back on the robot's side: a joint motion there cannot hit the door
            far = ik(ctx).solve(waypoints[0], pad + out * FAR, rot, max_iters=80)
            if far.ok(0.01, 0.08):
                obs = yield from cartesian(self.name, obs, ctx, pad + out * FAR, rot, fallback=far.joints, gripper=grip)
        obs = yield from cartesian(self.name, obs, ctx, pad + out * BACK_OFF, rot, fallback=waypoints[0], gripper=grip)
        obs = yield from cartesian(self.name, obs, ctx, pad, rot, step=0.01, gripper=grip)
        if mode == "handle":
            obs = yield from hold(obs, 1.0, ctx, gripper=CLOSED)
            touching = [f for f, names in obs.finger_contacts.items() if self.part in names]
            if len(touching) < 2:
                yield from hold(obs, 0.5, ctx, gripper=OPEN)
                raise self.fail(Reason.MISSED, part=self.part, touching=touching, gap=round(obs.gripper_opening, 4))
        obs = yield from self._follow(ctx, obs, waypoints[1:], mode)
        q1 = obs.parts.get(self.part, part.closed)
        pad, rot, out = contact_pose(door, mode, q1, radius, z)
        retreat = [pad + out * BACK_OFF]
        if mode == "handle":
            obs = yield from hold(obs, 0.6, ctx, gripper=OPEN)
        for point in retreat:
            try:
                obs = yield from cartesian(self.name, obs, ctx, point, rot, gripper=OPEN)
            except SkillFailure as failure:  # best effort: the carry pose follows
                ctx.log("retreat", part=self.part, failed=str(failure))
                break
        return (yield from to_carry(self, ctx, obs))

    def _follow(self, ctx: SkillContext, obs: Observation, waypoints: list[dict], mode: str) -> SkillGen:
        """The arm through ``waypoints`` at ``SWEEP_SPEED``, fingers closed; stops early where a handle
        grasp lets go (the door is wherever it is then)."""
        current = {j: obs.joints[j] for j in ARM}
        for waypoint in waypoints:
            target = {j: waypoint[j] for j in ARM}
            span = max(abs(wrap(target[j] - current[j])) for j in ARM)
            n = max(1, math.ceil(span / (SWEEP_SPEED * ctx.control_dt)))
            for k in range(1, n + 1):
                joints = {j: current[j] + (target[j] - current[j]) * k / n for j in ARM}
                obs = yield Action(joints=joints, gripper=CLOSED)
            current = target
            if mode == "handle" and not any(self.part in names for names in obs.finger_contacts.values()):
                ctx.log("let_go", part=self.part, q=round(obs.parts.get(self.part, 0.0), 3))
                break
        return (yield from hold(obs, 0.5, ctx, gripper=CLOSED))

    def _push_height(self, door: Door) -> float:
        """Where the fingertips press the face: just above the handle (on a tall door the forearm then
        clears counters and what stands on them), or whichever band beside it is wider on a short one."""
        box, hbox = door.part.box, door.part.handle.box
        below = (box[2] + 0.04, hbox[2] - 0.04)
        above = (hbox[5] + 0.03, box[5] - 0.03)
        if box[5] - box[2] > 1.0:
            return float(min(above[1], hbox[5] + 0.08))
        lo, hi = max([below, above], key=lambda r: r[1] - r[0])
        return float((lo + hi) / 2)

    def _stance(self, ctx, obs, door: Door, mode: str, q0: float, goal: float, radius: float, z: float):
        """(base pose, joint waypoints along the arc, the value they reach) that covers most of ``q0 ->
        goal``, or None when none covers ``MIN_SWEEP``."""
        solver = ik(ctx)
        sign = 1.0 if goal > q0 else -1.0
        steps = [q0 + sign * k * ARC_STEP for k in range(int(abs(goal - q0) / ARC_STEP) + 1)] + [goal]
        want = min(abs(goal - q0), MIN_SWEEP)
        # a pulled door swings towards the robot; a pushed one away from it, so only where it is now counts
        segments = [door.segment(q) for q in (np.linspace(q0, goal, 12) if mode == "handle" else [q0])]
        boxes = obstacle_boxes(ctx, obs, skip=(self.part,))  # the door itself: kept clear of by ``segments``
        base_planner = planner(ctx, obs, skip=(self.part,))
        rooms = HouseQuery(ctx.scene.house)

        def accept(pose, spare: bool) -> bool:
            p = np.array(pose[:2])
            if any(seg_dist(p, a, b) < BASE_CLEAR for a, b in segments):
                return False
            if mode != "handle" and np.dot(p - start_pad[:2], start_out[:2]) <= PUSH_SIDE[mode]:
                return False  # a push needs the robot on the side it pushes from
            if spare and not arm_clear(pose, *segments[0]):
                return False  # the carry arm would shove the door on (1.27 -> 1.83 rad: no stance there)
            inside = rooms.room_at(pose[0], pose[1]) is not None
            return inside and near_cells(base_planner.main, base_planner.grid, pose, 0.45) and stance_free(pose, boxes)

        start_pad, _, start_out = contact_pose(door, mode, q0, radius, z)
        mid_pad = contact_pose(door, mode, q0 + sign * STANCE_SPAN / 2, radius, z)[0]
        centre = (start_pad[:2] + mid_pad[:2]) / 2
        best = None
        # a push: first the stances whose carry arm keeps clear of the door, then (none there) any; facing
        # the contact first, then turned from it
        passes = [(spare, turn) for spare in (True, False) for turn in TURNS] if mode != "handle" else [(False, 0.0)]
        for spare, turn in passes:
            tried = 0
            for x, y, yaw in candidates((float(centre[0]), float(centre[1])), lambda _: True, STANCE_RINGS):
                pose = (x, y, yaw + turn)
                if not accept(pose, spare):
                    continue
                tried += 1
                if tried > 80:
                    break
                joints = {**obs.joints, **ready_arm(ctx), **base_joints(pose)}
                pad, rot, out = contact_pose(door, mode, q0, radius, z)
                pre = solver.solve(joints, pad + out * BACK_OFF, rot, max_iters=80)
                if not pre.ok(0.01, 0.08):
                    continue
                waypoints, reached = [pre.joints], q0
                joints = pre.joints
                for q in steps:
                    if mode == "handle" and np.dot(np.array(pose[:2]) - door.pivot[:2], door.normal(q)[:2]) < OUTSIDE:
                        break  # a pull stops before the door turns past the robot (the arm would wrap round it)
                    press = PRESS_IN if mode != "handle" and q != q0 else 0.0
                    pad, rot, _ = contact_pose(door, mode, q, radius, z, press)
                    result = solver.solve(joints, pad, rot, max_iters=80)
                    if not result.ok(0.01, 0.08):
                        break
                    joints = result.joints
                    waypoints.append(joints)
                    reached = q
                cover = abs(reached - q0)
                if cover >= want and (best is None or cover > best[0] + 1e-9):
                    best = (cover, pose, waypoints, reached)
                    if abs(reached - goal) < 1e-9:
                        break
            if best is not None:
                break
        return None if best is None else best[1:]

    def _slide(self, ctx: SkillContext, obs: Observation, part: ArticulatedPart) -> SkillGen:
        """A drawer: pulled out by its handle (fingers across the bar), or pushed in by its handle's face."""
        query = HouseQuery(ctx.scene.house)
        q0 = obs.parts.get(self.part, part.closed)
        centre, normal, grasp = query.handle_pose(self.part, q0)
        hbox = np.asarray(part.handle.box, float)
        vertical = (hbox[5] - hbox[2]) > max(hbox[3] - hbox[0], hbox[4] - hbox[1])
        rot = approach_rot(grasp) if vertical else _fingers_vertical(grasp)
        axis = np.asarray(part.axis, float)
        if self.opening:
            pad = centre + normal * HANDLE_OUT
            end = pad + axis * (part.open + 0.02 - q0)
        else:
            pad = centre + normal * (FINGER_HALF + TIP_GAP)
            end = pad - axis * (q0 - part.closed + 0.01)
        found = stance_search(ctx, obs, [(pad, [rot]), (end, [rot])], normal * BACK_OFF)
        if found is None:
            raise self.fail(Reason.UNREACHABLE, part=self.part, q=round(q0, 4))
        pose, (pre, _, _, _) = found
        ctx.log("stance", skill=self.name, target=self.part, base=[round(v, 3) for v in pose])
        obs = yield from approach(self, ctx, obs, pose)
        grip = OPEN if self.opening else CLOSED
        obs = yield from cartesian(self.name, obs, ctx, pad + normal * BACK_OFF, rot, fallback=pre, gripper=grip)
        obs = yield from cartesian(self.name, obs, ctx, pad, rot, step=0.01, gripper=grip)
        if self.opening:
            obs = yield from hold(obs, 1.0, ctx, gripper=CLOSED)
        obs = yield from cartesian(self.name, obs, ctx, end, rot, step=0.01, gripper=CLOSED)
        if self.opening:
            obs = yield from hold(obs, 0.6, ctx, gripper=OPEN)
        q1 = obs.parts.get(self.part, part.closed)
        back = query.handle_pose(self.part, q1)[0] + normal * (HANDLE_OUT + BACK_OFF)
        obs = yield from cartesian(self.name, obs, ctx, back, rot, gripper=OPEN)
        return (yield from to_carry(self, ctx, obs))


def _fingers_vertical(direction: np.ndarray) -> np.ndarray:
    """Grasp frame approaching along ``direction`` (horizontal), fingers closing vertically."""
    x = direction / np.linalg.norm(direction)
    y = np.array([0.0, 0.0, 1.0])
    return np.column_stack([x, y, np.cross(x, y)])


class Open(_Articulate):
    """Open a door or drawer (at least ``open`` less ``OPEN_SLACK``): handle pull, then inner-face pushes."""

    name = "open"
    opening = True

    def postconditions(self, ctx: SkillContext):
        return [g.Open(predicate="open", parts=[self.part])]


class Close(_Articulate):
    """Close a door or drawer (within ``CLOSED_TOL``) by pushing its outer face."""

    name = "close"
    opening = False

    def postconditions(self, ctx: SkillContext):
        return [g.Closed(predicate="closed", parts=[self.part])]
