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
import pkgutil
from collections.abc import Callable
from functools import cache
from typing import Any

import housebench.skills as skills_package
from housebench.skill_library.choose import for_call
from housebench.skill_library.contracts import World
from housebench.skill_library.extra_skills import Lift, Look, Scan, Sequence, Wait
from housebench.skill_library.stances import face, navigate, retreat, stance
from housebench.skills.articulate import Close, Open
from housebench.skills.base import VERBS, Skill, SkillContext
from housebench.skills.body import Pose
from housebench.skills.carry import Carry
from housebench.skills.contact import Shove
from housebench.skills.flat_push import PushToEdge
from housebench.skills.hand import Lower, Regrasp, Stack
from housebench.skills.knob import Turn
from housebench.skills.lay import Lay, Upright
from housebench.skills.navigate import Navigate
from housebench.skills.place import Release
from housebench.skills.press import Press
from housebench.skills.view import side_held
from housebench.state import Observation

Factory = Callable[[dict[str, Any], World, SkillContext, Observation, str], Skill]


def _chosen(verb: str, args, world: World, ctx: SkillContext, obs: Observation) -> Skill:
    """The choice table's way for the call, as one skill."""
    parts = for_call(verb, args, world, ctx, obs)
    return parts[0] if len(parts) == 1 else Sequence(verb, *parts)


def _open(args, world, ctx, obs, path) -> Skill:
    """Open, the arm tucked first when the hand points down (it would swing round the door's wrong side);
    a close always tucks first: it drives in tucked and unfolds at its stance, clear of the open door."""
    if side_held(ctx, obs):
        return Open(args["part"])
    return Sequence("open", Pose("tuck"), Open(args["part"]))


EXECUTORS: dict[str, Factory] = {
    "navigate": lambda a, w, c, o, p: navigate(a, w, c, o),
    "approach": lambda a, w, c, o, p: Sequence(
        "approach", Carry(), Navigate(stance(w, c, o, a["object"]), why=a["object"])
    ),
    "face": lambda a, w, c, o, p: face(a, w, c, o),
    "retreat": lambda a, w, c, o, p: retreat(a, w, c, o),
    "tuck": lambda a, w, c, o, p: Pose("tuck"),
    "reset": lambda a, w, c, o, p: Pose("reset"),
    "wait": lambda a, w, c, o, p: Wait(a["seconds"]),
    "look": lambda a, w, c, o, p: Look(w, a["object"]),
    "inspect": lambda a, w, c, o, p: Look(w, a["object"]),
    "search": lambda a, w, c, o, p: Scan(w, a["role"]),
    "count": lambda a, w, c, o, p: Scan(w, a["role"]),
    "pick": lambda a, w, c, o, p: _chosen("pick", a, w, c, o),
    "place": lambda a, w, c, o, p: _chosen("place", a, w, c, o),
    "insert": lambda a, w, c, o, p: _chosen("insert", a, w, c, o),
    "drop": lambda a, w, c, o, p: _chosen("insert", a, w, c, o),
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
    "lower": lambda a, w, c, o, p: Lower(a["object"], w.support(a["support"])),
    "regrasp": lambda a, w, c, o, p: Regrasp(a["object"]),
    "lay": lambda a, w, c, o, p: Lay(a["object"], w.support(a["support"])),
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
