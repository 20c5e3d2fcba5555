"""DVC stage ``droptest``: every built asset dropped in MuJoCo -> ``assets_built/droptest.json``.

Each asset is dropped ``drop`` metres onto a plane and must rest upright within ``height_tol`` of
its bottom offset, not fall through, and drift less than ``max_drift`` over ``hold_s`` seconds; a
ball dropped into every container must stay in its cavity. Params (``droptest:``):
:class:`housebench.assets.droptest.DropParams` plus ``strict`` (exit 1 when any asset fails).
"""

from __future__ import annotations

import sys

from housebench.annotations.schema import AssetsFile
from housebench.assets.droptest import DropParams, check_asset
from housebench.io import write_json
from housebench.params import load_params
from housebench.paths import ANNOTATIONS_DIR, ASSETS_SIM

OUT = ASSETS_SIM.parent / "droptest.json"


def main() -> int:
    params = load_params("droptest")
    strict = params.pop("strict", False)
    drop = DropParams(**params)
    assets = AssetsFile.model_validate_json((ANNOTATIONS_DIR / "assets.json").read_text()).assets
    records = {name: check_asset(ASSETS_SIM / name / "body.xml", annotation, drop)
               for name, annotation in sorted(assets.items())}
    failed = sorted(name for name, record in records.items() if not record["passed"])
    write_json(OUT, {"version": 1, "params": drop.model_dump(), "failed": failed, "assets": records})
    for name in failed:
        print(f"{name}: FAILED: {'; '.join(records[name]['failures'])}", file=sys.stderr)
    return int(strict and bool(failed))


if __name__ == "__main__":
    sys.exit(main())
