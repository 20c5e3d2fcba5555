"""The stance search every skill that reaches for something stands by: a base pose from which the IK reaches a pad
target and its pre-pose, clear of the house and the props (:func:`stance_search`), and what the descent keeps
still (:func:`still`)."""

from __future__ import annotations

import math

import numpy as np

from housebench.house.query import HouseQuery
from housebench.house.reach import candidates, near_cells
from housebench.house.stance import stance_free
from housebench.planning.reach import first_reaching
from housebench.robot.fetch import BASE_JOINTS, TORSO_JOINT
from housebench.robot.kinematics import top_down
from housebench.skills.base import SkillContext
from housebench.skills.grasp import tilted
from housebench.skills.legs import base_joints
from housebench.skills.motion import arm_clear, arm_planner, ready_arm
from housebench.skills.navigate import obstacle_boxes, part_points, planner
from housebench.skills.tuning import tuning
from housebench.skills.view import ik, wrap
from housebench.state import Observation

HAND_BODIES = ("gripper", "wrist_roll")  # links rigid with the hand (the wrist roll is the last joint)
PART = "part:"  # the arm planning scene names an articulated part's body so


Option = tuple[np.ndarray, list[np.ndarray]]  # target position of the pad, rotations to try there


def top_down_option(target: np.ndarray, yaws) -> Option:
    return target, [top_down(y) for y in yaws]


def leaned(rot: np.ndarray, pose, target: np.ndarray, angle: float) -> np.ndarray:
    """``rot`` :func:`tilted` by ``angle``, the approach tipped away from the base at ``pose`` towards ``target``:
    the wrist above the pad comes back towards the base."""
    return tilted(rot, angle, np.asarray(target[:2]) - np.asarray(pose[:2]))


def stance_search(
    ctx: SkillContext,
    obs: Observation,
    options: list[Option],
    pre: np.ndarray,
    skip: tuple[str, ...] = (),
    poses=None,
    clear_of: tuple[str, ...] | None = None,
    walls: tuple[str, ...] = (),
    reach: float | None = None,
    lean: float = 0.0,
    leaves: bool = False,
):
    """(base pose, (pre joints, at joints, rotation, option index)) from which the IK reaches one of
        ``options`` (pad target, rotations) and the pre-pose ``pre`` off it, or None. Poses (default: rings
        around the options' centre, facing it) must be clear of the house and the props (but ``skip``) by
        the height-aware footprint, inside a room and near the floor's largest free piece, and within ``reach``
    (m, horizontal) of a target. With
        ``clear_of``, the arm at the pre-pose keeps clear of the house and the props but those, and at the
        target runs into no part of the house (:func:`arm_clear`) nor the containers ``walls``. With ``leaves``,
        the arm at the pre-pose and at the target runs into no open door's leaf from outside (:func:`leaves_clear`).
        ``lean``
        (rad): each rotation :func:`leaned` away from the pose by that much. Default ``reach``:
    ``skills.pick.reach_m``."""
    tune = tuning().pick
    reach = tune.reach_m if reach is None else reach
    solver = ik(ctx)
    descent = still(walls)
    base_planner = planner(ctx, obs, skip)
    grid = base_planner.grid
    reachable = base_planner.main
    boxes = obstacle_boxes(ctx, obs, skip)

    rooms = HouseQuery(ctx.scene.house)

    def accept(pose) -> bool:
        inside = rooms.room_at(pose[0], pose[1]) is not None  # not beyond an outer wall
        return inside and near_cells(reachable, grid, pose, tune.near_cells_m) and stance_free(pose, boxes)

    def lateral(rot: np.ndarray, pose) -> float:  # fingers across the heading suit the arm best
        return abs(wrap(2 * (math.atan2(rot[1, 1], rot[0, 1]) - pose[2] - math.pi / 2)))

    def reaches(pose):
        start = {**obs.joints, **ready_arm(ctx), **base_joints(pose)}
        near = sorted(range(len(options)), key=lambda k: math.dist(options[k][0][:2], pose[:2]))
        for k in near[: tune.options_tried]:
            target, rots = options[k]
            if math.dist(target[:2], pose[:2]) > reach:
                continue
            for rot in sorted(rots, key=lambda r: lateral(r, pose))[: tune.rotations_tried]:
                rot = leaned(rot, pose, target, lean) if lean else rot
                hi = solver.solve(start, target + pre, rot, max_iters=tune.ik_iters)
                if not hi.ok():
                    continue
                lo = solver.solve(hi.joints, target, rot, max_iters=tune.ik_iters, frozen=descent)
                if not lo.ok() or (leaves and not leaves_clear(ctx, obs, hi.joints, lo.joints)):
                    continue
                if clear_of is None or clear(hi.joints, lo.joints, clear_of):
                    return hi.joints, lo.joints, rot, k
        return None

    def clear(above: dict[str, float], at: dict[str, float], skip: tuple[str, ...]) -> bool:
        return arm_clear(ctx, obs, above, skip) and arm_clear(ctx, obs, at, skip, touch=True) and walls_clear(at)

    def walls_clear(at: dict[str, float]) -> bool:  # a container's boxes are its walls: exact, not coarse
        if not walls:
            return True
        scene = arm_planner(ctx).scene
        scene.sync(obs.joints, {n: obs.objects[n] for n in walls}, None, obs.parts)
        return all(dist >= 0.0 and in_hand(scene, pair) for pair, dist in scene.contacts(at).items())

    if poses is None:
        centre = np.mean([o[0][:2] for o in options], axis=0)
        poses = candidates((float(centre[0]), float(centre[1])), accept)
    else:
        poses = (p for p in poses if accept(p))
    return first_reaching(poses, reaches)


def leaves_clear(ctx: SkillContext, obs: Observation, *joints: dict[str, float]) -> bool:
    """Whether the bare arm at each of ``joints`` runs into no open part from its outer face (the face its handle is
    on, moved with it): a door's leaf gives way to the arm without stalling it, so run into from outside it swings
    shut across the opening behind the hand, and only this check sees it; run into from inside, it swings further
    open, off the opening."""
    scene = arm_planner(ctx).scene
    scene.sync(obs.joints, {}, None, obs.parts)
    model, data, parts = scene.model, scene.data, HouseQuery(ctx.scene.house).parts
    for at in joints:
        scene.contacts(at)  # leaves this pose's contacts in ``data.contact``
        for a, b, dist in zip(data.contact.geom1, data.contact.geom2, data.contact.dist):
            leaf, arm = (a, b) if a in scene.part_geoms else (b, a)
            if dist >= 0.0 or leaf not in scene.part_geoms:
                continue
            part = parts.get(model.body(int(model.geom_bodyid[leaf])).name.removeprefix(PART))
            if part is None or part.handle is None:
                continue
            pivot, out = part_points(part, [part.pivot, np.add(part.pivot, part.handle.normal)], obs.parts[part.name])
            if (data.geom_xpos[arm] - pivot) @ (out - pivot) > 0.0:
                return False
    return True


def still(walls: tuple[str, ...]) -> tuple[str, ...]:
    """The joints the descent to the grasp and the lift keep still: into a container the torso too (left
    free, the IK lowered the torso 20 cm into the toy box and the upper arm came down onto its rim)."""
    return (*BASE_JOINTS, TORSO_JOINT) if walls else BASE_JOINTS


def in_hand(scene, pair: tuple[int, int]) -> bool:
    """Whether a geom of ``pair`` moves with the hand (gripper, fingers, the wrist roll link they hang from: the
    straight descent carries them straight down): only those go into a container and near its walls; the
    upper arm 1 cm over the toy box's rim at the grasp came down onto it in the descent and stalled."""
    model = scene.model
    return any(part in model.body(int(model.geom_bodyid[g])).name for g in pair for part in HAND_BODIES)
