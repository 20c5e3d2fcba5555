"""The seeded variant sampler: a spec + a seed -> a :class:`TaskVariant`.

Randomizations, per object in spec order: present or not (optional objects), the asset among
alternatives, the support among its candidates (or the floor of its container, or a surface inside
its appliance), the yaw, and the position (uniform, see :mod:`.placement`). A pose is kept only if
it is collision-free and some robot base pose can reach it (:func:`housebench.house.reach.base_pose`:
one of the skills' stance rings, in the reach band for its height and its pre-grasp's, the skills'
footprint free, in the prop's room with a clear line to it, approachable from the robot's start), the
props placed before it standing in the house, and only if every earlier prop's base pose still works
with it standing there too and the props cut off no floor from the robot (a prop on the floor neither
covers another's stance nor stands in a doorway).
"""

from __future__ import annotations

import math

import numpy as np
from pydantic import Field

from housebench.annotations.schema import AssetsFile, HouseAnnotations, Support
from housebench.house.query import HouseQuery
from housebench.house.reach import PRE_GRASP, Pose, base_pose, stance_test
from housebench.params import Section
from housebench.tasks import refs
from housebench.tasks.checks import SamplingError, check_spec
from housebench.tasks.goal import Goal
from housebench.tasks.placement import Spot, in_container, is_free, on_support
from housebench.tasks.spec import ObjectSpec, PlacedTaskObject, TaskSpec, TaskVariant

__all__ = ["SamplerParams", "SamplingError", "sample_variant"]


MAX_VARIANTS = 1000  # variants per task (each is a settled scene on disk)
MAX_CUT_OFF = 0.25  # m²: the most floor the props may cut off from the robot (a pocket behind a prop)


class SamplerParams(Section):
    """The ``tasks`` section of params.yaml."""

    variants_per_task: int = Field(20, ge=1, le=MAX_VARIANTS)
    seed: int = Field(0, ge=0)  # variant i of every task uses seed + i
    clearance: float = Field(0.005, ge=0.0, le=0.5)  # drop height above the support; gap to obstacles
    margin: float = Field(0.02, ge=0.0, le=1.0)  # between footprints, and to a support's edges
    max_tries: int = Field(200, ge=1, le=100_000)  # positions tried per object before giving up
    # True: variant i is sampled only in house i mod n of the house set's n houses, so variants_per_task counts
    # over the whole set (20 over 20 houses: one in each); False: every variant in every house
    spread_over_houses: bool = False


def _candidates(spec: TaskSpec, obj: ObjectSpec, height: float, house: HouseAnnotations) -> list[Support]:
    """The surfaces ``obj`` may spawn on (by supports minus keep_out, or inside an appliance)."""
    if obj.inside:
        found = refs.inside_supports(obj.inside, house)
    else:
        banned = {s.name for ref in obj.keep_out for s in refs.supports(ref, spec.places, house)}
        found = [s for ref in obj.supports for s in refs.supports(ref, spec.places, house) if s.name not in banned]
    unique = {s.name: s for s in found}
    return [s for s in unique.values() if s.clearance is None or s.clearance >= height]


Stance = tuple[tuple[float, float, float], str | None, Pose]  # a placed prop's point, owner and base pose


def _centre(spot: Spot) -> tuple[float, float, float]:
    return spot.x, spot.y, spot.z + spot.asset.size[2] / 2


def _keeps_stances(spot: Spot, placed: dict[str, Spot], stances: dict[str, Stance], query: HouseQuery) -> bool:
    """Whether ``spot``'s prop, standing in the house with the placed ones, cuts off no floor and leaves every
    placed prop's base pose working."""
    if query.with_props([*(s.box for s in placed.values()), spot.box]).cut_off() > MAX_CUT_OFF:
        return False
    for name, (centre, owner, base) in stances.items():
        others = [s.box for n, s in placed.items() if n != name] + [spot.box]
        accept = stance_test(centre, query.with_props(others), owner)
        if accept is None or not accept(base):
            return False
    return True


def _place(
    task: str,
    name: str,
    obj: ObjectSpec,
    asset_name: str,
    spec: TaskSpec,
    placed: dict[str, Spot],
    stances: dict[str, Stance],
    assets: AssetsFile,
    query: HouseQuery,
    p: SamplerParams,
    rng: np.random.Generator,
) -> tuple[Spot, Pose]:
    """A free, reachable spot and its robot base pose; raises after ``max_tries``."""
    house = query.house
    asset = assets.assets[asset_name]
    supports = [] if obj.inside in spec.objects else _candidates(spec, obj, asset.size[2], house)
    if obj.inside not in spec.objects and not supports:
        raise SamplingError(f"{task}: no support among {obj.supports or obj.inside} fits '{name}'")
    anchor = placed.get(obj.near.object) if obj.near else None
    near = (anchor.x, anchor.y, obj.near.distance) if anchor else None
    for _ in range(p.max_tries):
        if obj.inside in spec.objects:
            spot = in_container(placed[obj.inside], obj.inside, asset, obj.yaw_deg, p.clearance, rng)
        else:
            support = supports[int(rng.integers(len(supports)))]
            spot = on_support(support, asset, obj.yaw_deg, obj.overhang, p.margin, p.clearance, rng, near)
        if spot is None or not is_free(spot, placed, house, p.margin, p.clearance):
            continue
        among = query.with_props([s.box for s in placed.values()])
        base = base_pose(_centre(spot), among, spot.support.owner, above=PRE_GRASP)
        if base is not None and _keeps_stances(spot, placed, stances, query):
            return spot, base
    where = obj.inside or [s.name for s in supports]
    raise SamplingError(f"{task}: no free, reachable spot for '{name}' in {where} after {p.max_tries} tries")


def sample_variant(
    task: str,
    spec: TaskSpec,
    spec_hash: str,
    variant: str,
    seed: int,
    house: HouseAnnotations,
    assets: AssetsFile,
    params: SamplerParams,
) -> TaskVariant:
    """Sample one variant of ``spec`` (objects in spec order); the same inputs give the same variant."""
    check_spec(task, spec, house, assets)
    rng = np.random.default_rng(seed)
    query = HouseQuery(house)
    objects: dict[str, PlacedTaskObject] = {}
    dropped: dict[str, str] = {}
    choices: dict[str, str] = {}
    placed: dict[str, Spot] = {}
    stances: dict[str, Stance] = {}
    for name, obj in spec.objects.items():
        present = rng.random() >= obj.absent_probability
        options = obj.asset.split("|")
        asset_name = options[int(rng.integers(len(options)))]
        choices[f"{name}.present"] = "yes" if present else "no"
        if not present:
            dropped[name] = obj.role
            continue
        spot, base = _place(task, name, obj, asset_name, spec, placed, stances, assets, query, params, rng)
        placed[name], stances[name] = spot, (_centre(spot), spot.support.owner, base)
        choices[f"{name}.asset"], choices[f"{name}.support"] = asset_name, spot.support.name
        objects[name] = PlacedTaskObject(
            asset=asset_name,
            role=obj.role,
            support=spot.support.name,
            inside=obj.inside,
            pos=(round(spot.x, 6), round(spot.y, 6), round(spot.z + spot.asset.bottom_offset, 6)),
            quat=(round(math.cos(spot.yaw / 2), 9), 0.0, 0.0, round(math.sin(spot.yaw / 2), 9)),
            base=tuple(round(v, 6) for v in base),
        )
    goal = Goal(roles={n: o.role for n, o in objects.items()}, absent=dropped, places=spec.places, condition=spec.goal)
    return TaskVariant(
        task=task,
        variant=variant,
        seed=seed,
        instruction=spec.instruction,
        spec_hash=spec_hash,
        robot_start=house.robot.start,
        objects=objects,
        dropped=sorted(dropped),
        choices=choices,
        thermal=spec.thermal,
        horizon_s=spec.horizon_s,
        goal=goal,
    )
