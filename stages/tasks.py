"""DVC stage ``tasks``: sample every task spec into seeded variants (task layer + ``task.json``).

Reads ``params.yaml:tasks``, ``tasks/*.json``, the house set (``scenes/house/houses.json``) and each house's
annotations (``annotations/house.json``, ``scenes/house/<id>/house.json``), ``annotations/assets.json``. Writes
``scenes/tasks/<task>/<variant>/{task.usda, task.json}`` (every task in every house: ``v000`` in the grid house,
``p003_v000`` in house ``p003``), ``scenes/tasks/choices.json`` (how often each choice was drawn, for the report)
and ``scenes/tasks/unsampled.json`` (the variants a procedural house could not hold, with why), all at once
(atomic).
"""

from __future__ import annotations

import sys

from housebench.params import load_section
from housebench.paths import TASKS_DIR, Layout
from housebench.pipeline.tasks import write_variants
from housebench.procs import die_with_parent
from housebench.tasks.sampler import SamplerParams


def main() -> None:
    die_with_parent()  # killing dvc repro takes this stage and its workers with it
    params = load_section("tasks", SamplerParams)
    variants = write_variants(Layout(), params)
    print(f"tasks: {len(variants)} variants of {len({v.task for v in variants})} tasks -> {TASKS_DIR}", file=sys.stderr)


if __name__ == "__main__":
    main()
