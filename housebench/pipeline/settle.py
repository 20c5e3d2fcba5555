"""The settle stage's work: each house's own stability check (``house_check.json`` for the grid house,
``house_check_<id>.json`` for any other of the house set), then every task scene of a layout settled, checked and
previewed (``preview.png``: the props from nearly overhead; ``plan.png``: its house's plan with the props marked
where they rest)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from PIL import Image
from pydantic import Field

from housebench.annotations.schema import HouseAnnotations
from housebench.house.houses import load_house_set
from housebench.house.picture import label_props
from housebench.io import atomic_dir, write_json
from housebench.jsonfile import load_model
from housebench.params import Section
from housebench.paths import GRID, Layout
from housebench.progress import Progress
from housebench.sim.offscreen import use_offscreen_gl
from housebench.sim.settle import CHECK_FILE, SCENE_FILE, check_house, settle_scene
from housebench.tasks.spec import TaskVariant

Seconds = Annotated[float, Field(gt=0, le=600)]
Positive = Annotated[float, Field(gt=0)]


class SettleParams(Section):
    """The ``settle:`` section of ``params.yaml`` (the settling code reads it as a plain mapping)."""

    max_time: Seconds  # physics before a prop counts as never settled
    check_every: Seconds  # between rest checks
    rest_linvel: Positive  # m/s: at rest below this speed ...
    rest_angvel: Positive  # rad/s: ... and this angular speed
    max_move: Positive  # metres: a prop that moved further is skipped
    fall_drop: Positive  # metres: a prop that ended this far below its start fell off its support
    check_time: Seconds  # the stability check
    max_drift: Positive  # metres: allowed drift of a free body during the check
    robot_tol: Positive  # allowed robot joint deviation during the check (m or rad)
    part_tol: Positive  # allowed opening of any articulated part during the check (rad or m from closed)
    preview: list[Annotated[int, Field(ge=16, le=4096)]] = Field(min_length=2, max_length=2)  # width, height
    mjcf_cache_mb: Positive  # bound of the compiled-model cache, least recently used pruned first


HOUSE_CHECK, PREVIEW, PLAN = "house_check.json", "preview.png", "plan.png"


def _variant(task_dir: Path) -> TaskVariant | None:
    """The variant's ``task.json`` (None for a hand-made task layer without one: it stands on the grid house)."""
    return load_model(TaskVariant, task_dir / "task.json") if (task_dir / "task.json").exists() else None


def _eye(variant: TaskVariant | None) -> tuple[float, float] | None:
    """Where the preview camera stands: the first prop's robot base pose, else the robot start (None without a
    ``task.json``)."""
    if variant is None:
        return None
    bases = [o.base for o in variant.objects.values() if o.base]
    x, y = (bases[0] if bases else variant.robot_start)[:2]
    return float(x), float(y)


def house_check_file(house: str) -> str:
    """``house_check.json`` (the grid house), ``house_check_<id>.json`` (any other)."""
    return HOUSE_CHECK if house == GRID else f"house_check_{house}.json"


def _write_plan(layout: Layout, house_id: str, props: dict[str, tuple[float, float]], out: Path) -> None:
    """The labelled plan of house ``house_id`` with the props marked where they rest (when the house stage drew
    one)."""
    plan, house = layout.house_dir(house_id) / "topdown.png", layout.house_annotations(house_id)
    if plan.is_file() and house.is_file():
        label_props(Image.open(plan), load_model(HouseAnnotations, house), props).save(out)


def settle_all(layout: Layout, settings: SettleParams, backend: str = "mujoco") -> list[dict]:
    """Check the houses, settle every task scene of ``layout``; returns each scene's check report (the houses'
    first: the grid house as scene ``house``, any other as ``house/<id>``)."""
    use_offscreen_gl()
    from housebench.sim.preview import write_preview
    from housebench.sim.registry import make_backend

    sim_backend = make_backend(backend, cache_max_mb=settings.mjcf_cache_mb)
    params = settings.model_dump()
    houses = dict.fromkeys([GRID, *load_house_set(layout).ids()])  # the grid house is built either way
    reports = [
        {
            "scene": "house" if h == GRID else f"house/{h}",
            **check_house(sim_backend, layout.house_dir(h) / "house.usda", params),
        }
        for h in houses
    ]
    with atomic_dir(layout.at(layout.settled_dir)) as tmp:
        for house, report in zip(houses, reports, strict=True):
            write_json(tmp / house_check_file(house), report)
        variants = layout.variants()
        with Progress("settle", len(variants), "scene") as bar:
            for task, variant in variants:
                task_dir = layout.task_dir(task, variant)
                out = tmp / task / variant
                out.mkdir(parents=True)
                try:
                    report = {
                        "scene": f"{task}/{variant}",
                        **settle_scene(sim_backend, task_dir / "task.usda", out, params),
                    }
                    sim = sim_backend.load(out / SCENE_FILE)
                    spec = _variant(task_dir)
                    write_preview(sim, _eye(spec), tuple(params["preview"]), out / PREVIEW)
                    props = {n: o.pos[:2] for n, o in sim.get_state().objects.items()}
                    _write_plan(layout, spec.house if spec else GRID, props, out / PLAN)
                except Exception as err:
                    raise SystemExit(f"{task_dir / 'task.usda'}: settle failed: {err}") from err
                write_json(out / CHECK_FILE, report)
                reports.append(report)
                bar.write(
                    f"settle {task}/{variant}: passed={report['passed']} "
                    f"skipped={report['skipped']} t={report['settle_time']}s"
                )
                bar.update()
    for report in reports[: len(houses)]:
        print(f"house check {report['scene']}: passed={report['passed']}")
    return reports
