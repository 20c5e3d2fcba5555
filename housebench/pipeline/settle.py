"""The settle stage's work: the house's own stability check, then every task scene of a layout settled,
checked and previewed."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import Field

from housebench import paths
from housebench.io import atomic_dir, write_json
from housebench.jsonfile import load_model
from housebench.params import Section
from housebench.paths import Layout
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


HOUSE_CHECK, PREVIEW = "house_check.json", "preview.png"


def _eye(task_dir: Path) -> tuple[float, float] | None:
    """Where the preview camera stands: the first prop's robot base pose in ``task.json``, else
    the robot start (None without a ``task.json``)."""
    if not (task_dir / "task.json").exists():
        return None
    variant = load_model(TaskVariant, task_dir / "task.json")
    bases = [o.base for o in variant.objects.values() if o.base]
    x, y = (bases[0] if bases else variant.robot_start)[:2]
    return float(x), float(y)


def settle_all(layout: Layout, settings: SettleParams, backend: str = "mujoco") -> list[dict]:
    """Check the house, settle every task scene of ``layout``; returns each scene's check report
    (the house's first, as scene ``house``)."""
    use_offscreen_gl()
    from housebench.sim.preview import write_preview
    from housebench.sim.registry import make_backend

    sim_backend = make_backend(backend)
    params = settings.model_dump()
    reports = [{"scene": "house", **check_house(sim_backend, layout.at(paths.HOUSE_DIR) / "house.usda", params)}]
    with atomic_dir(layout.at(layout.settled_dir)) as tmp:
        write_json(tmp / HOUSE_CHECK, reports[0])
        for task, variant in layout.variants():
            task_dir = layout.task_dir(task, variant)
            out = tmp / task / variant
            out.mkdir(parents=True)
            try:
                report = {
                    "scene": f"{task}/{variant}",
                    **settle_scene(sim_backend, task_dir / "task.usda", out, params),
                }
                write_preview(
                    sim_backend.load(out / SCENE_FILE), _eye(task_dir), tuple(params["preview"]), out / PREVIEW
                )
            except Exception as err:
                raise SystemExit(f"{task_dir / 'task.usda'}: settle failed: {err}") from err
            write_json(out / CHECK_FILE, report)
            reports.append(report)
            print(
                f"settle {task}/{variant}: passed={report['passed']} "
                f"skipped={report['skipped']} t={report['settle_time']}s"
            )
    print(f"house check: passed={reports[0]['passed']}")
    return reports
