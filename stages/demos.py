"""DVC stage `demos`: N successful recorded episodes per task from the train split -> a LeRobot v3
dataset per task under ``datasets/demos/``.

Reads ``scenes/settled/``, ``scenes/tasks/``, ``annotations/scenes/``; params ``demos``, ``rollout`` (backend,
control period, pose noise, default horizon, track), ``splits``, ``policies`` and ``skills`` (the tuning the
demonstrating skills run under, as in the rollout). The recordings themselves are kept in
``demos.store`` (``runs/demos/``, git-ignored, outside every output): DVC deletes a stage's outputs before it
runs, and the store is what makes a rerun resume instead of starting over.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from housebench.components.jobs import DemoJobs
from housebench.demos.generate import DemosParams, TaskJobs, generate
from housebench.demos.lerobot_v3 import export_lerobot
from housebench.params import load_params, load_section
from housebench.paths import Layout
from housebench.procs import die_with_parent
from housebench.rollout.plan import RolloutParams
from housebench.skills.tuning import load_tuning
from housebench.tasks.splits import SplitParams

OUT = Path("datasets/demos")


def main() -> None:
    die_with_parent()  # killing dvc repro takes this stage and its workers with it
    params = load_section("demos", DemosParams)
    rollout = load_section("rollout", RolloutParams)
    splits = load_section("splits", SplitParams)
    entry = (load_params("policies") or {}).get(params.policy)
    layout = Layout()
    tasks = TaskJobs(layout, rollout, splits, params.split, params.policy, entry)
    source = DemoJobs(tasks, layout, rollout, params.policy, entry, params.split)
    chosen = generate(params, rollout, layout, splits, entry, source=source, skills=load_tuning())
    short = {task: len(paths) for task, paths in chosen.items() if len(paths) < params.per_task}
    recordings = [p for paths in chosen.values() for p in paths]
    tmp = OUT.with_name(f".{OUT.name}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    written = export_lerobot(recordings, tmp) if recordings else []
    manifest = {
        "per_task": params.per_task,
        "policy": params.policy,
        "split": params.split,
        "short": short,  # tasks that ran out of attempts before per_task successes
        "datasets": [{**w, "path": str(OUT / Path(w["path"]).name)} for w in written],
    }
    tmp.mkdir(parents=True, exist_ok=True)
    (tmp / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    shutil.rmtree(OUT, ignore_errors=True)
    tmp.rename(OUT)
    print(f"demos: {len(recordings)} demonstrations of {len(chosen)} tasks -> {OUT} (short: {short or 'none'})")


if __name__ == "__main__":
    main()
