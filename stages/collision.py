"""DVC stage ``collision``: ``assets_built/imported/<name>/`` -> ``assets_built/collision/<name>/``.

Params (``collision:``): :class:`housebench.assets.collision.CollisionParams`. Exits 1 only when no
asset could be processed; failures are listed in ``assets_built/collision/failed.json``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from housebench.assets.batch import asset_dirs, exit_code, run_each
from housebench.assets.build import collide
from housebench.assets.collision import CollisionParams
from housebench.params import load_params
from housebench.paths import ASSETS_COLLISION, ASSETS_IMPORTED


def main() -> int:
    params = CollisionParams(**load_params("collision"))
    names = asset_dirs(ASSETS_IMPORTED)

    def step(name: str, out: Path) -> None:
        collide(ASSETS_IMPORTED / name, out, params)

    return exit_code(names, run_each(names, ASSETS_COLLISION, step))


if __name__ == "__main__":
    sys.exit(main())
