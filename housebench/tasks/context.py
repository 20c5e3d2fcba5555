"""What a predicate measures against: object geometry in a state, supports, slots and bindings."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from housebench.annotations.schema import AssetAnnotation, SceneAnnotations, Support
from housebench.sim.state import ObjectState, SimState
from housebench.tasks.goal import Goal
from housebench.tasks.verdict import ItemResult

Check = Callable[[str], tuple[bool, str]]  # instance name -> (ok, measured reason)


class GoalError(ValueError):
    """The goal cannot be judged on this input (unknown slot or support, missing state, ...)."""


def rotation(quat: tuple[float, float, float, float]) -> np.ndarray:
    """3x3 rotation matrix of a (w, x, y, z) quaternion (normalised first)."""
    q = np.asarray(quat, dtype=float)
    norm = float(np.linalg.norm(q))
    if norm == 0.0:
        raise GoalError(f"quaternion {tuple(quat)} has zero length")
    w, x, y, z = q if norm == 1.0 else q / norm
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def initial_state(scene: SceneAnnotations) -> SimState:
    """The episode's start: every object at its annotated (settled) pose."""
    return SimState(objects={n: ObjectState(pos=o.pos, quat=o.quat) for n, o in scene.objects.items()})


class Context:
    """One evaluation: the goal's instances, the state, the scene and the bindings made so far."""

    def __init__(self, goal: Goal, state: SimState, scene: SceneAnnotations, initial: SimState | None):
        self.roles, self.absent = goal.roles, goal.absent
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
        pose, (sx, sy, sz), off = self.pose(name, state), self.asset(name).size, self.asset(name).bottom_offset
        corners = np.array([[x, y, z] for x in (-sx / 2, sx / 2) for y in (-sy / 2, sy / 2)
                            for z in (-off, sz - off)])
        return pose.pos[2] + float((rotation(pose.quat)[2] @ corners.T).min())

    def centre(self, name: str) -> np.ndarray:
        """World position of the centre of the object's box."""
        pose, asset = self.pose(name), self.asset(name)
        return np.asarray(pose.pos) + rotation(pose.quat) @ [0.0, 0.0, asset.size[2] / 2 - asset.bottom_offset]

    def tilt_deg(self, name: str) -> float:
        """Angle between the object's z axis and the world's, degrees."""
        return float(np.degrees(np.arccos(np.clip(rotation(self.pose(name).quat)[2, 2], -1.0, 1.0))))

    def supports(self, ref: str) -> list[Support]:
        found = [s for s in self.scene.house.supports if ref in (s.name, s.owner)]
        if not found:
            raise GoalError(f"no support or owner named '{ref}' in the scene")
        return found

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
        if slot.startswith("all:"):
            return [[name] for name in self._candidates(slot[4:])]
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
