"""Grasp geometry from the annotations: where the pad centre goes and how the fingers turn.

The annotated grasp primitive's ``point`` lies between the fingertips; Fetch's grasp frame is the
pad centre, 38.5 mm further up the fingers. A top pinch puts the pad centre at the object's middle
height (or 4 cm under its top for tall ones), never so low that the fingertips touch the support. A
rim pinch takes a container's wall from above, fingers across the wall, at any of four points
around the rim (the annotated one turned by quarter turns), the nearest the centre only, the fingers
leaning towards the centre by the wall's flare (:func:`rim_lean`) along a line through the annotated
point. A top pinch
inside a box (:func:`in_box`) closes the fingers along the nearest wall, the pad shifted off it within
the item's extent and, where that is not enough, the hand tilted about the fingers' closing axis so the
palm leans off the wall; a wall at the end of the closing axis (an item in a corner) moves the pad
along the fingers, which open wider (the nearer finger pushes the item to the middle as they close).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.spatial.transform import Rotation

from housebench.annotations.schema import AssetAnnotation, ContainerProfile
from housebench.robot.fetch import GRIPPER_OPENING
from housebench.robot.kinematics import top_down
from housebench.skills.tuning import tuning
from housebench.state import ObjectState
from housebench.tasks.geometry import rotation

FINGER_HALF = 0.0385  # pad centre to fingertip, m
UP = np.array([0.0, 0.0, 1.0])
OPEN, CLOSED = 0.1, 0.0  # finger gap targets, m (open: the hand's full opening)
HAND_HALF, HAND_REACH = 0.041, 0.063  # the gripper link's half extents across and in the fingers' plane, m
PAD_HALF = 0.0135  # half the finger pad's width (across the closing direction), m


def edge_only(asset: AssetAnnotation) -> bool:
    """Whether the item is taken only at an overhang (a flat item: book, notebook, plate), so held by its end."""
    return {g.kind for g in asset.grasps} == {"edge_pinch_after_push"}


@dataclass(frozen=True)
class TopGrasp:
    kind: str
    pad: np.ndarray  # world position of the pad centre at the grasp
    yaws: tuple[float, ...]  # finger-closing directions to try (world yaw), best first
    opening: float = GRIPPER_OPENING  # finger gap on the way in, m
    lean: float = 0.0  # the fingers lean this far (rad) from straight down towards ``towards``
    towards: tuple[float, float] = (1.0, 0.0)  # horizontal unit direction of the lean (a container's centre)
    tilt: float = 0.0  # rad the hand tilts about the closing axis, the palm leaning towards ``palm``
    palm: tuple[float, float] = (0.0, 0.0)  # world horizontal direction the palm leans (with ``tilt``)

    def rotations(self) -> list[np.ndarray]:
        """The grasp frame's rotation for each yaw: from above, turned about the fingers' plane normal so
        that they point ``lean`` towards ``towards``, and tilted by ``tilt`` about the closing axis so the
        palm leans towards ``palm``."""
        out = []
        for yaw in self.yaws:
            rot = top_down(yaw)
            side = 1.0 if rot[:2, 1] @ np.asarray(self.towards) >= 0 else -1.0  # the closing axis, inwards or out
            rot = Rotation.from_rotvec(rot[:, 2] * side * self.lean).as_matrix() @ rot
            out.append(tilted(rot, self.tilt, -np.asarray(self.palm)) if self.tilt else rot)  # palm: +z of the hand
        return out


def tilted(rot: np.ndarray, angle: float, towards) -> np.ndarray:
    """``rot`` turned by ``angle`` about its fingers' closing axis (they stay level), the approach tipped
    towards the horizontal direction ``towards`` (and so the palm away from it)."""
    turn = Rotation.from_rotvec(angle * rot[:, 1]).as_matrix() @ rot
    if turn[:2, 0] @ np.asarray(towards)[:2] >= 0.0:
        return turn
    return Rotation.from_rotvec(-angle * rot[:, 1]).as_matrix() @ rot


def opening(width: float) -> float:
    """The finger gap to approach a part ``width`` wide with."""
    tune = tuning().grasp
    return min(GRIPPER_OPENING, width + tune.open_margin_m)


def grasps(asset: AssetAnnotation, pose: ObjectState) -> list[TopGrasp]:
    """Every grasp from above this asset offers (empty: none fits the gripper)."""
    tune = tuning().grasp
    rot = rotation(pose.quat)
    if rot[2, 2] < tune.tilted:  # fallen over: take it from above by its world box, any way it fits
        return _fallen(asset, pose)
    origin = np.asarray(pose.pos)
    out = []
    for prim in asset.grasps:
        if prim.width > tune.max_width_m:
            continue
        axis = rot @ np.asarray(prim.axis)
        yaw = math.atan2(axis[1], axis[0])
        if prim.kind == "top_pinch":
            height = asset.size[2]
            low = FINGER_HALF + (tune.thin_tip_m if height < tune.thin_m else tune.tip_clearance_m)
            pad_z = max(
                low,
                height - tune.top_margin_m if height > tune.tall_margins * tune.top_margin_m else height / 2,
            )
            pad = origin + rot @ np.array([prim.point[0], prim.point[1], pad_z - asset.bottom_offset])
            yaws = [yaw, yaw + math.pi]
            if max(asset.size[0], asset.size[1]) <= tune.max_width_m:  # narrow both ways: taken across as well
                yaws += [yaw + math.pi / 2, yaw - math.pi / 2]
            out.append(TopGrasp("top_pinch", pad, tuple(yaws), opening(prim.width)))
        elif prim.kind == "rim_pinch" and asset.container is not None:
            pad_z = max(
                FINGER_HALF + tune.tip_clearance_m,
                prim.point[2] + FINGER_HALF - (tune.rim_depth_m - tune.rim_depth_slack_m),
            )
            hx, hy = asset.container.inner_half_extents
            wall = abs(prim.point[0]) - hx  # the annotated point sits on the -x wall
            lean = rim_lean(asset.container, prim.width)
            out_shift = (pad_z - prim.point[2]) * math.tan(lean)  # the leaning fingers' line through the point
            points = ((-(hx + wall), 0, 0.0), (hx + wall, 0, 0.0), (0, -(hy + wall), 1), (0, hy + wall, 1))
            shortest = min(abs(lx) + abs(ly) for lx, ly, _ in points)
            for lx, ly, ayaw in points:
                if abs(lx) + abs(ly) > shortest + tune.rim_side_tol_m:  # held by a long side: the lever is shortest
                    continue
                outwards = np.array([lx, ly]) / math.hypot(lx, ly)
                local = np.array([*(np.array([lx, ly]) + outwards * out_shift), pad_z - asset.bottom_offset])
                pad = origin + rot @ local
                turn = yaw + ayaw * math.pi / 2
                inwards = -(rot[:2, :2] @ outwards)
                out.append(
                    TopGrasp("rim_pinch", pad, (turn, turn + math.pi), opening(prim.width), lean, tuple(inwards))
                )
    return out


def rim_lean(container: ContainerProfile, width: float) -> float:
    """How far (rad) a rim pinch's fingers lean towards the centre: a round container's flare from the rim's
    outer edge down to the cavity's half extent measured at mid-depth (``width`` across), where that is
    over ``skills.grasp.flared`` (a bowl); else 0. Straight fingers across a bowl's flared wall pivot it out of the
    pinch under its load (it turns in the carry, slowly, until it falls); leaning by the flare, the squeeze holds
    its far side up. A basket's wall stands near upright (held straight, it holds), a rectangular tray's or box's
    width is its wall's thickness."""
    tune = tuning().grasp
    flare = math.atan2(width, (container.rim_z - container.floor_z) / 2)
    return flare if container.shape == "round" and flare >= tune.flared else 0.0


def round_item(asset: AssetAnnotation) -> bool:
    """Whether the footprint is square enough to take the item as round (a solid of revolution)."""
    tune = tuning().grasp
    return abs(asset.size[0] - asset.size[1]) <= tune.round_m


def extent(asset: AssetAnnotation, rot: np.ndarray, d: np.ndarray) -> float:
    """The item's extent along the world direction ``d`` posed by ``rot``: its box's, a round item's
    cylinder's (a can lying on its side is its diameter across, whichever way it rolled)."""
    along = rot.T @ d  # d in the item's frame
    sx, sy, sz = asset.size
    if round_item(asset):
        return float(sx * math.hypot(along[0], along[1]) + sz * abs(along[2]))
    return float(sx * abs(along[0]) + sy * abs(along[1]) + sz * abs(along[2]))


def _fallen(asset: AssetAnnotation, pose: ObjectState) -> list[TopGrasp]:
    """A top pinch of a tilted or fallen item from its pose: the fingers across its narrowest horizontal
    extent (1 deg steps) and, where it fits too, square to that, the pad at its centre (the fingertips
    clear of what it lies on)."""
    tune = tuning().grasp
    rot = rotation(pose.quat)
    angles = np.radians(np.arange(180))
    widths = [extent(asset, rot, np.array([math.cos(a), math.sin(a), 0.0])) for a in angles]
    best = int(np.argmin(widths))
    square = (best + 90) % 180
    across = [(float(angles[i]), widths[i]) for i in (best, square) if widths[i] <= tune.max_width_m]
    if not across:
        return []
    height = extent(asset, rot, np.array([0.0, 0.0, 1.0]))
    low = FINGER_HALF + (tune.thin_tip_m if height < tune.thin_m else tune.tip_clearance_m)
    centre = np.asarray(pose.pos) + rot @ np.array([0.0, 0.0, asset.size[2] / 2 - asset.bottom_offset])
    pad = np.array([centre[0], centre[1], centre[2] + max(low - height / 2, 0.0)])
    yaws = tuple(yaw + k * math.pi for yaw, _ in across for k in (0, 1))
    return [TopGrasp("top_pinch", pad, yaws, opening(max(width for _, width in across)))]


def in_box(grasp: TopGrasp, asset: AssetAnnotation, pose: ObjectState, box: AssetAnnotation, at: ObjectState):
    """``grasp`` (a top pinch) for the item lying in the rectangular container ``box`` posed ``at``, so near
    a wall that the hand turned any way would not clear it: the fingers close along that wall, the pad
    shifted off it as far as the hand needs and the finger pads stay on the item, the hand tilted
    (``skills.grasp.tilt``) where that is not enough, and the pad moved along the fingers off a wall at either end of
    them (the fingers open wider by as much); else as it is (also when the pad is not in the box's
    cavity or the item is too wide along the wall)."""
    tune = tuning().grasp
    profile = box.container
    if grasp.kind != "top_pinch" or profile is None or profile.shape != "rect":
        return grasp
    rot = rotation(at.quat)
    local = rot.T @ (grasp.pad - np.asarray(at.pos))
    half = profile.inner_half_extents
    if not (abs(local[0]) < half[0] and abs(local[1]) < half[1] and local[2] + box.bottom_offset < profile.rim_z):
        return grasp
    gaps = {(k, side): half[k] - side * local[k] for k in (0, 1) for side in (1.0, -1.0)}
    (axis, side), gap = min(gaps.items(), key=lambda kv: kv[1])
    if gap >= HAND_REACH + tune.wall_clear_m:
        return grasp
    along = rot[:, 1 - axis]  # the wall's direction: the fingers close along it
    normal = -side * rot[:, axis]  # away from the wall
    item = rotation(pose.quat)[:2, :2] * np.asarray(asset.size[:2])  # the item's footprint axes, scaled
    width = float(np.abs(along[:2] @ item).sum())  # the item's extent along the wall
    if width > tune.max_width_m:
        return grasp
    room = float(min(asset.size[:2])) / 2 - PAD_HALF  # how far the pads may slide off the item's middle
    shift = float(np.clip(HAND_HALF + tune.wall_clear_m - gap, 0.0, max(room, 0.0)))
    tilt = 0.0 if gap + shift >= HAND_HALF + tune.wall_clear_m else tune.tilt
    u, h = local[1 - axis], half[1 - axis]  # the pad along the fingers, the cavity's half length that way
    slide = float(min(h - u - HAND_REACH - tune.wall_clear_m, 0.0) - min(h + u - HAND_REACH - tune.wall_clear_m, 0.0))
    limit = max((GRIPPER_OPENING - width) / 2 - tune.finger_clear_m, 0.0)
    slide = float(np.clip(slide, -limit, limit))
    pad = grasp.pad + shift * normal + slide * along + UP * (PAD_HALF * math.sin(tilt))  # tipped tips clear the floor
    yaw = math.atan2(along[1], along[0])
    gap_open = min(GRIPPER_OPENING, max(opening(width), width + 2 * (abs(slide) + tune.finger_clear_m)))
    lean = (float(normal[0]), float(normal[1]))
    return TopGrasp("top_pinch", pad, (yaw, yaw + math.pi), gap_open, tilt=tilt, palm=lean)
