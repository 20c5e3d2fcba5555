"""DVC stage ``droptest``: every built asset's ``asset.usda`` dropped through the simulator backend
(the scenes' compile path and physics) -> ``assets_built/droptest.json``, and pictured the same way ->
``assets_built/assets.png`` (visual mesh beside collision hulls, for the report).

Each asset is dropped ``drop`` metres onto a floor and must rest upright within ``height_tol`` of
its bottom offset, not fall through, and drift less than ``max_drift`` over ``hold_s`` seconds; a
ball let go in every container must stay in its cavity. Params (``droptest:``):
:class:`housebench.sim.droptest.DropParams` (``strict``: exit 1 when any asset fails).
"""

from __future__ import annotations

import sys

from housebench.annotations.schema import AssetsFile
from housebench.io import write_json
from housebench.jsonfile import SpecError, load_model
from housebench.params import load_section
from housebench.paths import ANNOTATIONS_DIR, ASSETS_SIM, DROPTEST
from housebench.procs import die_with_parent
from housebench.progress import track
from housebench.sim.offscreen import use_offscreen_gl

OUT = DROPTEST
SHEET = ASSETS_SIM.parent / "assets.png"


def main() -> int:
    die_with_parent()  # killing dvc repro takes this stage and its workers with it
    use_offscreen_gl()  # before MuJoCo is imported
    from housebench.assets.preview import contact_sheet
    from housebench.sim.asset_preview import asset_picture
    from housebench.sim.droptest import DropParams, check_asset
    from housebench.sim.registry import make_backend

    drop = load_section("droptest", DropParams)
    try:
        assets = load_model(AssetsFile, ANNOTATIONS_DIR / "assets.json").assets
    except SpecError as err:
        raise SystemExit(str(err)) from None
    backend = make_backend("mujoco")
    records = {
        name: check_asset(backend, ASSETS_SIM / name / "asset.usda", annotation, drop)
        for name, annotation in track(sorted(assets.items()), "droptest", "asset")
    }
    failed = sorted(name for name, record in records.items() if not record["passed"])
    write_json(OUT, {"version": 1, "params": drop.model_dump(exclude={"strict"}), "failed": failed, "assets": records})
    pictures = {name: asset_picture(backend, ASSETS_SIM / name / "asset.usda") for name in sorted(assets)}
    contact_sheet(pictures, failed=failed).save(SHEET)
    for name in failed:
        print(f"{name}: FAILED: {'; '.join(records[name]['failures'])}", file=sys.stderr)
    return int(drop.strict and bool(failed))


if __name__ == "__main__":
    sys.exit(main())
