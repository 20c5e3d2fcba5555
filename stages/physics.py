"""DVC stage ``physics``: imported + collision -> ``assets_built/sim/<name>/`` and
``annotations/assets.json``.

Params (``physics:``): :class:`housebench.assets.build.PhysicsParams`. Exits 1 only when no asset
could be built; failures are listed in ``assets_built/sim/failed.json``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from housebench.annotations.schema import AssetAnnotation, AssetsFile
from housebench.assets.batch import asset_dirs, exit_code, run_each
from housebench.assets.build import PhysicsParams, build_sim
from housebench.io import write_json
from housebench.params import load_params
from housebench.paths import ANNOTATIONS_DIR, ASSETS_COLLISION, ASSETS_IMPORTED, ASSETS_SIM


def main() -> int:
    params = PhysicsParams(**load_params("physics"))
    names = [n for n in asset_dirs(ASSETS_COLLISION) if (ASSETS_IMPORTED / n).is_dir()]
    built: dict[str, AssetAnnotation] = {}

    def step(name: str, out: Path) -> None:
        built[name] = build_sim(ASSETS_IMPORTED / name, ASSETS_COLLISION / name, out, params)

    failed = run_each(names, ASSETS_SIM, step)
    write_json(ANNOTATIONS_DIR / "assets.json", AssetsFile(assets=built).model_dump(mode="json"))
    return exit_code(names, failed)


if __name__ == "__main__":
    sys.exit(main())
