"""What a predicate measures against: object geometry in a state, supports, slots and bindings."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from housebench.annotations.schema import ArticulatedPart, AssetAnnotation, SceneAnnotations, Support
from housebench.state import ObjectState, SimState
from housebench.tasks import geometry, refs
from housebench.tasks.geometry import GoalError
from housebench.tasks.goal import Goal
from housebench.tasks.verdict import ItemResult

Check = Callable[[str], tuple[bool, str]]  # instance name -> (ok, measured reason)


def initial_state(scene: SceneAnnotations) -> SimState:
    """The episode's start: every object at its annotated (settled) pose."""
    return SimState(objects={n: ObjectState(pos=o.pos, quat=o.quat) for n, o in scene.objects.items()})


class Context:
    """One evaluation: the goal's instances, the state, the scene and the bindings made so far."""

    def __init__(self, goal: Goal, state: SimState, scene: SceneAnnotations, initial: SimState | None):
        self.roles, self.absent, self.places = goal.roles, goal.absent, goal.places
        self.state, self.scene = state, scene
        self.initial = initial if initial is not None else initial_state(scene)
        self.bindings: dict[str, str] = {}

    def pose(self, name: str, state: SimState | None = None) -> ObjectState:
        state = state or self.state
        if name not in state.objects:
            which = "state" if state is self.state else "initial state"
            raise GoalError(f"'{name}' is missing from the {which}")
        return state.objects[name]

    def asset(self, name: str) -> AssetAnnotation:
        if name not in self.scene.objects:
            raise GoalError(f"'{name}' is missing from the scene annotations")
        return self.scene.objects[name].asset

    def bottom(self, name: str, state: SimState | None = None) -> float:
        """World z of the object's lowest box corner."""
        return geometry.bottom(self.pose(name, state), self.asset(name))

    def centre(self, name: str) -> np.ndarray:
        """World position of the centre of the object's box."""
        return geometry.centre(self.pose(name), self.asset(name))

    def tilt_deg(self, name: str) -> float:
        """Angle between the object's z axis and the world's, degrees."""
        z = geometry.rotation(self.pose(name).quat)[2, 2]
        return float(np.degrees(np.arccos(np.clip(z, -1.0, 1.0))))

    def supports(self, ref: str) -> list[Support]:
        found = refs.supports(ref, self.places, self.scene.house)
        if not found:
            raise GoalError(f"no support, owner or place named '{ref}' in the scene")
        return found

    def parts(self, ref: str) -> list[ArticulatedPart]:
        found = refs.parts(ref, self.scene.house)
        if not found:
            raise GoalError(f"no articulated part or owner named '{ref}' in the scene")
        return found

    def joint(self, name: str) -> float:
        return geometry.joint_value(self.state, name)

    def _candidates(self, part: str) -> list[str]:
        if part in self.roles:
            return [part]
        if part in self.absent:
            return []
        named = sorted(n for n, role in self.roles.items() if role == part)
        if not named and part not in self.absent.values():
            raise GoalError(f"no object or role named '{part}'")
        return named

    def items(self, slot: str) -> list[list[str]]:
        """The items a slot expands to, each a list of candidate instances (first that holds)."""
        if slot.startswith("$"):
            if slot[1:] not in self.bindings:
                raise GoalError(f"'{slot}' is used before it is bound")
            return [[self.bindings[slot[1:]]]]
        if slot.startswith("all:"):  # every instance of the role, even when one instance shares its name
            role = slot[4:]
            named = sorted(n for n, r in self.roles.items() if r == role)
            return [[name] for name in (named or self._candidates(role))]
        found = list(dict.fromkeys(c for part in slot.split("|") for c in self._candidates(part)))
        return [found] if found else []

    def judge(self, slots: list[str], check: Check) -> list[ItemResult]:
        """One result per item of ``slots``: the first candidate that holds, else every failure."""
        results = []
        for slot in slots:
            for candidates in self.items(slot):
                tried = [(name, *check(name)) for name in candidates]
                held = [t for t in tried if t[1]]
                if held:
                    results.append(ItemResult(item=held[0][0], ok=True, reason=held[0][2]))
                elif len(tried) == 1:
                    results.append(ItemResult(item=tried[0][0], ok=False, reason=tried[0][2]))
                else:
                    reason = "; ".join(f"{name}: {why}" for name, _, why in tried)
                    results.append(ItemResult(item="|".join(candidates), ok=False, reason=reason))
        return results
