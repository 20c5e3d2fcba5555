"""A flat item held at its end, fingers closing vertically (:mod:`housebench.skills.flat_push` draws it over an edge
first).

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

import numpy as np

from housebench.annotations.schema import Support
from housebench.robot.kinematics import top_down
from housebench.skills.base import Reason, Skill, SkillContext, SkillGen
from housebench.skills.carry import approach, to_carry
from housebench.skills.edge import Edge, edges, overhanging, side_pinch
from housebench.skills.grasp import FINGER_HALF, OPEN, UP
from housebench.skills.motion import cartesian, hold
from housebench.skills.pick import Pick, grasp_at
from housebench.skills.stance import stance_search
from housebench.skills.tuning import tuning
from housebench.skills.view import pad_pose, support_of
from housebench.state import Observation
from housebench.tasks import goal as g
from housebench.tasks.geometry import rotation, world_box


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
