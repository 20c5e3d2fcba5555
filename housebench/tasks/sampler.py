"""The seeded variant sampler: a spec + a seed -> a :class:`TaskVariant`.

Randomizations: optional objects present or not, the asset among alternatives, the support among
candidates, the position on it (uniform, footprint and margin inside the edges, no overlap with props
placed before) and the yaw. A position is kept only if some collision-free robot base pose on the
floor lies within the robot's reach of it.
"""

from __future__ import annotations

import math

import numpy as np
from pydantic import Field

from housebench.annotations.schema import AssetsFile, HouseAnnotations, Support
from housebench.tasks.goal import Goal, Strict
from housebench.tasks.reach import base_pose
from housebench.tasks.spec import ObjectSpec, PlacedTaskObject, TaskSpec, TaskVariant


class SamplerParams(Strict):
    """The ``tasks`` section of params.yaml."""

    variants_per_task: int = Field(2, ge=1)
    seed: int = 0  # variant i of every task uses seed + i
    clearance: float = Field(0.005, ge=0.0)  # drop height above the support (settling follows)
    margin: float = Field(0.02, ge=0.0)  # between footprints, and to a support's edges
    max_tries: int = Field(200, ge=1)  # positions tried per object before giving up
    robot_radius: float = Field(0.35, gt=0.0)  # the base's footprint, for the reachability check


class SamplingError(RuntimeError):
    """No valid variant: an unknown asset or support, or no free reachable spot after max_tries."""


def _candidate_supports(task: str, name: str, obj: ObjectSpec, height: float, inset: float,
                        house: HouseAnnotations) -> list[Support]:
    """The supports the spec names (by name or owner) that are tall and wide enough."""
    found = [s for s in house.supports if s.name in obj.supports or s.owner in obj.supports]
    fits = [s for s in found if (s.clearance is None or s.clearance >= height)
            and s.box[2] - s.box[0] >= 2 * inset and s.box[3] - s.box[1] >= 2 * inset]
    if not fits:
        raise SamplingError(f"{task}: no support among {obj.supports} fits '{name}'")
    return fits


def _place(task: str, name: str, radius: float, supports: list[Support], placed: list[tuple],
           house: HouseAnnotations, p: SamplerParams, rng: np.random.Generator):
    """(support, x, y, yaw, base) for a free, reachable spot; raises after ``max_tries``."""
    for _ in range(p.max_tries):
        support = supports[int(rng.integers(len(supports)))]
        xmin, ymin, xmax, ymax = support.box
        inset = radius + p.margin
        x, y = rng.uniform(xmin + inset, xmax - inset), rng.uniform(ymin + inset, ymax - inset)
        yaw = rng.uniform(-math.pi, math.pi)
        if any(s == support.name and math.hypot(x - px, y - py) < radius + r + p.margin
               for s, px, py, r in placed):
            continue
        base = base_pose((x, y), house, p.robot_radius)
        if base is not None:
            return support, x, y, yaw, base
    raise SamplingError(f"{task}: no free, reachable spot for '{name}' on "
                        f"{[s.name for s in supports]} after {p.max_tries} tries")


def sample_variant(task: str, spec: TaskSpec, spec_hash: str, variant: str, seed: int,
                   house: HouseAnnotations, assets: AssetsFile, params: SamplerParams) -> TaskVariant:
    """Sample one variant of ``spec`` (objects in spec order); the same inputs give the same variant."""
    rng = np.random.default_rng(seed)
    objects: dict[str, PlacedTaskObject] = {}
    dropped: dict[str, str] = {}
    choices: dict[str, str] = {}
    placed: list[tuple[str, float, float, float]] = []
    for name, obj in spec.objects.items():
        present = rng.random() >= obj.absent_probability
        options = obj.asset.split("|")
        asset_name = options[int(rng.integers(len(options)))]
        choices[f"{name}.present"] = "yes" if present else "no"
        if not present:
            dropped[name] = obj.role
            continue
        if asset_name not in assets.assets:
            raise SamplingError(f"{task}: object '{name}' uses unknown asset '{asset_name}'")
        asset = assets.assets[asset_name]
        radius = math.hypot(asset.size[0], asset.size[1]) / 2
        supports = _candidate_supports(task, name, obj, asset.size[2], radius + params.margin, house)
        support, x, y, yaw, base = _place(task, name, radius, supports, placed, house, params, rng)
        placed.append((support.name, x, y, radius))
        choices[f"{name}.asset"], choices[f"{name}.support"] = asset_name, support.name
        objects[name] = PlacedTaskObject(
            asset=asset_name, role=obj.role, support=support.name,
            pos=(round(x, 6), round(y, 6), round(support.height + asset.bottom_offset + params.clearance, 6)),
            quat=(round(math.cos(yaw / 2), 9), 0.0, 0.0, round(math.sin(yaw / 2), 9)),
            base=tuple(round(v, 6) for v in base),
        )
    goal = Goal(roles={n: o.role for n, o in objects.items()}, absent=dropped, condition=spec.goal)
    return TaskVariant(task=task, variant=variant, seed=seed, instruction=spec.instruction,
                       spec_hash=spec_hash, robot_start=house.robot.start, objects=objects,
                       dropped=sorted(dropped), choices=choices, goal=goal)
