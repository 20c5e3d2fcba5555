"""DVC stage ``settle``: every ``scenes/tasks/<task>/<variant>/task.usda`` ->
``scenes/settled/<task>/<variant>/{scene.usda, check.json}`` (MuJoCo)."""

from __future__ import annotations

from typing import Any

from housebench.io import atomic_dir, write_json
from housebench.params import load_params
from housebench.paths import Layout
from housebench.sim.registry import make_backend
from housebench.sim.settle import CHECK_FILE, settle_scene


def settle_all(layout: Layout, params: dict[str, Any], backend: str = "mujoco") -> list[dict]:
    """Settle every task scene of ``layout``; returns each scene's check report."""
    sim_backend, reports = make_backend(backend), []
    with atomic_dir(layout.at(layout.settled_dir)) as tmp:
        for task, variant in layout.variants():
            task_usda = layout.task_dir(task, variant) / "task.usda"
            out = tmp / task / variant
            out.mkdir(parents=True)
            try:
                report = {"scene": f"{task}/{variant}", **settle_scene(sim_backend, task_usda, out, params)}
            except Exception as err:
                raise SystemExit(f"{task_usda}: settle failed: {err}") from err
            write_json(out / CHECK_FILE, report)
            reports.append(report)
            print(f"settle {task}/{variant}: passed={report['passed']} "
                  f"skipped={report['skipped']} t={report['settle_time']}s")
    return reports


def main() -> None:
    settle_all(Layout(), load_params("settle"))


if __name__ == "__main__":
    main()
