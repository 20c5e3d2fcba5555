"""The verify stage's work: every verification scenario run in physics, one episode each.

Each scenario (:mod:`housebench.skill_library.verification`) runs in an :class:`Episode` of its settled
scene: the runtime executes the setup nodes and the verb's node, measuring every contract on the
simulated state. The outcome rows (verb, path, passed or failed with the measured reason) and the pass
shares go to ``status.json``, the same table as markdown to ``status.md``. A scenario whose scene
was not built, or whose run crashes, is a failed row with that reason, never an aborted stage.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from pydantic import Field

from housebench.io import atomic_dir, write_json
from housebench.params import Section
from housebench.paths import Layout
from housebench.progress import Progress
from housebench.rollout.env import Episode
from housebench.skill_library.contracts import World
from housebench.skill_library.library import library_version
from housebench.skill_library.runtime import SubgraphRun
from housebench.skill_library.subgraph import MAX_ATTEMPTS
from housebench.skill_library.verification import Scenario, load_scenarios, markdown, status_row, subgraph, summary
from housebench.skills.base import SkillContext

VERIFY_DIR = Path("results/verification")


class VerifyParams(Section):
    """``params.yaml:verify``."""

    seed: int = 0  # the episode seed (pose noise) of every scenario
    control_dt: float = Field(0.1, gt=0)
    horizon_s: float = Field(gt=0)  # simulated seconds a scenario may run
    attempts: int = Field(1, ge=1, le=MAX_ATTEMPTS)  # tries per node, a fallback between tries
    verbs: list[str] = Field(default_factory=list)  # only these verbs (empty: every scenario)


def run_scenario(scenario: Scenario, layout: Layout, params: VerifyParams) -> dict[str, Any]:
    task, variant = scenario.scene.split("/")
    start = time.perf_counter()
    try:
        episode = Episode(
            layout.settled_scene(task, variant),
            layout.task_dir(task, variant) / "task.json",
            layout.scene_annotations(task, variant),
            control_dt=params.control_dt,
            horizon_s=params.horizon_s,
        )
        obs = episode.reset(params.seed)
        world = World(episode.scene, dict(episode.task.goal.roles), dict(episode.task.goal.places), obs.state)
        ctx = SkillContext(episode.task, episode.scene, params.control_dt, episode.log, initial=obs.state)
        run = SubgraphRun(subgraph(scenario, world), world, ctx, params.attempts).run(obs)
        action = next(run)
        while not episode.done:
            action = run.send(episode.step(action))
    except StopIteration:
        pass
    except Exception as err:  # a crash is a row, never an aborted stage
        row = {"scenario": scenario.name, "verb": scenario.verb, "path": "", "status": "failed"}
        return {**row, "reason": f"crash: {type(err).__name__}: {err}", "sim_s": 0.0, "wall_s": 0.0}
    row = status_row(scenario, episode.events)
    if row["status"] != "passed" and not row["reason"] and episode.done:
        row["reason"] = "horizon reached"
    return {**row, "sim_s": round(episode.time, 2), "wall_s": round(time.perf_counter() - start, 2)}


def verify_all(layout: Layout, params: VerifyParams, out: Path = VERIFY_DIR) -> dict[str, Any]:
    scenarios = [s for s in load_scenarios() if not params.verbs or s.verb in params.verbs]
    rows = []
    with Progress("verify", len(scenarios), "scenario") as bar:
        for scenario in scenarios:
            rows.append(run_scenario(scenario, layout, params))
            bar.write(f"verify {scenario.name}: {rows[-1]['status']} {rows[-1]['reason']}")
            bar.update()
    totals = summary(rows)
    with atomic_dir(layout.at(out)) as tmp:
        write_json(tmp / "status.json", {"version": 1, "library_version": library_version(), **totals, "rows": rows})
        (tmp / "status.md").write_text(markdown(rows, totals))
    return totals
