"""DVC stage ``physics``: imported + collision -> ``assets_built/sim/<name>/`` and
``annotations/assets.json``.

Params (``physics:``): :class:`housebench.assets.build.PhysicsParams`. Assets run ``workers`` at a
time. Exits 1 only when no asset could be built; failures are listed in
``assets_built/sim/failed.json``.
"""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

from housebench.annotations.schema import AssetAnnotation, AssetsFile
from housebench.assets.batch import asset_dirs, exit_code, run_each
from housebench.assets.build import PhysicsParams, build_sim
from housebench.io import write_json
from housebench.params import load_section
from housebench.paths import ANNOTATIONS_DIR, ASSETS_COLLISION, ASSETS_IMPORTED, ASSETS_SIM
from housebench.procs import die_with_parent


def step(params: PhysicsParams, name: str, out: Path) -> AssetAnnotation:
    return build_sim(ASSETS_IMPORTED / name, ASSETS_COLLISION / name, out, params)


def main() -> int:
    die_with_parent()  # killing dvc repro takes this stage and its workers with it
    params = load_section("physics", PhysicsParams)
    names = [n for n in asset_dirs(ASSETS_COLLISION) if (ASSETS_IMPORTED / n).is_dir()]
    built, failed = run_each(names, ASSETS_SIM, partial(step, params), params.workers, "physics")
    write_json(ANNOTATIONS_DIR / "assets.json", AssetsFile(assets=built).model_dump(mode="json"))
    return exit_code(names, failed)


if __name__ == "__main__":
    sys.exit(main())
