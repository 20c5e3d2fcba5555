"""open and close a hinged door or a drawer by contact, closed loop on the measured joint value.

A door is moved along its arc in *sweeps*, each from one base stance with the base still:

- ``handle``: the fingers close round the handle bar (across it), the hand turns with the door;
- ``inner`` / ``outer``: the closed fingertips press the door's inner face (opening) or outer face
  (closing) at a radius near its free edge, the hand turning with the door.

``open`` pulls by the handle first, until the arm's reach ends or the door would turn past the robot (the
arm would wrap round it), then pushes the inner face on, to ``skills.articulate.push_short`` short of ``open``;
``close`` pushes the outer face. Each sweep's stance is the one (of rings round the contact) from which the IK
follows the contact furthest along the arc, clear of the door (of its whole path for a pull, which swings
it towards the robot; of where it stands for a push, the carry arm included, which a push drives in
tucked when it starts so and unfolds at the stance), on the side it works from (a push's base facing the
contact, else turned from it: behind a door swung wide only a base side on has room for the carry arm
between the door and the wall); after each sweep the skill reads the part's joint value and sweeps again
from where the door really is, until it is open (at least ``skills.articulate.open_fraction`` of ``open``) or
closed (within ``closed_tol``); no progress: ``STALLED`` with the measured value. A drawer is pulled by its handle along
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
from housebench.skills.tuning import tuning
from housebench.state import Action, Observation
from housebench.tasks import goal as g


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
    ta = tuning().articulate
    c, s = math.cos(pose[2]), math.sin(pose[2])
    points = a + (b - a) * np.linspace(0.0, 1.0, ta.path_points)[:, None] - np.asarray(pose[:2])
    ahead, side = points @ np.array([c, s]), points @ np.array([-s, c])
    m = MARGIN + ta.arm_spare_m
    inside = (ahead > TOP_BOX[0] - m) & (ahead < TOP_BOX[1] + m) & (np.abs(side) < TOP_BOX[2] + m)
    return not inside.any()


def contact_pose(door: Door, mode: str, q: float, radius: float, z: float, press: float = 0.0):
    """(pad position, rotation, face normal pointing back at the hand) of a sweep's contact at ``q``."""
    ta = tuning().articulate
    n = door.normal(q)
    if mode == "handle":
        centre = np.asarray(door.part.handle.center, float)
        c = door.pivot + door.turn(centre - door.pivot, q)
        return c + n * ta.handle_out_m, approach_rot(-n), n
    inner = mode == "inner"
    out = -n if inner else n
    point = door.face_point(q, radius, z, inner)
    return point + out * (FINGER_HALF + ta.tip_gap_m - press), approach_rot(-out), out


def door_part(ctx: SkillContext, name: str) -> ArticulatedPart | None:
    return HouseQuery(ctx.scene.house).parts.get(name)


class _Articulate(PartSkill):
    opening: bool

    @property
    def timeout_s(self) -> float:  # type: ignore[override]
        ta = tuning().articulate
        return ta.timeout_s

    def _done(self, part: ArticulatedPart, q: float) -> bool:
        ta = tuning().articulate
        if self.opening:
            return abs(q - part.closed) >= ta.open_fraction * abs(part.open - part.closed)
        return abs(q - part.closed) <= ta.closed_tol

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        ta = tuning().articulate
        part = door_part(ctx, self.part)
        if part is None or part.category not in ("door", "drawer"):
            raise self.fail(Reason.UNSUPPORTED, part=self.part)
        q = obs.parts.get(self.part, part.closed)
        self._last = obs
        for round_ in range(ta.rounds):
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
            if abs(moved - q) < ta.stalled and round_ > 0:
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
        ta = tuning().articulate
        tm = tuning().motion
        part = door.part
        q0 = obs.parts.get(self.part, part.closed)
        if self.opening:  # a pull aims at ``open``, a push short of it: swung further, no room to close it from
            goal = part.open if mode == "handle" else part.open - ta.push_short
        else:
            goal = part.closed - ta.close_past
        handle = np.asarray(part.handle.center, float)
        radius = float(np.dot(handle - door.pivot, door.radial)) if mode == "handle" else door.length - ta.edge_in_m
        z = float(handle[2]) if mode == "handle" else self._push_height(door)
        found = self._stance(ctx, obs, door, mode, q0, goal, radius, z)
        if found is None:
            raise self.fail(Reason.UNREACHABLE, part=self.part, mode=mode, q=round(q0, 4))
        pose, waypoints, reach_q = found
        ctx.log("stance", skill=self.name, target=self.part, mode=mode, base=[round(v, 3) for v in pose])
        ctx.log("sweep", part=self.part, mode=mode, start=round(q0, 3), to=round(reach_q, 3))
        if mode != "handle" and all(abs(obs.joints[j] - TUCK[j]) < tm.tucked_tol for j in ARM):
            # driven in tucked (inside the footprint the base planner keeps off the door), unfolded at the
            # stance: the carry arm (0.42 m ahead, 0.37 m aside, above 1 m) shoved an open door on, driving past
            obs = yield from Navigate(pose, why=self.target()).body(ctx, obs)
            obs = yield from to_carry(self, ctx, obs)
        obs = yield from approach(self, ctx, obs, pose)
        pad, rot, out = contact_pose(door, mode, q0, radius, z)
        grip = OPEN if mode == "handle" else CLOSED
        if mode != "handle":  # first well back on the robot's side: a joint motion there cannot hit the door
            far = ik(ctx).solve(waypoints[0], pad + out * ta.far_m, rot, max_iters=ta.ik_iters)
            if far.ok(tm.ik_pos_tol_m, tm.ik_rot_tol):
                obs = yield from cartesian(
                    self.name, obs, ctx, pad + out * ta.far_m, rot, fallback=far.joints, gripper=grip
                )
        obs = yield from cartesian(
            self.name, obs, ctx, pad + out * ta.back_off_m, rot, fallback=waypoints[0], gripper=grip
        )
        obs = yield from cartesian(self.name, obs, ctx, pad, rot, step=ta.contact_step_m, gripper=grip)
        if mode == "handle":
            obs = yield from hold(obs, ta.close_s, ctx, gripper=CLOSED)
            touching = [f for f, names in obs.finger_contacts.items() if self.part in names]
            if len(touching) < 2:
                yield from hold(obs, 0.5, ctx, gripper=OPEN)
                raise self.fail(Reason.MISSED, part=self.part, touching=touching, gap=round(obs.gripper_opening, 4))
        obs = yield from self._follow(ctx, obs, waypoints[1:], mode)
        q1 = obs.parts.get(self.part, part.closed)
        pad, rot, out = contact_pose(door, mode, q1, radius, z)
        retreat = [pad + out * ta.back_off_m]
        if mode == "handle":
            obs = yield from hold(obs, ta.open_s, ctx, gripper=OPEN)
        for point in retreat:
            try:
                obs = yield from cartesian(self.name, obs, ctx, point, rot, gripper=OPEN)
            except SkillFailure as failure:  # best effort: the carry pose follows
                ctx.log("retreat", part=self.part, failed=str(failure))
                break
        return (yield from to_carry(self, ctx, obs))

    def _follow(self, ctx: SkillContext, obs: Observation, waypoints: list[dict], mode: str) -> SkillGen:
        """The arm through ``waypoints`` at ``skills.articulate.sweep_speed``, fingers closed; stops early where a
        handle grasp lets go (the door is wherever it is then)."""
        ta = tuning().articulate
        current = {j: obs.joints[j] for j in ARM}
        for waypoint in waypoints:
            target = {j: waypoint[j] for j in ARM}
            span = max(abs(wrap(target[j] - current[j])) for j in ARM)
            n = max(1, math.ceil(span / (ta.sweep_speed * ctx.control_dt)))
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
        tune = tuning().articulate
        below = (box[2] + tune.push_band_m, hbox[2] - tune.push_band_m)
        above = (hbox[5] + tune.push_top_m, box[5] - tune.push_top_m)
        if box[5] - box[2] > 1.0:
            return float(min(above[1], hbox[5] + tune.push_over_m))
        lo, hi = max([below, above], key=lambda r: r[1] - r[0])
        return float((lo + hi) / 2)

    def _stance(self, ctx, obs, door: Door, mode: str, q0: float, goal: float, radius: float, z: float):
        """(base pose, joint waypoints along the arc, the value they reach) that covers most of ``q0 ->
        goal``, or None when none covers ``skills.articulate.min_sweep``."""
        ta = tuning().articulate
        tm = tuning().motion
        solver = ik(ctx)
        sign = 1.0 if goal > q0 else -1.0
        steps = [q0 + sign * k * ta.arc_step for k in range(int(abs(goal - q0) / ta.arc_step) + 1)] + [goal]
        want = min(abs(goal - q0), ta.min_sweep)
        # a pulled door swings towards the robot; a pushed one away from it, so only where it is now counts
        segments = [door.segment(q) for q in (np.linspace(q0, goal, ta.swept_segments) if mode == "handle" else [q0])]
        boxes = obstacle_boxes(ctx, obs, skip=(self.part,))  # the door itself: kept clear of by ``segments``
        base_planner = planner(ctx, obs, skip=(self.part,))
        rooms = HouseQuery(ctx.scene.house)

        def accept(pose, spare: bool) -> bool:
            p = np.array(pose[:2])
            if any(seg_dist(p, a, b) < ta.base_clear_m for a, b in segments):
                return False
            if (
                mode != "handle"
                and np.dot(p - start_pad[:2], start_out[:2])
                <= {"inner": ta.push_side_inner_m, "outer": ta.push_side_outer_m}[mode]
            ):
                return False  # a push needs the robot on the side it pushes from
            if spare and not arm_clear(pose, *segments[0]):
                return False  # the carry arm would shove the door on (1.27 -> 1.83 rad: no stance there)
            inside = rooms.room_at(pose[0], pose[1]) is not None
            return (
                inside
                and near_cells(base_planner.main, base_planner.grid, pose, ta.near_cells_m)
                and stance_free(pose, boxes)
            )

        start_pad, _, start_out = contact_pose(door, mode, q0, radius, z)
        mid_pad = contact_pose(door, mode, q0 + sign * ta.stance_span / 2, radius, z)[0]
        centre = (start_pad[:2] + mid_pad[:2]) / 2
        best = None
        # a push: first the stances whose carry arm keeps clear of the door, then (none there) any; facing
        # the contact first, then turned from it
        passes = [(spare, turn) for spare in (True, False) for turn in ta.turns] if mode != "handle" else [(False, 0.0)]
        for spare, turn in passes:
            tried = 0
            for x, y, yaw in candidates((float(centre[0]), float(centre[1])), lambda _: True, ta.stance_rings_m):
                pose = (x, y, yaw + turn)
                if not accept(pose, spare):
                    continue
                tried += 1
                if tried > ta.stances_tried:
                    break
                joints = {**obs.joints, **ready_arm(ctx), **base_joints(pose)}
                pad, rot, out = contact_pose(door, mode, q0, radius, z)
                pre = solver.solve(joints, pad + out * ta.back_off_m, rot, max_iters=ta.ik_iters)
                if not pre.ok(tm.ik_pos_tol_m, tm.ik_rot_tol):
                    continue
                waypoints, reached = [pre.joints], q0
                joints = pre.joints
                for q in steps:
                    if (
                        mode == "handle"
                        and np.dot(np.array(pose[:2]) - door.pivot[:2], door.normal(q)[:2]) < ta.outside_m
                    ):
                        break  # a pull stops before the door turns past the robot (the arm would wrap round it)
                    press = ta.press_in_m if mode != "handle" and q != q0 else 0.0
                    pad, rot, _ = contact_pose(door, mode, q, radius, z, press)
                    result = solver.solve(joints, pad, rot, max_iters=ta.ik_iters)
                    if not result.ok(tm.ik_pos_tol_m, tm.ik_rot_tol):
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
        ta = tuning().articulate
        query = HouseQuery(ctx.scene.house)
        q0 = obs.parts.get(self.part, part.closed)
        centre, normal, grasp = query.handle_pose(self.part, q0)
        hbox = np.asarray(part.handle.box, float)
        vertical = (hbox[5] - hbox[2]) > max(hbox[3] - hbox[0], hbox[4] - hbox[1])
        rot = approach_rot(grasp) if vertical else _fingers_vertical(grasp)
        axis = np.asarray(part.axis, float)
        if self.opening:
            pad = centre + normal * ta.handle_out_m
            end = pad + axis * (part.open + ta.drawer_out_m - q0)
        else:
            pad = centre + normal * (FINGER_HALF + ta.tip_gap_m)
            end = pad - axis * (q0 - part.closed + ta.drawer_in_m)
        found = stance_search(ctx, obs, [(pad, [rot]), (end, [rot])], normal * ta.back_off_m)
        if found is None:
            raise self.fail(Reason.UNREACHABLE, part=self.part, q=round(q0, 4))
        pose, (pre, _, _, _) = found
        ctx.log("stance", skill=self.name, target=self.part, base=[round(v, 3) for v in pose])
        obs = yield from approach(self, ctx, obs, pose)
        grip = OPEN if self.opening else CLOSED
        obs = yield from cartesian(self.name, obs, ctx, pad + normal * ta.back_off_m, rot, fallback=pre, gripper=grip)
        obs = yield from cartesian(self.name, obs, ctx, pad, rot, step=ta.contact_step_m, gripper=grip)
        if self.opening:
            obs = yield from hold(obs, ta.close_s, ctx, gripper=CLOSED)
        obs = yield from cartesian(self.name, obs, ctx, end, rot, step=ta.contact_step_m, gripper=CLOSED)
        if self.opening:
            obs = yield from hold(obs, ta.open_s, ctx, gripper=OPEN)
        q1 = obs.parts.get(self.part, part.closed)
        back = query.handle_pose(self.part, q1)[0] + normal * (ta.handle_out_m + ta.back_off_m)
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
    """Close a door or drawer (within ``skills.articulate.closed_tol``) by pushing its outer face."""

    name = "close"
    opening = False

    def postconditions(self, ctx: SkillContext):
        return [g.Closed(predicate="closed", parts=[self.part])]
