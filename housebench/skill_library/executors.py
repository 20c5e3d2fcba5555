"""The skills that carry out a leaf SkillNode in the live episode:
``executor(verb)(args, world, ctx, obs, path)`` (``path``: the policy path the noun chose): the table
:data:`EXECUTORS` here, else the skill that names the verb as its own (``Skill.verb``, ``Skill.for_call``).

Most are the skills package's own (navigate, pick and its slide-and-pinch, place, release, press, push
to an edge, tuck and reset, stack, lower, regrasp, lay, upright, push/pull/sweep into a zone, switch a
knob, open and close); the verbs it does not have that need no new manipulation are small skills here
(wait, look, scan, lift, face, retreat). A verb without an executor fails its call with ``unsupported``;
nested contracts never need one (they run the skills they call).
"""

from __future__ import annotations

import importlib
import math
import pkgutil
from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np

import housebench.skills as skills_package
from housebench.annotations.schema import Support
from housebench.house.query import HouseQuery
from housebench.house.reach import candidates, near_cells
from housebench.house.stance import stance_free
from housebench.planning.base_path import NoPath
from housebench.robot.head import HeadCamera
from housebench.skill_library.choose import Noun, choose
from housebench.skill_library.contracts import World
from housebench.skills.articulate import Close, Open
from housebench.skills.base import VERBS, Reason, Skill, SkillContext, SkillFailure, SkillGen
from housebench.skills.body import Pose
from housebench.skills.carry import Carry
from housebench.skills.contact import Shove
from housebench.skills.flat_push import PushToEdge
from housebench.skills.front import lead_in
from housebench.skills.hand import Lower, Regrasp, Stack
from housebench.skills.knob import Turn
from housebench.skills.lay import Lay, Upright
from housebench.skills.motion import cartesian, hold
from housebench.skills.navigate import Navigate, arrive, obstacle_boxes, part_box, planner
from housebench.skills.place import Release
from housebench.skills.press import Press
from housebench.skills.side import SidePick, SidePlace
from housebench.skills.tuning import tuning
from housebench.skills.view import held, pad_pose, side_held, wrap
from housebench.state import Action, Observation
from housebench.tasks import geometry, refs

STANCE = (0.6, 0.7, 0.5, 0.8, 0.9, 1.0, 1.2)  # ring radii beyond the target's half extent, in order
HEAD_TOL, HEAD_WAIT_S = 0.03, 30.0  # rad, s: how close the head gets to its target, how long it may take
PAN_MAX = 1.4  # rad: the head pans this far either way before the base turns (its stop: 1.57)
LIFT_MARGIN = 0.015  # metres past the asked height: a held object hangs a little lower in the fingers
MAX_GAP = 0.9  # metres: a stance stays this close to the target's box (the contracts ask for 1 m)
DOOR_NEAR = 0.8  # metres: an open door this near the base is in the carry arm's way as the base turns
Factory = Callable[[dict[str, Any], World, SkillContext, Observation, str], Skill]


def target_box(world: World, obs: Observation, name: str) -> tuple[float, ...]:
    """The world box of an object (where it is now) or of a named piece of the house."""
    if name in world.scene.objects:
        return geometry.world_box(obs.objects[name], world.scene.objects[name].asset)
    found = refs.boxes(name, world.scene.house)
    if not found:
        raise SkillFailure("navigate", Reason.UNSUPPORTED, target=name)
    lo, hi = np.min([b[:3] for b in found], axis=0), np.max([b[3:] for b in found], axis=0)
    return (*map(float, lo), *map(float, hi))


def stance(world: World, ctx: SkillContext, obs: Observation, name: str, skip=()) -> tuple[float, float, float]:
    """A free base pose facing ``name``'s box centre on rings around it (:data:`STANCE`), at most
    :data:`MAX_GAP` from its box, inside a room, on the reachable floor (the skills' own footprint and
    floor grid)."""
    box = target_box(world, obs, name)
    centre = ((box[0] + box[3]) / 2, (box[1] + box[4]) / 2)
    reach = max(box[3] - box[0], box[4] - box[1]) / 2
    base_planner = planner(ctx, obs, skip)
    grid = base_planner.grid
    try:
        reachable = grid.reachable(*base_planner.world(base_planner.nearest_free(obs.base[:2])))
    except NoPath as err:  # hemmed in (by a dropped prop): the node fails, the episode goes on
        raise SkillFailure("navigate", Reason.NO_PATH, error=str(err)) from None
    boxes = obstacle_boxes(ctx, obs, skip)
    rooms = HouseQuery(ctx.scene.house)

    def accept(pose) -> bool:  # inside a room: a ring pose beyond an outer wall is off the floor grid
        gap = math.hypot(max(box[0] - pose[0], 0.0, pose[0] - box[3]), max(box[1] - pose[1], 0.0, pose[1] - box[4]))
        inside = rooms.room_at(pose[0], pose[1]) is not None
        return inside and gap <= MAX_GAP and near_cells(reachable, grid, pose, 0.1) and stance_free(pose, boxes)

    for pose in candidates(centre, accept, tuple(reach + d for d in STANCE)):
        return pose
    raise SkillFailure("navigate", Reason.UNREACHABLE, target=name)


class Wait(Skill):
    name = "wait"

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.timeout_s = seconds + 10.0

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        return (yield from hold(obs, self.seconds, ctx))


class Look(Skill):
    """Pan and tilt the head so the camera axis passes through an object's centre; the base turns to
    face it first when the pan would pass the head's stop (:data:`PAN_MAX`)."""

    name = "look"

    def __init__(self, world: World, obj: str) -> None:
        self.world, self.obj = world, obj
        self.timeout_s = HEAD_WAIT_S + 25.0

    def target(self) -> str:
        return self.obj

    def look_at(self) -> str | None:
        return self.obj

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        asset = self.world.scene.objects[self.obj].asset
        centre = geometry.centre(obs.objects[self.obj], asset)
        x, y, yaw = obs.base
        bearing = math.atan2(centre[1] - y, centre[0] - x)
        if abs(wrap(bearing - yaw)) > PAN_MAX:
            obs = yield from Navigate((x, y, bearing), why=self.obj).body(ctx, obs)
        joints = ctx.tool("head_camera", HeadCamera).aim(obs.joints, centre)  # the rule every skill's head follows
        waited = 0.0  # the head moves with a time constant of about 0.7 s
        while waited < HEAD_WAIT_S and max(abs(obs.joints[j] - q) for j, q in joints.items()) > HEAD_TOL:
            obs = yield Action(joints=joints)
            waited += ctx.control_dt
        return obs  # the contract measures where it looks


class Sequence(Skill):
    """Several skills' bodies one after the other, as one call (push to an edge, then pinch there)."""

    def __init__(self, name: str, *parts: Skill) -> None:
        self.name, self.parts = name, parts
        self.timeout_s = sum(p.timeout_s for p in parts)
        self.current: Skill | None = None

    def look_at(self) -> str | None:
        return self.current.look_at() if self.current is not None else None

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        for part in self.parts:
            self.current = part
            obs = yield from part.body(ctx, obs)
        return obs


class Scan(Skill):
    """Look at each instance of a role in turn (nearest first)."""

    name = "scan"

    def __init__(self, world: World, role: str) -> None:
        self.world, self.role = world, role
        self.timeout_s = (HEAD_WAIT_S + 5.0) * max(1, len(world.instances(role)))

    def target(self) -> str:
        return self.role

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        def far(name: str) -> float:
            return math.dist(obs.objects[name].pos[:2], obs.base[:2])

        for name in sorted(self.world.instances(self.role), key=far):
            obs = yield from Look(self.world, name).body(ctx, obs)
        return obs


class Lift(Skill):
    """Raise the held object straight up by moving the grasp frame along a vertical line (IK)."""

    name = "lift"
    timeout_s = 20.0

    def __init__(self, height: float) -> None:
        self.height = height

    def body(self, ctx: SkillContext, obs: Observation) -> SkillGen:
        pos, rot = pad_pose(ctx, obs)
        up = self.height + LIFT_MARGIN
        return (yield from cartesian(self.name, obs, ctx, pos + (0.0, 0.0, up), rot, gripper=0.0))


def _bound_supports(world: World, obj: str) -> list[Support]:
    """The supports the plan being run sets ``obj`` on next (none for a container or nothing)."""
    where = world.bound_for.get(obj)
    return refs.supports(where, world.places, world.scene.house) if where else []


def _chosen(verb: str, noun: Noun) -> Skill:
    """The choice table's way for ``noun``, as one skill."""
    _, parts = choose(verb, noun)
    return parts[0] if len(parts) == 1 else Sequence(verb, *parts)


def _pick(args, world, ctx, obs, path) -> Skill:
    obj = args["object"]
    return _chosen("pick", Noun(ctx, obs, obj, supports=_bound_supports(world, obj)))


def _place(args, world, ctx, obs, path) -> Skill:
    return _chosen("place", Noun(ctx, obs, args["object"], support=_support(world, args["support"])))


def _insert(args, world, ctx, obs, path) -> Skill:
    return _chosen("insert", Noun(ctx, obs, args["object"], container=args["container"]))


def _navigate(args, world, ctx, obs, path) -> Skill:
    """With an empty hand the arm tucked to a door or button (as open and close drive in) and away from
    beside an open door (the carry arm, turning there, knocked the microwave door half shut), unfolded
    at the stance; else in the carry pose, facing the way there and turned at the stance (:func:`arrive`;
    into an appliance, in front of its opening first: :func:`lead_in`). The stance is the next call's own
    where that is a side pick or place of the target (:func:`_next_stance`), else a ring pose round the
    target (:func:`stance`). Driven straight to the place's stance (no turn on the spot), a box carried
    11 m to a bookcase fell off the fingers."""
    name = args["target"]
    if held(obs) is None and name in world.query.parts:
        return Sequence("navigate", Pose("tuck"), Navigate(stance(world, ctx, obs, name), why=name))
    own = _next_stance(name, world, ctx, obs)
    pose = own or stance(world, ctx, obs, name)
    if held(obs) is None and _beside_open_door(world, obs):
        return Sequence("navigate", Pose("tuck"), Navigate(pose, why=name), Carry())
    front = lead_in(ctx, obs, support) if own and (support := _named_support(world, name)) else None
    if front is not None:  # into an appliance: in front of its opening first, then on to the place's stance
        return Sequence(
            "navigate",
            Carry(),
            Navigate(front, why=f"in front of {name}", look=name),
            *arrive(pose, front, ctx, obs, name),
        )
    return Sequence("navigate", Carry(), *arrive(pose, obs.base, ctx, obs, name))


def _named_support(world: World, name: str) -> Support | None:
    """The support ``name`` names (None for an object or a part)."""
    if name in world.scene.objects:
        return None
    found = refs.supports(name, world.places, world.scene.house)
    return found[0] if found else None


def _next_stance(name: str, world: World, ctx: SkillContext, obs: Observation) -> tuple[float, float, float] | None:
    """The base pose of the plan's next call when it is a side pick or place of ``name`` (an item in or
    bound for a fridge or microwave), or None. Driven to a ring pose first, the pick's own approach swept
    the carry arm into the fridge's side, and the carried juice, turning by the door towards a ring pose,
    swung the open fridge door shut."""
    verb, args = world.next_call or ("", {})
    if verb not in ("pick", "place") or name not in (args.get("object"), args.get("support")):
        return None
    try:
        skill = EXECUTORS[verb](args, world, ctx, obs, "")
        return skill.stance(ctx, obs) if isinstance(skill, (SidePick, SidePlace)) else None
    except SkillFailure:  # none reaches from here: the call says so itself
        return None


def _beside_open_door(world: World, obs: Observation) -> bool:
    """Whether an open door stands within :data:`DOOR_NEAR` of the base."""
    x, y, _ = obs.base
    for name, q in obs.parts.items():
        part = world.query.parts.get(name)
        if part is not None and part.category == "door" and abs(q - part.closed) > tuning().navigate.open_part:
            box = part_box(part, q)
            if math.hypot(max(box[0] - x, 0.0, x - box[3]), max(box[1] - y, 0.0, y - box[4])) < DOOR_NEAR:
                return True
    return False


def _face(args, world, ctx, obs, path) -> Skill:
    box = target_box(world, obs, args["target"])
    x, y, _ = obs.base
    yaw = math.atan2((box[1] + box[4]) / 2 - y, (box[0] + box[3]) / 2 - x)
    return Navigate((x, y, yaw), why=args["target"])


def _retreat(args, world, ctx, obs, path) -> Skill:
    x, y, yaw = obs.base
    return Navigate((x - 0.8 * math.cos(yaw), y - 0.8 * math.sin(yaw), yaw), why=args["target"])


def _open(args, world, ctx, obs, path) -> Skill:
    """Open, the arm tucked first when the hand points down (it would swing round the door's wrong side);
    a close always tucks first: it drives in tucked and unfolds at its stance, clear of the open door."""
    if side_held(ctx, obs):
        return Open(args["part"])
    return Sequence("open", Pose("tuck"), Open(args["part"]))


def _support(world: World, ref: str) -> Support:
    return refs.supports(ref, world.places, world.scene.house)[0]


EXECUTORS: dict[str, Factory] = {
    "navigate": _navigate,
    "approach": lambda a, w, c, o, p: Sequence(
        "approach", Carry(), Navigate(stance(w, c, o, a["object"]), why=a["object"])
    ),
    "face": _face,
    "retreat": _retreat,
    "tuck": lambda a, w, c, o, p: Pose("tuck"),
    "reset": lambda a, w, c, o, p: Pose("reset"),
    "wait": lambda a, w, c, o, p: Wait(a["seconds"]),
    "look": lambda a, w, c, o, p: Look(w, a["object"]),
    "inspect": lambda a, w, c, o, p: Look(w, a["object"]),
    "search": lambda a, w, c, o, p: Scan(w, a["role"]),
    "count": lambda a, w, c, o, p: Scan(w, a["role"]),
    "pick": _pick,
    "place": _place,
    "insert": _insert,
    "drop": _insert,
    "release": lambda a, w, c, o, p: Release(),
    "slide": lambda a, w, c, o, p: PushToEdge(a["object"]),
    "press": lambda a, w, c, o, p: Press(a["button"]),
    "lift": lambda a, w, c, o, p: Lift(a["height"]),
    # ---- doors and drawers (housebench/skills/articulate.py) ----
    "open": _open,
    "close": lambda a, w, c, o, p: Sequence("close", Pose("tuck"), Close(a["part"])),
}

# hand skills on a held or toppled object, and non-grasp contact (housebench/skills/hand.py, contact.py)
EXECUTORS |= {
    "stack": lambda a, w, c, o, p: Stack(a["object"], a["base"]),
    "lower": lambda a, w, c, o, p: Lower(a["object"], _support(w, a["support"])),
    "regrasp": lambda a, w, c, o, p: Regrasp(a["object"]),
    "lay": lambda a, w, c, o, p: Lay(a["object"], _support(w, a["support"])),
    "upright": lambda a, w, c, o, p: Upright(a["object"]),
    "push": lambda a, w, c, o, p: Shove("push", a["object"], a["zone"]),
    "pull": lambda a, w, c, o, p: Shove("pull", a["object"], a["zone"]),
    "sweep": lambda a, w, c, o, p: Shove("sweep", a["object"], a["zone"]),
    "switch": lambda a, w, c, o, p: Turn(a["knob"]),
}


@cache
def _load_skills() -> None:
    """Every module of the skills package imported, so every skill that names a verb has registered it."""
    for module in pkgutil.walk_packages(skills_package.__path__, skills_package.__name__ + "."):
        importlib.import_module(module.name)


def executor(verb: str) -> Factory | None:
    """How ``verb``'s call is carried out: this module's table, else the skill that names it (None: neither)."""
    if verb in EXECUTORS:
        return EXECUTORS[verb]
    _load_skills()
    own = VERBS.get(verb)
    return None if own is None else (lambda args, world, ctx, obs, path: own.for_call(args))
