"""DVC stage ``settle``: the house's own stability check, then every
``scenes/tasks/<task>/<variant>/task.usda`` -> ``scenes/settled/<task>/<variant>/{scene.usda,
check.json, preview.png}`` (MuJoCo; ``scenes/settled/house_check.json`` for the house alone)."""

from __future__ import annotations

from housebench.params import load_section
from housebench.paths import Layout
from housebench.pipeline.settle import SettleParams, settle_all
from housebench.procs import die_with_parent


def main() -> None:
    die_with_parent()  # killing dvc repro takes this stage and its workers with it
    settle_all(Layout(), load_section("settle", SettleParams))


if __name__ == "__main__":
    main()
