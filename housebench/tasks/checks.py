"""A spec checked against the house and the assets before sampling: every name it uses exists, and
every container of an ``inside`` goal can hold its items.

A container holds its items when each item fits its cavity lying on one of its faces (footprint
across the walls, centre no higher than ``rim + above``) and their smallest footprints add up to no
more than the cavity's floor area. Alternatives count at their worst (every asset an object may be
drawn as must fit) and a role slot at its best (the goal takes the first instance that holds).
"""

from __future__ import annotations

import math

from housebench.annotations.schema import AssetAnnotation, AssetsFile, ContainerProfile, HouseAnnotations
from housebench.tasks import refs
from housebench.tasks.goal import Closed, Inside, OnSupport, leaves
from housebench.tasks.spec import TaskSpec


class SamplingError(RuntimeError):
    """No valid variant: an unknown asset, support or part, a container too small, or no free,
    reachable spot after max_tries."""


def _area(item: AssetAnnotation, profile: ContainerProfile, above: float) -> float | None:
    """The smallest footprint area of ``item`` lying in the cavity on some face (None: no fit)."""
    hx, hy = profile.inner_half_extents
    areas = []
    for up in range(3):
        a, b = sorted(item.size[i] for i in range(3) if i != up)
        across = (
            math.hypot(a, b) <= 2 * hx if profile.shape == "round" else a <= 2 * min(hx, hy) and b <= 2 * max(hx, hy)
        )
        if across and profile.floor_z + item.size[up] / 2 <= profile.rim_z + above:
            areas.append(a * b)
    return min(areas, default=None)


def _slot_objects(slot: str, spec: TaskSpec) -> list[list[str]]:
    """The objects each item of ``slot`` may be (``$bound`` slots: none)."""
    if slot.startswith("$"):
        return []
    if slot.startswith("all:"):
        return [[n] for n, o in spec.objects.items() if o.role == slot[4:]]
    return [[n for n, o in spec.objects.items() if n in slot.split("|") or o.role in slot.split("|")]]


def _check_capacity(task: str, cond: Inside, spec: TaskSpec, assets: AssetsFile) -> None:
    items = [names for slot in cond.items for names in _slot_objects(slot, spec)]
    for container in (n for names in _slot_objects(cond.container, spec) for n in names):
        for option in spec.objects[container].asset.split("|"):
            profile = assets.assets[option].container
            if profile is None:
                raise SamplingError(f"{task}: '{container}' may be '{option}', which is no container")
            hx, hy = profile.inner_half_extents
            floor = math.pi * hx * hx if profile.shape == "round" else 4 * hx * hy
            need = 0.0
            for names in items:
                worst = [
                    max(
                        (_area(assets.assets[a], profile, cond.above) or math.inf)
                        for a in spec.objects[n].asset.split("|")
                    )
                    for n in names
                ]
                need += min(worst)
            if need > floor:
                raise SamplingError(
                    f"{task}: '{option}' cannot hold {[n for g in items for n in g]} "
                    f"(footprints {need:.4f} m^2, cavity floor {floor:.4f} m^2)"
                )


def check_spec(task: str, spec: TaskSpec, house: HouseAnnotations, assets: AssetsFile) -> None:
    """Raise :class:`SamplingError` naming the first unknown name or container too small."""
    for name, obj in spec.objects.items():
        for option in obj.asset.split("|"):
            if option not in assets.assets:
                raise SamplingError(f"{task}: object '{name}' uses unknown asset '{option}'")
        for ref in (*obj.supports, *obj.keep_out):
            if not refs.supports(ref, spec.places, house):
                raise SamplingError(f"{task}: object '{name}': no support, owner or place '{ref}' in the house")
        if obj.inside and obj.inside not in spec.objects and not refs.inside_supports(obj.inside, house):
            raise SamplingError(
                f"{task}: object '{name}': no container object or appliance with a cavity named '{obj.inside}'"
            )
        if obj.inside in spec.objects:
            _check_capacity(task, Inside(predicate="inside", items=[name], container=obj.inside), spec, assets)
    for where, cond in leaves(spec.goal):
        if isinstance(cond, OnSupport) and not refs.supports(cond.support, spec.places, house):
            raise SamplingError(f"{task}: {where}: no support, owner or place '{cond.support}' in the house")
        if isinstance(cond, Closed):
            for ref in cond.parts:
                if not refs.parts(ref, house):
                    raise SamplingError(f"{task}: {where}: no articulated part or owner '{ref}' in the house")
        if isinstance(cond, Inside):
            _check_capacity(task, cond, spec, assets)
    for name in spec.thermal.appliances if spec.thermal else []:
        if refs.appliance(name, house) is None:
            raise SamplingError(f"{task}: thermal.appliances: no appliance '{name}' in the house")


def refuse_failed_assets(task: str, spec: TaskSpec, failed: dict[str, str]) -> None:
    """Raise :class:`SamplingError` (one line) when an object may be drawn as an asset that failed its
    drop test; ``failed`` maps asset -> why (the drop test's failures)."""
    for name, obj in spec.objects.items():
        for option in obj.asset.split("|"):
            if option in failed:
                raise SamplingError(
                    f"{task}: object '{name}' uses asset '{option}', which failed its drop test: {failed[option]}"
                )
