"""DVC stage ``settle``: the house's own stability check, then every
``scenes/tasks/<task>/<variant>/task.usda`` -> ``scenes/settled/<task>/<variant>/{scene.usda,
check.json, preview.png}`` (MuJoCo; ``scenes/settled/house_check.json`` for the house alone)."""

from __future__ import annotations

from housebench.params import load_keys
from housebench.paths import Layout
from housebench.pipeline.settle import SETTLE_KEYS, settle_all


def main() -> None:
    settle_all(Layout(), load_keys("settle", SETTLE_KEYS))


if __name__ == "__main__":
    main()
