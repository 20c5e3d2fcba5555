"""Cross-engine check: the settled scenes (settled in MuJoCo) run the settle stage's 3 s stability check in
another engine, Newton by default. A scene that passes in both says in its USD what the physics needs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from housebench import paths
from housebench.io import write_json
from housebench.paths import Layout
from housebench.progress import Progress
from housebench.sim.registry import make_backend
from housebench.sim.settle import check_house, stability


def check_scenes(layout: Layout, params: dict[str, Any], out: Path, backend: str = "newton") -> dict:
    """The house and every settled scene of ``layout`` through the stability check in ``backend``; written
    to ``out`` (JSON) and returned."""
    engine = make_backend(backend)
    scenes = {"house": check_house(engine, layout.at(paths.HOUSE_DIR) / "house.usda", params)["stability"]}
    variants = layout.variants()
    with Progress(f"crosscheck {backend}", len(variants), "scene") as bar:
        for task, variant in variants:
            scenes[f"{task}/{variant}"] = stability(engine.load(layout.settled_scene(task, variant)), params)
            bar.write(f"{backend} {task}/{variant}: passed={scenes[f'{task}/{variant}']['passed']}")
            bar.update()
    report = {
        "version": 1,
        "backend": f"{engine.name} {engine.version}",
        "scenes": scenes,
        "failed": sorted(name for name, check in scenes.items() if not check["passed"]),
    }
    report["passed"] = not report["failed"]
    write_json(out, report)
    return report
