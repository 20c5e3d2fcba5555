"""The IK's pick of a stance: the first of the rings' poses (:func:`housebench.house.reach.candidates`)
from which an arm plan reaches the point."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from housebench.house.reach import Pose


def first_reaching(
    poses: Iterator[Pose], reaches: Callable[[Pose], object | None], limit: int = 60
) -> tuple[Pose, object] | None:
    """The first pose (of at most ``limit``) for which ``reaches`` returns a plan, with that plan."""
    for n, pose in enumerate(poses):
        if n >= limit:
            return None
        plan = reaches(pose)
        if plan is not None:
            return pose, plan
    return None
