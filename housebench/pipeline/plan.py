"""Plans for every task variant of a layout: the planner's subgraphs and a summary, as stage outputs.

``plan_all`` writes ``<out>/<task>/<variant>.json`` (a :class:`~housebench.skill_library.subgraph.Subgraph`,
grounded against the variant's scene before it is written) and ``<out>/summary.json``: per variant
whether it was decomposed (or the planner's one-line reason), its length and verbs; per task the share
decomposed; and the library version the plans were made with.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from pydantic import Field

from housebench.annotations.schema import SceneAnnotations
from housebench.io import atomic_dir, write_json
from housebench.jsonfile import load_model
from housebench.params import Section
from housebench.paths import Layout
from housebench.progress import track
from housebench.skill_library import planner, subgraph
from housebench.skill_library.library import library_version
from housebench.tasks.spec import TaskVariant

PLANS_DIR = Path("scenes/plans")


class PlanParams(Section):
    """``params.yaml:plan``."""

    max_expansions: int = Field(gt=0, le=planner.MAX_EXPANSIONS)  # A* states expanded before a variant fails
    weight: float = Field(ge=1.0)  # f = g + weight * h


def plan_variant(variant: TaskVariant, scene: SceneAnnotations, params: PlanParams) -> subgraph.Subgraph:
    world = planner.world_of(variant, scene)
    problem = planner.Problem(variant, world)
    sub = planner.finish(problem, problem.solve(params.max_expansions, params.weight))
    subgraph.ground(sub, world, f"{variant.task}/{variant.variant}")
    return sub


def plan_all(layout: Layout, params: PlanParams, out: Path = PLANS_DIR) -> dict[str, Any]:
    """Plan every variant of ``layout`` into ``out`` (atomic); returns the summary."""
    variants: dict[str, Any] = {}
    tasks: dict[str, Counter] = {}
    with atomic_dir(layout.at(out)) as tmp:
        for task, name in track(layout.variants(), "plan", "variant"):
            variant = load_model(TaskVariant, layout.task_dir(task, name) / "task.json")
            scene = load_model(SceneAnnotations, layout.scene_annotations(task, name))
            counts = tasks.setdefault(task, Counter())
            counts["variants"] += 1
            try:
                sub = plan_variant(variant, scene, params)
            except (planner.PlanError, subgraph.SubgraphError) as err:
                variants[f"{task}/{name}"] = {"decomposed": False, "reason": str(err)}
                continue
            write_json(tmp / task / f"{name}.json", sub.dump())
            counts["decomposed"] += 1
            variants[f"{task}/{name}"] = {
                "decomposed": True,
                "nodes": len(sub.nodes),
                "verbs": dict(sorted(Counter(n.verb for n in sub.nodes).items())),
            }
        done = sum(c["decomposed"] for c in tasks.values())
        total = sum(c["variants"] for c in tasks.values())
        summary = {
            "version": 1,
            "library_version": library_version(),
            "decomposed": done / total if total else 0.0,
            "tasks": {t: {"variants": c["variants"], "decomposed": c["decomposed"]} for t, c in sorted(tasks.items())},
            "variants": variants,
        }
        write_json(tmp / "summary.json", summary)
    return summary
