"""place: set the held object down on a support or into a container, from above.

The release point keeps the measured hold (pad height over the object's bottom) and a leaning hand's
lean (a flared bowl's rim pinch, which holds its far side up), turned about the vertical only: the bottom is
released ``skills.place.drop_m`` above the surface, or ``rim_clear_m`` above a container's rim over
:func:`cavity_spot`. Stance as for ``pick`` (IK reaches above and at the release point); the base drives there
with the arm in the carry pose; then down, open, up, tuck. ``spot`` picks a free place on a support.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.spatial.transform import Rotation

from housebench.annotations.schema import Support
from housebench.robot.kinematics import top_down
from housebench.skills.base import Reason, Skill, SkillContext, SkillFailure, SkillGen
from housebench.skills.carry import approach, to_carry
from housebench.skills.grasp import OPEN, UP
from housebench.skills.motion import cartesian, hold, line_waypoints, move_arm
from housebench.skills.stance import Option, stance_search
from housebench.skills.tuning import tuning
from housebench.skills.view import finger_yaw, pad_pose
from housebench.state import Observation
from housebench.tasks import goal as g
from housebench.tasks.geometry import footprint, rotation


def pre_heights() -> tuple[float, ...]:
    """How high over its release point the hand comes in, highest that reaches first, m (a bottle held by its top
    over a basket on the kitchen island: no stance reached 0.12 m over it)."""
    return (tuning().pick.approach_m, *tuning().place.lower_pre_heights_m)


def spot(
    support: Support,
    obs: Observation,
    ctx: SkillContext,
    obj: str,
    near: tuple[float, float],
    half: tuple[float, float],
    entry: tuple[tuple[float, float], float] | None = None,
) -> tuple[float, float] | None:
    """A free point on ``support`` for ``obj`` (footprint half extents ``half``), nearest ``near``: the
    footprint inside the support where it fits (else the centre ``skills.place.edge_m`` in), clear of other objects
    and, with ``entry`` (an edge's outward normal and its coordinate along it: the object comes in level
    from there), of the way in from that edge (no other object between it and the edge)."""
    tune = tuning().place
    r = _radius(ctx, obj)
    xmin, ymin, xmax, ymax = support.box
    px, py = (
        min(h + tune.fit_m, (hi - lo) / 2) if h + tune.fit_m <= (hi - lo) / 2 else min(tune.edge_m, (hi - lo) / 2)
        for h, lo, hi in ((half[0], xmin, xmax), (half[1], ymin, ymax))
    )
    xs, ys = np.meshgrid(np.linspace(xmin + px, xmax - px, tune.grid), np.linspace(ymin + py, ymax - py, tune.grid))
    points = np.stack([xs.ravel(), ys.ravel()], axis=1)
    ok = np.ones(len(points), bool)
    for name, other in obs.objects.items():
        if name == obj or abs(other.pos[2] - support.height) > tune.other_height_m:
            continue
        clear = r + _radius(ctx, name) + tune.clear_m
        ok &= np.hypot(points[:, 0] - other.pos[0], points[:, 1] - other.pos[1]) >= clear
        if entry is not None:
            normal, coord = np.asarray(entry[0]), entry[1]
            lateral = np.abs((points - np.asarray(other.pos[:2])) @ np.array([-normal[1], normal[0]]))
            ok &= ~((coord - float(np.asarray(other.pos[:2]) @ normal) < coord - points @ normal) & (lateral < clear))
    if not ok.any():
        return None
    points = points[ok]
    best = int(np.argmin(np.hypot(points[:, 0] - near[0], points[:, 1] - near[1])))
    return float(points[best, 0]), float(points[best, 1])


def cavity_spot(container: str, obs: Observation, ctx: SkillContext, obj: str) -> np.ndarray:
    """Where over ``container``'s cavity ``obj`` (its centre) is let go, in the world: the cavity's centre, or, where
    items already in it stand there, the free point nearest the centre (each footprint radius and
    ``skills.place.clear_m`` apart), else the point farthest from them. Let go onto another item, an item stands
    above the rim and topples out as the hand withdraws."""
    tune = tuning().place
    pose = obs.objects[container]
    profile = ctx.scene.objects[container].asset.container
    turn, origin = rotation(pose.quat), np.asarray(pose.pos)
    radius = _radius(ctx, obj)
    inside = []
    for name, other in obs.objects.items():
        local = turn.T @ (np.asarray(other.pos) - origin)
        if name not in (obj, container) and profile.holds(local, 0.0, tune.inside_above_m)[0]:
            inside.append((local[:2], radius + _radius(ctx, name) + tune.clear_m))
    hx, hy = (max(h - radius, 0.0) for h in profile.inner_half_extents)
    xs, ys = np.meshgrid(np.linspace(-hx, hx, tune.grid), np.linspace(-hy, hy, tune.grid))
    points = np.stack([xs.ravel(), ys.ravel()], axis=1)
    if profile.shape == "round":
        points = points[np.hypot(points[:, 0], points[:, 1]) <= hx]
    points = points[np.argsort(np.hypot(points[:, 0], points[:, 1]), kind="stable")]  # the centre first
    margin = np.full(len(points), np.inf)
    for at, clear in inside:
        margin = np.minimum(margin, np.hypot(points[:, 0] - at[0], points[:, 1] - at[1]) - clear)
    free = np.flatnonzero(margin >= 0.0)
    best = points[free[0]] if len(free) else points[int(np.argmax(margin))]
    return origin + turn @ np.array([best[0], best[1], profile.rim_z])


def _radius(ctx: SkillContext, obj: str) -> float:
    size = ctx.scene.objects[obj].asset.size
    return math.hypot(size[0], size[1]) / 2


class Place(Skill):
    """Put the held ``obj`` on ``support`` (a free spot nearest ``near``) or into ``container``.

    The object may be turned by a quarter or half turn of the wrist on the way (whatever fits the
    support and the IK reaches); the release point keeps the measured hold; the hand comes in from the
    highest of :func:`pre_heights` over it that a stance reaches (``above``)."""

    name = "place"
    above: float | None = None  # how high over the release point the hand came in (set by :meth:`lower`), m

    @property
    def timeout_s(self) -> float:  # type: ignore[override]
        return tuning().place.timeout_s

    @property
    def drop(self) -> float:
        """Release height of the object's bottom over the surface, m."""
        return tuning().place.drop_m

    def __init__(
        self,
        obj: str,
        support: Support | None = None,
        near: tuple[float, float] | None = None,
        container: str | None = None,
    ) -> None:
        if (container is None) == (support is None):
            raise ValueError("place: give a support or a container")
        self.obj, self.support, self.near, self.container = obj, support, near, container

    def target(self) -> str:
        return f"{self.obj} -> {self.container or self.support.name}"

    def look_at(self) -> str | None:
        return self.container or self.support.name

    def preconditions(self, ctx: SkillContext):
        return [g.Holding(predicate="holding", items=[self.obj])]

    def postconditions(self, ctx: SkillContext):
        if self.container:
            return [g.Inside(predicate="inside", items=[self.obj], container=self.container)]
        return [g.On(predicate="on", items=[self.obj], support=self.support.name)]

    def _options(self, ctx: SkillContext, obs: Observation) -> list[Option]:
        """(pad position at release, (finger yaw,)) for each wrist turn that leaves a free spot."""
        held = obs.objects[self.obj]
        pad = pad_pose(ctx, obs)[0]
        hold_dz = pad[2] - held.pos[2]
        held_xy = pad[:2] - np.asarray(held.pos[:2])
        obj_yaw = math.atan2(rotation(held.quat)[1, 0], rotation(held.quat)[0, 0])
        finger = finger_yaw(ctx, obs)
        hand = pad_pose(ctx, obs)[1]
        leaning = hand[2, 0] > -math.cos(tuning().place.leaning)  # a rim pinch's fingers lean: the hand keeps its lean
        size = ctx.scene.objects[self.obj].asset.size
        over = cavity_spot(self.container, obs, ctx, self.obj) if self.container else None  # the same every turn
        out = []
        big = (
            math.hypot(size[0], size[1]) / 2 > tuning().place.big_m
        )  # turning a tray or a bin swings it into the robot
        for turn in (0.0,) if big else (0.0, math.pi / 2, -math.pi / 2):  # a half turn flings light items
            c, s = math.cos(turn), math.sin(turn)
            offset = np.array([c * held_xy[0] - s * held_xy[1], s * held_xy[0] + c * held_xy[1]])
            if over is not None:
                bottom, xy = over[2] + tuning().place.rim_clear_m, over[:2]
            else:
                half = footprint(size, obj_yaw + turn)
                at = self.spot(ctx, obs, half)
                if at is None:
                    continue
                bottom, xy = self.support.height + self.drop, np.asarray(at)
            rot = Rotation.from_euler("z", turn).as_matrix() @ hand if leaning else top_down(finger + turn)
            out.append((np.array([*(xy + offset), bottom + hold_dz]), [rot]))
        return out

    def spot(self, ctx: SkillContext, obs: Observation, half: tuple[float, float]) -> tuple[float, float] | None:
        """Where on the support the object's centre goes (:func:`spot`), or None."""
        return spot(self.support, obs, ctx, self.obj, self.near or obs.base[:2], half)

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        obs, target, rot = yield from self.lower(ctx, obs)
        obs = yield from hold(obs, tuning().place.open_s, ctx, gripper=OPEN)
        obs = yield from cartesian(self.name, obs, ctx, target + UP * self.above, rot, avoid=True)
        return (yield from to_carry(self, ctx, obs, rot))

    def lower(self, ctx: SkillContext, obs: Observation):
        """Stance, approach and down to the release point, still holding: (obs, release point, rotation)."""
        options = self._options(ctx, obs)
        if not options:
            raise self.fail(Reason.NO_SPACE, support=self.support.name if self.support else self.container)
        for height in pre_heights():
            found = stance_search(ctx, obs, options, UP * height, skip=(self.obj,), clear_of=(self.obj,))
            if found is not None:
                break
        else:
            raise self.fail(Reason.UNREACHABLE, at=[round(float(v), 3) for v in options[0][0]])
        self.above = height  # the body's hand goes back up as far after the release
        pose, (above, at, rot, k) = found
        target = options[k][0]
        ctx.log("stance", skill=self.name, target=self.target(), base=[round(v, 3) for v in pose], turn=k)
        obs = yield from approach(self, ctx, obs, pose, skip=(self.obj,))
        obs = yield from cartesian(self.name, obs, ctx, target + UP * self.above, rot, fallback=above, avoid=True)
        if not obs.holding(self.obj):
            raise self.fail(Reason.DROPPED, where="approach", height=round(obs.objects[self.obj].pos[2], 3))
        obs = yield from cartesian(self.name, obs, ctx, target, rot, fallback=at)
        return obs, target, rot


class Release(Skill):
    """Open the fingers where they are and lift the hand clear (empty-handed again)."""

    name = "release"

    @property
    def timeout_s(self) -> float:  # type: ignore[override]
        return tuning().place.release_timeout_s

    def postconditions(self, ctx: SkillContext):
        return [g.HandEmpty(predicate="hand_empty")]

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        tune = tuning().place
        obs = yield from hold(obs, tune.open_s, ctx, gripper=OPEN)
        try:
            lift = (0, 0, tune.release_lift_m)
            waypoints = line_waypoints(
                self.name, obs, ctx, pad_pose(ctx, obs)[0] + lift, top_down(finger_yaw(ctx, obs))
            )
        except SkillFailure:
            return obs
        return (yield from move_arm(self.name, obs, waypoints, ctx, speed=tune.release_speed, avoid=True))
