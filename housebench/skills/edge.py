"""Flat items (books, notebooks, plates): pushed over a free edge of their support and pinched at the
overhang, fingers closing vertically; set down with the held end over a support's edge.

- ``push`` (:class:`PushToEdge`): fingers closed and pointing down behind the item, then drawn
  towards the robot until the item overhangs the edge by ``skills.edge.overhang_m`` (its centre stays on the
  support); the robot stands facing that edge.
- ``pick`` at the overhang (:class:`PickOverhang`): the hand horizontal, fingers above and below the
  overhang, pad centre ``skills.edge.tip_off_m`` + 38.5 mm out from the edge; down to its pre-pose from above,
  outside the edge; the base square on to the edge or turned up to 0.5 rad off it.
- ``place`` at an edge (:class:`PlaceAtEdge`): the item lowered flat onto a support with the held end
  over the edge (the lower finger passes outside it), released, the hand drawn out.
- ``stack`` of a flat item (:class:`StackAtEdge`, for ``hand.Stack``): the same over one of the lower
  flat item's own sides, from a stance in front of that side.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from housebench.annotations.schema import Support
from housebench.house.query import HouseQuery
from housebench.robot.kinematics import top_down
from housebench.skills.base import ObjectSkill, Reason, Skill, SkillContext, SkillFailure, SkillGen
from housebench.skills.grasp import FINGER_HALF
from housebench.skills.motion import BASE_JOINTS, arm_clear, cartesian, hold, ik, move_arm, pad_pose, ready_arm
from housebench.skills.pick import CLOSED, OPEN, UP, Pick, approach, grasp_at, stance_search, to_carry
from housebench.skills.tuning import tuning
from housebench.state import Action, ObjectState, Observation
from housebench.tasks import goal as g
from housebench.tasks.geometry import rotation, world_box


@dataclass(frozen=True)
class Edge:
    support: Support
    normal: tuple[float, float]  # outward unit normal (an axis of the world)
    coord: float  # the edge line: points p with p . normal == coord

    def out(self, box: tuple[float, ...]) -> float:
        """How far ``box`` (3-D world box) sticks out over this edge (negative: inside)."""
        nx, ny = self.normal
        face = box[3] if nx > 0 else -box[0] if nx < 0 else box[4] if ny > 0 else -box[1]
        return face - self.coord

    def pinch_out(self, pose: ObjectState, size) -> float:
        """How far the flat item at ``pose`` (footprint ``size[:2]``) sticks out over this edge on the line
        through its centre along the normal, where the pinch takes it (askew, it sticks out further at a
        corner: pushed to ``skills.edge.overhang_m`` there, a book was pinched 1.2 cm deep and crept out of the
        fingers)."""
        return float(np.asarray(pose.pos[:2]) @ self.normal) - self.coord + self._reach(pose, size)

    def pinch_short(self, pose: ObjectState, size, overhang: float | None = None) -> float:
        """How much further the item must go for :meth:`pinch_out` to reach ``overhang``, or as far as keeps
        its centre ``skills.edge.centre_in_m`` inside the edge."""
        te = tuning().edge
        overhang = te.overhang_m if overhang is None else overhang
        reach = self._reach(pose, size)
        return min(overhang, reach - te.centre_in_m) - self.pinch_out(pose, size)

    def _reach(self, pose: ObjectState, size) -> float:
        """From the item's centre to its side along the normal."""
        n, rot = np.array(self.normal), rotation(pose.quat)
        return min(size[k] / 2 / abs(float(rot[:2, k] @ n)) for k in (0, 1) if abs(float(rot[:2, k] @ n)) > 1e-6)

    def half(self, box: tuple[float, ...]) -> float:
        """Half the box's extent along the normal."""
        return (box[3] - box[0]) / 2 if self.normal[0] else (box[4] - box[1]) / 2

    def stances(self, at: np.ndarray, dists=None, shifts=None, turns=(0.0,)) -> Iterator[tuple[float, float, float]]:
        """Base poses in front of the edge opposite ``at`` (``dists`` out, ``shifts`` along), facing the
        support (turned ``turns`` rad off square); defaults: ``skills.edge.stand_m``, ``shifts_m``."""
        te = tuning().edge
        dists = te.stand_m if dists is None else dists
        shifts = te.shifts_m if shifts is None else shifts
        n = np.array(self.normal)
        t = np.array([-n[1], n[0]])
        foot = at[:2] + n * (self.coord - float(at[:2] @ n))
        for turn in turns:  # every pose square on first (a stance search tries a limited number)
            for dist in dists:
                for shift in shifts:
                    x, y = foot + n * dist + t * shift
                    yield float(x), float(y), math.atan2(-n[1], -n[0]) + turn


def edges(support: Support) -> list[Edge]:
    xmin, ymin, xmax, ymax = support.box
    return [
        Edge(support, (1.0, 0.0), xmax),
        Edge(support, (-1.0, 0.0), -xmin),
        Edge(support, (0.0, 1.0), ymax),
        Edge(support, (0.0, -1.0), -ymin),
    ]


def side_pinch(normal: tuple[float, float]) -> np.ndarray:
    """Hand horizontal, approaching the edge against ``normal``, fingers closing vertically."""
    x = np.array([-normal[0], -normal[1], 0.0])
    y = np.array([0.0, 0.0, 1.0])
    return np.column_stack([x, y, np.cross(x, y)])


def support_of(ctx: SkillContext, obs: Observation, obj: str) -> Support | None:
    te = tuning().edge
    box = world_box(obs.objects[obj], ctx.scene.objects[obj].asset)
    return HouseQuery(ctx.scene.house).support_under(
        (box[0] + box[3]) / 2, (box[1] + box[4]) / 2, box[2] + te.support_probe_m
    )


def overhanging(ctx: SkillContext, obs: Observation, obj: str, at_least: float) -> Edge | None:
    """The edge of its support the item sticks out over by ``at_least`` where the pinch takes it, else by its
    box (a push that stalled short leaves a corner out: a light notebook is still taken there), if any."""
    support = support_of(ctx, obs, obj)
    if support is None:
        return None
    pose, size = obs.objects[obj], ctx.scene.objects[obj].asset.size
    box = world_box(pose, ctx.scene.objects[obj].asset)
    for out in (lambda e: e.pinch_out(pose, size), lambda e: e.out(box)):
        best = max(edges(support), key=out)
        if out(best) >= at_least:
            return best
    return None


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


class PickOverhang(Pick):
    """The pick of a flat item: pinched at the part pushed over the support's edge (same contract)."""

    @property
    def timeout_s(self) -> float:  # type: ignore[override]
        te = tuning().edge
        return te.pinch_timeout_s

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        te = tuning().edge
        edge = overhanging(ctx, obs, self.obj, te.pinch_overhang_m)
        if edge is None:
            raise self.fail(Reason.PRECONDITION, why="no overhang")
        box = np.array(world_box(obs.objects[self.obj], ctx.scene.objects[self.obj].asset))
        centre = (box[:3] + box[3:]) / 2
        n = np.array([*edge.normal, 0.0])
        pad = centre + n * (edge.coord - float(centre[:2] @ n[:2]) + te.tip_off_m + FINGER_HALF)
        rot = side_pinch(edge.normal)
        poses = edge.stances(centre, dists=te.pinch_stand_m, turns=te.pinch_turns)
        found = stance_search(ctx, obs, [(pad, [rot])], n * te.out_m, poses=poses)
        if found is None:
            raise self.fail(Reason.UNREACHABLE, at=[round(float(v), 3) for v in pad])
        pose, (pre, at, rot, _) = found
        ctx.log("stance", skill=self.name, target=self.obj, grasp="edge_pinch", base=[round(v, 3) for v in pose])
        obs = yield from approach(self, ctx, obs, pose)
        # down to the pre-pose from above it, outside the edge: a joint motion straight there swept the
        # hand through the overhang and knocked the item off
        obs = yield from cartesian(
            self.name, obs, ctx, pad + n * te.out_m + UP * te.descent_m, rot, fallback=pre, avoid=True
        )
        return (
            yield from grasp_at(self, ctx, obs, pad, rot, n * te.out_m, (pre, at), UP * te.pinch_lift_m + n * te.out_m)
        )


class PlaceAtEdge(Skill):
    """Set a flat item held at its end (``PickOverhang``) on ``support``, the held end over an edge."""

    name = "place"
    in_front = False  # each spot only from stances in front of it (else rings round them all first)

    def __init__(self, obj: str, support: Support, near: tuple[float, float] | None = None) -> None:
        self.obj, self.support, self.near = obj, support, near

    @property
    def timeout_s(self) -> float:  # type: ignore[override]
        te = tuning().edge
        return te.place_timeout_s

    def target(self) -> str:
        return f"{self.obj} -> {self.support.name}"

    def look_at(self) -> str | None:
        return self.support.name

    def preconditions(self, ctx: SkillContext):
        return [g.Holding(predicate="holding", items=[self.obj])]

    def postconditions(self, ctx: SkillContext):
        return [g.On(predicate="on", items=[self.obj], support=self.support.name)]

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        te = tuning().edge
        pad = pad_pose(ctx, obs)[0]
        box = np.array(world_box(obs.objects[self.obj], ctx.scene.objects[self.obj].asset))
        reach_in = float(np.hypot(*((box[:2] + box[3:5]) / 2 - pad[:2])))  # pad to item centre, horizontal
        hold_dz = pad[2] - box[2]
        options, normals, fronts = [], [], []
        for foot, normal, height in self.spots(ctx, obs, reach_in):
            n = np.array([*normal, 0.0])
            target = np.array([*foot, 0.0]) + n * (te.tip_off_m + FINGER_HALF)
            target[2] = height + te.set_over_m + hold_dz
            options.append((target, [side_pinch(normal)]))
            normals.append(n)
            front = Edge(self.support, normal, float(np.dot(foot, normal)))
            fronts.append(front.stances(np.asarray(foot, float), dists=te.pinch_stand_m, turns=te.pinch_turns))
        if not options:
            raise self.fail(Reason.NO_SPACE, support=self.support.name)
        ctx.log("decision", skill=self.name, spots=len(options))
        every = range(len(options))
        in_front = [([k], fronts[k]) for k in every]  # rings alone found none by the study desk's wall
        searches = in_front if self.in_front else [(list(every), None), *in_front]
        for ks, poses in searches:
            found = stance_search(ctx, obs, [options[k] for k in ks], UP * te.above_m, skip=(self.obj,), poses=poses)
            if found is not None:
                break
        else:
            raise self.fail(Reason.UNREACHABLE, support=self.support.name)
        pose, (above, at, rot, j) = found
        target, n = options[ks[j]][0], normals[ks[j]]
        obs = yield from approach(self, ctx, obs, pose, skip=(self.obj,))
        obs = yield from cartesian(self.name, obs, ctx, target + UP * te.above_m, rot, fallback=above, avoid=True)
        obs = yield from cartesian(self.name, obs, ctx, target, rot, fallback=at)
        obs = yield from hold(obs, te.open_s, ctx, gripper=OPEN)
        obs = yield from cartesian(self.name, obs, ctx, target + n * te.out_m, rot, fallback=at)  # out of the pinch
        # the empty hand to the carry every skill starts from, pointing down (from the level pinch's hand, the
        # next push's line to its stroke ended with the elbow flipped, which stalled on the way down)
        return (yield from to_carry(self, ctx, obs, top_down(obs.base[2] + math.pi / 2)))

    def spots(self, ctx: SkillContext, obs: Observation, reach_in: float) -> Iterator[tuple]:
        """(foot on an edge, its outward normal, surface height): every point along the support's edges where
        the item (its centre ``reach_in`` in from the pad) has room, nearest ``near`` (else the robot) first
        (one point an edge left the study desk's end by the wall, beside a mug, out of every stance's reach)."""
        near = self.near or obs.base[:2]
        found = [
            (at, edge.normal, self.support.height)
            for edge in edges(self.support)
            for at in _along(edge, near)
            if _clear(ctx, obs, self.obj, self.support, _set_centre(at, edge.normal, reach_in))
        ]
        return iter(sorted(found, key=lambda spot: math.dist(spot[0], near)))


class StackAtEdge(PlaceAtEdge):
    """``PlaceAtEdge`` onto another flat item (``support`` its top face, ``support.owner`` the item): the
    held end over one of that item's own sides (its yaw, not its world box), where the held item's centre
    lands ``skills.edge.stack_in_m`` inside its footprint and the two items' centre of mass ``pair_in_m`` inside
    the surface under them (the side over that surface's edge too: the lower item overhangs it), deepest first;
    each side from stances in front of it (from rings round all four, the arm swept the held item through
    the lower one to reach a far side)."""

    in_front = True

    def spots(self, ctx: SkillContext, obs: Observation, reach_in: float) -> Iterator[tuple]:
        te = tuning().edge
        base = self.support.owner
        pose, asset = obs.objects[base], ctx.scene.objects[base].asset
        rot = rotation(pose.quat)
        centre = np.asarray(pose.pos, float)
        under = support_of(ctx, obs, base)
        mass, held_mass = asset.mass, ctx.scene.objects[self.obj].asset.mass
        found = []
        for axis in (0, 1):
            for sign in (1.0, -1.0):
                normal = rot[:2, axis] * sign / np.linalg.norm(rot[:2, axis])
                foot = centre[:2] + normal * asset.size[axis] / 2
                landed = _set_centre(foot, normal, reach_in)
                local = rot.T @ np.array([*(landed - centre[:2]), 0.0])
                if any(abs(local[k]) > asset.size[k] / 2 - te.stack_in_m for k in (0, 1)):
                    continue
                pair = (mass * centre[:2] + held_mass * landed) / (mass + held_mass)  # the two books' centre of mass
                depth = _depth(under.box, pair) if under else 0.0
                if depth >= te.pair_in_m:
                    found.append((depth, tuple(foot), tuple(normal)))
        for _, foot, normal in sorted(found, reverse=True):
            yield foot, normal, self.support.height


def _depth(box, xy) -> float:
    """How far the point ``xy`` lies inside the 2-D ``box`` (negative: outside)."""
    return min(xy[0] - box[0], box[2] - xy[0], xy[1] - box[1], box[3] - xy[1])


def _set_centre(foot, normal, reach_in: float) -> np.ndarray:
    """Where the centre of an item held ``reach_in`` in from the pad lands, horizontally, when the pinch
    sets it down at ``foot`` on an edge with outward ``normal``."""
    te = tuning().edge
    return np.asarray(foot, float) + np.asarray(normal) * (te.tip_off_m + FINGER_HALF - reach_in)


def _along(edge: Edge, near) -> list[tuple[float, float]]:
    """Points on the edge line, inside the support's span, nearest ``near`` first."""
    te = tuning().edge
    xmin, ymin, xmax, ymax = edge.support.box
    pts = []
    for f in np.linspace(te.spots_from, te.spots_to, te.spots):
        if edge.normal[0]:
            pts.append((edge.coord * edge.normal[0], ymin + (ymax - ymin) * f))
        else:
            pts.append((xmin + (xmax - xmin) * f, edge.coord * edge.normal[1]))
    return sorted(pts, key=lambda p: math.dist(p, near))


def _clear(ctx: SkillContext, obs: Observation, obj: str, support: Support, centre) -> bool:
    te = tuning().edge
    xmin, ymin, xmax, ymax = support.box
    if not (
        xmin + te.place_in_m <= centre[0] <= xmax - te.place_in_m
        and ymin + te.place_in_m <= centre[1] <= ymax - te.place_in_m
    ):
        return False
    size = ctx.scene.objects[obj].asset.size
    r = math.hypot(size[0], size[1]) / 2
    for name, other in obs.objects.items():
        if (
            name in (obj, support.owner) or abs(other.pos[2] - support.height) > te.other_height_m
        ):  # owner: stacking on it
            continue
        osize = ctx.scene.objects[name].asset.size
        if math.dist(centre, other.pos[:2]) < r + math.hypot(osize[0], osize[1]) / 2 + te.clear_m:
            return False
    return True
