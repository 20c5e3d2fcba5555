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

import numpy as np

from housebench.annotations.schema import ArticulatedPart
from housebench.house.query import HouseQuery
from housebench.robot.kinematics import ARM
from housebench.skills.base import PartSkill, Reason, SkillContext, SkillFailure, SkillGen
from housebench.skills.carry import approach, to_carry
from housebench.skills.door import Door, contact_pose, door_part, door_stance, push_height
from housebench.skills.grasp import CLOSED, FINGER_HALF, OPEN
from housebench.skills.motion import cartesian, hold
from housebench.skills.navigate import Navigate
from housebench.skills.press import approach_rot
from housebench.skills.stance import stance_search
from housebench.skills.tuning import tuning
from housebench.skills.view import TUCK, ik, wrap
from housebench.state import Action, Observation
from housebench.tasks import goal as g


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
        z = float(handle[2]) if mode == "handle" else push_height(door)
        found = door_stance(ctx, obs, self.part, door, mode, q0, goal, radius, z)
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
