"""look: the head camera aimed at what the running skill works on, so a demonstration's head images show it.

Each skill names what it works on (:meth:`~housebench.skills.base.Skill.look_at`): the item a pick takes, the
container or surface a place puts it on, the object, surface or part a drive goes to, the handle of the door
it opens or closes. :func:`where` is the one rule for the point of that name the head aims at (and the
recording judges in view); :func:`look` is what the one skill driver (:func:`~housebench.skills.drive.drive`)
passes every action through: it adds pan and tilt targets aimed at that point (:meth:`HeadCamera.aim`, geometry
on the kinematic model) to whatever the skill commands, and logs a ``look`` event whenever the name changes. A
skill that commands the head itself (``look``, ``scan``, ``reset``) keeps its own targets, and the head holds
still while the hand carries what it looks at (a pick's lift and carry); the arm, base and fingers are never
touched.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from housebench.annotations.schema import SceneAnnotations
from housebench.robot.fetch import HEAD_JOINTS
from housebench.robot.head import HeadCamera
from housebench.skills.base import Skill, SkillContext
from housebench.skills.navigate import part_points
from housebench.skills.view import held
from housebench.state import Action, Observation
from housebench.tasks import geometry, refs


def where(scene: SceneAnnotations, places: dict[str, list[str]], obs: Observation, name: str) -> np.ndarray | None:
    """The world point of ``name`` the head looks at, from the ground truth: a prop's box centre; a door's,
    drawer's, button's or knob's handle where its joint stands now; a surface (a support, a place alias, or
    furniture with surfaces): the point of its top nearest the held item (the gripper when the hand is
    empty), so a place is watched where it sets down; any other piece of the house: its boxes' centre.
    None for a name that is none of these."""
    if name in scene.objects and name in obs.objects:
        return geometry.centre(obs.objects[name], scene.objects[name].asset)
    part = next((p for p in scene.house.articulated if p.name == name), None)
    if part is not None:
        return part_points(part, part.handle.center, obs.parts.get(name, part.closed))[0]
    surfaces = refs.supports(name, places, scene.house)
    if surfaces:
        item = held(obs)
        ref = np.asarray(obs.ee_pos, float)
        if item is not None and item in scene.objects:
            ref = geometry.centre(obs.objects[item], scene.objects[item].asset)
        tops = [np.array([*np.clip(ref[:2], s.box[:2], s.box[2:]), s.height]) for s in surfaces]
        return min(tops, key=lambda p: float(np.linalg.norm(p - ref)))
    boxes = refs.boxes(name, scene.house)
    if boxes:
        lo, hi = np.min([b[:3] for b in boxes], axis=0), np.max([b[3:] for b in boxes], axis=0)
        return (lo + hi) / 2
    return None


@dataclasses.dataclass
class _Gaze:
    """The name last logged in this context's ``look`` events (one per change, not per step)."""

    name: str | None = None


def look(skill: Skill, ctx: SkillContext, obs: Observation, action: Action) -> Action:
    """``action`` with the head aimed at what ``skill`` works on now (when ``ctx.look``); a ``look`` event
    (``target``: the name, '' for none) whenever that changes, whether or not the head is moved, so a
    recording with a fixed head is measured on the same targets."""
    name = skill.look_at()
    point = None if name is None else where(ctx.scene, ctx.task.goal.places, obs, name)
    name = None if point is None else name  # a drive "to room to tuck" names nothing to see
    gaze = ctx.tool("gaze", _Gaze)
    if name != gaze.name:
        ctx.log("look", target=name or "")
        gaze.name = name
    if not ctx.look or point is None or any(j in action.joints for j in HEAD_JOINTS):
        return action
    if held(obs) == name:  # taken: the head stays where it watched the grasp. A head that follows the item up
        # past its own face stands in the way of the carry path planned round it (a longer path, whose swing can
        # shake a held item loose)
        return action
    head = ctx.tool("head_camera", HeadCamera).aim(obs.joints, point)
    return dataclasses.replace(action, joints={**action.joints, **head})
