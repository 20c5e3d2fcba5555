"""DVC stage ``collision``: ``assets_built/imported/<name>/`` -> ``assets_built/collision/<name>/``.

Params (``collision:``): :class:`housebench.assets.collision.CollisionParams`. Assets run ``workers``
at a time. Exits 1 only when no asset could be processed; failures are listed in
``assets_built/collision/failed.json``.
"""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

from housebench.assets.batch import asset_dirs, exit_code, run_each
from housebench.assets.build import collide
from housebench.assets.collision import CollisionParams
from housebench.params import load_section
from housebench.paths import ASSETS_COLLISION, ASSETS_IMPORTED
from housebench.procs import die_with_parent


def step(params: CollisionParams, name: str, out: Path) -> None:
    collide(ASSETS_IMPORTED / name, out, params)


def main() -> int:
    die_with_parent()  # killing dvc repro takes this stage and its workers with it
    params = load_section("collision", CollisionParams)
    names = asset_dirs(ASSETS_IMPORTED)
    _, failed = run_each(names, ASSETS_COLLISION, partial(step, params), params.workers, "collision")
    return exit_code(names, failed)


if __name__ == "__main__":
    sys.exit(main())
