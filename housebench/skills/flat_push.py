"""push (:class:`PushToEdge`): a flat item (a book, a notebook, a plate) drawn over a free edge of its support, fingers
closed and pointing down behind it, towards the robot until it overhangs the edge by ``skills.edge.overhang_m`` (its
centre stays on the support); the robot stands facing that edge."""

from __future__ import annotations

import math

import numpy as np

from housebench.robot.fetch import BASE_JOINTS
from housebench.skills.base import ObjectSkill, Reason, SkillContext, SkillFailure, SkillGen
from housebench.skills.carry import approach
from housebench.skills.edge import Edge, edges
from housebench.skills.grasp import CLOSED, FINGER_HALF, UP
from housebench.skills.motion import arm_clear, cartesian, move_arm, ready_arm
from housebench.skills.stance import stance_search
from housebench.skills.tuning import tuning
from housebench.skills.view import ik, pad_pose, support_of
from housebench.state import Action, Observation
from housebench.tasks import goal as g
from housebench.tasks.geometry import world_box


class PushToEdge(ObjectSkill):
    """Draw the item towards the robot until it sticks out ``overhang`` over an edge of its support (negative:
    its face stops that far inside), over the edges with ``normals`` only when given."""

    name = "push"

    @property
    def timeout_s(self) -> float:  # type: ignore[override]
        te = tuning().edge
        return te.push_timeout_s

    def __init__(self, obj: str, overhang: float | None = None, normals: frozenset | None = None) -> None:
        te = tuning().edge
        super().__init__(obj)
        self.overhang, self.normals = te.overhang_m if overhang is None else overhang, normals

    def postconditions(self, ctx: SkillContext):
        te = tuning().edge
        least = self.overhang - te.slack_m
        return [g.AtEdge(predicate="at_edge", items=[self.obj], support=self.support.name, min_overhang=least)]

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        te = tuning().edge
        support = support_of(ctx, obs, self.obj)
        if support is None:
            raise self.fail(Reason.UNSUPPORTED, why="not on a support")
        self.support = support
        box = np.array(world_box(obs.objects[self.obj], ctx.scene.objects[self.obj].asset))
        centre = (box[:3] + box[3:]) / 2
        size = ctx.scene.objects[self.obj].asset.size
        tried = []
        ways = [e for e in edges(support) if self.normals is None or e.normal in self.normals]
        for edge in sorted(ways, key=lambda e: self.overhang - e.out(box)):
            # its centre kept ``centre_in_m`` inside (pinch_short), too little would stick out; skipping every side
            # nearer its centre than the full overhang left a 0.15 m book no edge where only its long side faced one
            if edge.half(box) - te.centre_in_m < self.overhang - te.slack_m:
                continue
            travel = edge.pinch_short(obs.objects[self.obj], size, self.overhang)
            if travel <= 0:
                return obs
            options = [(_push_start(box, edge, rot), [rot]) for rot in (_top_down_along(edge, t) for t in te.tilts)]
            found = stance_search(ctx, obs, options, UP * te.above_m, poses=edge.stances(centre), reach=te.push_reach_m)
            if found is None:
                tried.append(edge.normal)
                continue
            pose, (above, _, rot, k) = found
            start = options[k][0]
            ctx.log("stance", skill=self.name, target=self.obj, edge=list(edge.normal), travel=round(travel, 3))
            obs = yield from approach(self, ctx, obs, pose)
            obs = yield from cartesian(
                self.name, obs, ctx, start + UP * te.above_m, rot, fallback=above, gripper=CLOSED
            )
            obs = yield from _onto_stroke(self.name, ctx, obs, start, edge, rot, travel, above)
            obs = yield from self._stroke(ctx, obs, edge, start, rot, travel)
            for _ in range(te.strokes - 1):  # closed loop: again from behind the item while it is short of the edge
                box = world_box(obs.objects[self.obj], ctx.scene.objects[self.obj].asset)
                short = edge.pinch_short(obs.objects[self.obj], size, self.overhang)
                if short <= te.done_m or travel - short < te.moved_m:  # there, or the last stroke did not move it
                    break
                travel = short
                ctx.log("decision", skill=self.name, target=self.obj, stroke_again=round(travel, 3))
                start = _push_start(box, edge, rot)
                try:
                    obs = yield from cartesian(self.name, obs, ctx, start + UP * te.above_m, rot, gripper=CLOSED)
                    obs = yield from self._stroke(ctx, obs, edge, start, rot, travel)
                except SkillFailure as missed:  # the postcondition judges what the strokes left
                    if missed.reason != Reason.UNREACHABLE:
                        raise
                    break
            return obs
        raise self.fail(Reason.UNREACHABLE, edges_tried=tried)

    def _stroke(self, ctx: SkillContext, obs: Observation, edge: Edge, start, rot, travel: float) -> SkillGen:
        """Down behind the item at ``start``, draw it ``travel`` towards the edge, the hand up again."""
        te = tuning().edge
        n = np.array([*edge.normal, 0.0])
        gap = _gap(world_box(obs.objects[self.obj], ctx.scene.objects[self.obj].asset), edge)
        obs = yield from cartesian(self.name, obs, ctx, start, rot, gripper=CLOSED)
        for part in te.stroke_parts:  # where the IK loses the full line, a shorter stroke (the next one goes on)
            try:
                end = start + n * (travel + gap + te.stroke_over_m) * part
                obs = yield from cartesian(self.name, obs, ctx, end, rot, step=te.stroke_step_m)
                break
            except SkillFailure as short:  # stalled: the item's friction, or the arm folding in, ends it short
                if short.reason == Reason.STALLED:
                    obs = yield Action()
                    break
                if short.reason != Reason.UNREACHABLE or part == te.stroke_parts[-1]:
                    raise
        end = pad_pose(ctx, obs)[0]
        return (yield from cartesian(self.name, obs, ctx, end + UP * te.above_m, rot))


def _onto_stroke(
    skill: str, ctx: SkillContext, obs: Observation, start, edge: Edge, rot, travel: float, above
) -> SkillGen:
    """Where the IK loses the stroke's line (down to ``start``, then ``travel`` along the edge's normal) from the
    arm's joints above the item, or the arm at the item runs into the house, a joint motion there solved from
    the stance search's ``above`` or the ready arm (torso up) instead: the line down from the carry pose left
    the elbow at its limit (2.24 rad) and the stroke lost the line 3 cm in; reaching to the back of a counter
    with the torso down, the upper arm stalled on its front edge."""
    te = tuning().edge
    tm = tuning().motion
    points = [start + UP * te.lift_m, start, start + np.array([*edge.normal, 0.0]) * travel]
    if _fits(ctx, obs, obs.joints, points, rot):
        return obs
    base = {j: obs.joints[j] for j in BASE_JOINTS}
    for seed in (above, ready_arm(ctx)):
        result = ik(ctx).solve({**obs.joints, **seed, **base}, start + UP * te.above_m, rot)
        if result.ok(tm.ik_pos_tol_m, tm.ik_rot_tol) and _fits(ctx, obs, result.joints, points, rot):
            ctx.log("decision", skill=skill, rebranch=True)
            return (yield from move_arm(skill, obs, [result.joints], ctx, avoid=True, gripper=CLOSED))
    return obs


def _fits(
    ctx: SkillContext, obs: Observation, joints: dict[str, float], points, rot, step: float | None = None
) -> bool:
    """Whether the IK carries the pad from where ``joints`` hold it through ``points`` along straight lines, the
    bare arm at the first running into no part of the house (``step``: ``skills.edge.fit_step_m``)."""
    te, tm = tuning().edge, tuning().motion
    step = te.fit_step_m if step is None else step
    solver = ik(ctx)
    for k, (a, b) in enumerate(zip([solver.fk(joints)[0], *points[:-1]], points, strict=True)):
        n = max(1, math.ceil(float(np.linalg.norm(b - a)) / step))
        for i in range(1, n + 1):
            result = solver.solve(joints, a + (b - a) * i / n, rot)
            if not result.ok(tm.ik_pos_tol_m, tm.ik_rot_tol):
                return False
            joints = result.joints
        if k == 0 and not arm_clear(ctx, obs, joints, touch=True):
            return False
    return True


def _push_start(box, edge: Edge, rot: np.ndarray) -> np.ndarray:
    """The pad behind the item in the world ``box`` for a push over ``edge`` with the hand at ``rot``: the
    fingertips :func:`_gap` behind it and ``skills.edge.push_tip_m`` over the surface, or ``push_depth_m`` under a
    taller item's top (the palm stays over it)."""
    te = tuning().edge
    box = np.asarray(box, float)
    tip = (box[:3] + box[3:]) / 2 - np.array([*edge.normal, 0.0]) * (edge.half(box) + _gap(box, edge))
    tip[2] = max(edge.support.height + te.push_tip_m, box[5] - te.push_depth_m)
    return tip - rot[:, 0] * FINGER_HALF


def _gap(box, edge: Edge) -> float:
    """How far behind the item in ``box`` the fingertips go down: ``skills.edge.push_gap_m``, less where the support
    ends sooner behind it (at least ``skills.edge.min_gap_m``)."""
    te = tuning().edge
    xmin, ymin, xmax, ymax = edge.support.box
    far = {(1.0, 0.0): box[0] - xmin, (-1.0, 0.0): xmax - box[3], (0.0, 1.0): box[1] - ymin, (0.0, -1.0): ymax - box[4]}
    return float(np.clip(far[tuple(edge.normal)] - te.push_room_m, te.min_gap_m, te.push_gap_m))


def _top_down_along(edge: Edge, tilt: float = 0.0) -> np.ndarray:
    """Fingers pointing down, closing along the edge (the closed fingers' broad side pushes), tipped
    ``tilt`` rad back from the edge (the wrist leans towards the robot, clear of a wall behind the item)."""
    n = np.array([*edge.normal, 0.0])
    x = np.array([0.0, 0.0, -math.cos(tilt)]) - n * math.sin(tilt)
    y = np.array([-edge.normal[1], edge.normal[0], 0.0])
    return np.column_stack([x, y, np.cross(x, y)])
