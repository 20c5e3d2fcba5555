"""Constants and helpers shared by the task tests (conftest.py turns the world into fixtures)."""

from __future__ import annotations

import math
from pathlib import Path

from housebench.annotations.schema import AssetsFile, HouseAnnotations, SceneAnnotations, Support
from housebench.state import SimState
from housebench.tasks.geometry import footprint
from housebench.tasks.spec import TaskVariant

SPEC = Path(__file__).resolve().parent / "put_fruit_in_container.json"  # over the test house
TABLE_TOP = Support(name="table/top", owner="table", height=0.75, box=(1.5, 1.5, 2.5, 2.3))
ROLES = {"apple": "fruit", "orange": "fruit", "bowl": "container"}


def state_of(scene: SceneAnnotations, overrides: dict | None = None, **extra) -> SimState:
    """The scene's poses as a state; ``overrides`` replace an object's entry (None removes it)."""
    objects = {n: {"pos": list(o.pos), "quat": list(o.quat)} for n, o in scene.objects.items()}
    for name, entry in (overrides or {}).items():
        if entry is None:
            objects.pop(name)
        else:
            objects[name] = {"quat": [1, 0, 0, 0], **entry}
    return SimState.model_validate({"objects": objects, **extra})


def footprint_box(variant: TaskVariant, name: str, assets: AssetsFile) -> tuple[float, float, float, float]:
    """``[xmin, ymin, xmax, ymax]`` of a placed object's turned footprint."""
    obj = variant.objects[name]
    hx, hy = footprint(assets.assets[obj.asset].size, 2 * math.atan2(obj.quat[3], obj.quat[0]))
    return obj.pos[0] - hx, obj.pos[1] - hy, obj.pos[0] + hx, obj.pos[1] + hy


def in_reach(variant: TaskVariant, name: str, house: HouseAnnotations, assets: AssetsFile) -> bool:
    """Whether a placed object's centre lies in the reach band, for its height, of its base pose."""
    obj, asset = variant.objects[name], assets.assets[variant.objects[name].asset]
    band = house.robot.reach_at(obj.pos[2] - asset.bottom_offset + asset.size[2] / 2)
    dist = math.hypot(obj.pos[0] - obj.base[0], obj.pos[1] - obj.base[1])
    return band is not None and band.min - 1e-5 <= dist <= band.max + 1e-5
