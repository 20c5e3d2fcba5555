"""DVC stage ``import``: ``assets_raw/<name>/result`` -> ``assets_built/imported/<name>/``.

Params (``import:``): ``specs`` (spec table path), ``strict`` (exit 1 if any asset fails; otherwise
failures are listed in ``assets_built/imported/failed.json`` and the stage exits 0 unless none built).
"""

from __future__ import annotations

import sys
from pathlib import Path

from housebench.assets.batch import asset_dirs, exit_code, run_each
from housebench.assets.errors import AssetError
from housebench.assets.importer import import_asset
from housebench.assets.spec import load_specs
from housebench.params import load_params
from housebench.paths import ASSETS_IMPORTED, ASSETS_RAW


def main() -> int:
    params = load_params("import")
    try:
        specs = load_specs(Path(params["specs"]))
    except AssetError as err:
        print(err, file=sys.stderr)
        return 1
    names = asset_dirs(ASSETS_RAW)

    def step(name: str, out: Path) -> None:
        import_asset(ASSETS_RAW / name / "result", out, specs.assets.get(name), name=name)

    return exit_code(names, run_each(names, ASSETS_IMPORTED, step), params["strict"])


if __name__ == "__main__":
    sys.exit(main())
