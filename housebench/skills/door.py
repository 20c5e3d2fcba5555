"""A hinged door or a drawer front as geometry (:class:`Door`: its pivot, axis, face and footprint at a joint
value), the contact of a sweep on it (:func:`contact_pose`), and the stance a sweep is made from
(:func:`door_stance`): the pieces :mod:`housebench.skills.articulate` opens and closes doors with."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from housebench.annotations.schema import ArticulatedPart
from housebench.house.query import HouseQuery
from housebench.house.reach import candidates, near_cells
from housebench.house.stance import MARGIN, TOP_BOX, stance_free
from housebench.skills.base import SkillContext
from housebench.skills.grasp import FINGER_HALF
from housebench.skills.legs import base_joints
from housebench.skills.motion import ready_arm
from housebench.skills.navigate import obstacle_boxes, planner
from housebench.skills.press import approach_rot
from housebench.skills.tuning import tuning
from housebench.skills.view import ik


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


def carry_arm_clear(pose, a: np.ndarray, b: np.ndarray) -> bool:
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


def push_height(door: Door) -> float:
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


def door_stance(ctx, obs, part: str, door: Door, mode: str, q0: float, goal: float, radius: float, z: float):
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
    boxes = obstacle_boxes(ctx, obs, skip=(part,))  # the door itself: kept clear of by ``segments``
    base_planner = planner(ctx, obs, skip=(part,))
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
        if spare and not carry_arm_clear(pose, *segments[0]):
            return False  # the carry arm would shove the door on, past where a stance can reach it
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
                if mode == "handle" and np.dot(np.array(pose[:2]) - door.pivot[:2], door.normal(q)[:2]) < ta.outside_m:
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
