"""What the task specs need of a house: every support, piece, room, part and appliance they name, each on its
own (a place alias stands for each of its members), for :func:`housebench.house.access.check_house`."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from housebench.house.access import Needs
from housebench.tasks.goal import Closed, OnSupport, leaves
from housebench.tasks.refs import ALL_PARTS
from housebench.tasks.spec import TaskSpec, load_spec


def _members(ref: str, places: dict[str, list[str]]) -> list[str]:
    return list(places.get(ref, [ref]))


def house_needs(specs: Iterable[TaskSpec]) -> Needs:
    """The names ``specs`` use in the house (objects' supports and keep-outs, the appliances they spawn inside,
    goals' supports and parts, thermal appliances)."""
    supports, parts, appliances = set(), set(), set()
    for spec in specs:
        for obj in spec.objects.values():
            for ref in (*obj.supports, *obj.keep_out):
                supports.update(_members(ref, spec.places))
            if obj.inside and obj.inside not in spec.objects:
                appliances.add(obj.inside)
        for _, cond in leaves(spec.goal):
            if isinstance(cond, OnSupport):
                supports.update(_members(cond.support, spec.places))
            if isinstance(cond, Closed):
                parts.update(r for r in cond.parts if r != ALL_PARTS)
        appliances.update(spec.thermal.appliances if spec.thermal else [])
    return Needs(frozenset(supports), frozenset(parts), frozenset(appliances))


def task_needs(folder: Path) -> Needs:
    """:func:`house_needs` of every ``*.json`` spec in ``folder`` (the repository's ``tasks/``)."""
    return house_needs(load_spec(p) for p in sorted(Path(folder).glob("*.json")))
