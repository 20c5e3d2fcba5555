"""DVC stage ``import``: ``assets_raw/<name>/result`` -> ``assets_built/imported/<name>/``.

Params (``import:``): ``specs`` (spec table path), ``strict`` (exit 1 if any asset fails; otherwise
failures are listed in ``assets_built/imported/failed.json`` and the stage exits 0 unless none built),
``visual_max_faces`` (face budget of the visual mesh), ``workers`` (assets imported at once).
"""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

from housebench.assets.batch import asset_dirs, exit_code, run_each
from housebench.assets.errors import AssetError
from housebench.assets.importer import ImportParams, import_asset, raw_result
from housebench.assets.spec import SpecTable, load_specs
from housebench.params import load_section
from housebench.paths import ASSETS_IMPORTED, ASSETS_RAW
from housebench.procs import die_with_parent


def step(specs: SpecTable, max_faces: int, name: str, out: Path) -> None:
    import_asset(raw_result(ASSETS_RAW, name), out, specs.assets.get(name), name=name, max_faces=max_faces)


def main() -> int:
    die_with_parent()  # killing dvc repro takes this stage and its workers with it
    params = load_section("import", ImportParams)
    try:
        specs = load_specs(Path(params.specs))
    except AssetError as err:
        print(err, file=sys.stderr)
        return 1
    names = asset_dirs(ASSETS_RAW)
    build = partial(step, specs, params.visual_max_faces)
    _, failed = run_each(names, ASSETS_IMPORTED, build, params.workers, "import")
    return exit_code(names, failed, params.strict)


if __name__ == "__main__":
    sys.exit(main())
