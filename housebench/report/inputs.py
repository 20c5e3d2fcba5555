"""What the report reads besides the Parquet, in one place for the DVC stage, the CLI and the nightly
flow: the ``report`` params (title, pictures, control), the asset health of ``assets_built/``, the skill
verification stage's status table and the house set (``scenes/house/houses.json``: the bad houses and why;
``scenes/tasks/unsampled.json``: the variants a house could not hold).

Asset health lists every asset the stages saw: the drop test's verdict and its reasons, hull count and
collider, and every asset an asset stage refused (its ``failed.json``), with the reason.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from housebench.params import PARAMS, load_section
from housebench.paths import (
    ASSETS_COLLISION,
    ASSETS_IMPORTED,
    ASSETS_SIM,
    DROPTEST,
    HOUSES_FILE,
    RESULTS_DIR,
    TASK_SPECS_DIR,
    TASKS_DIR,
)
from housebench.report.pictures import ReportParams, caption, report_pictures

VERIFICATION = RESULTS_DIR / "verification" / "status.json"  # the verify stage's status table


def _read(path: Path) -> dict[str, Any]:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except json.JSONDecodeError as err:
        raise ValueError(f"{path}: not valid JSON ({err.msg}, line {err.lineno})") from None


def asset_health(root: Path = Path()) -> list[dict[str, Any]] | None:
    """One row per asset (name, verdict, hulls, method, detail); None when nothing was built."""
    drops = _read(Path(root) / DROPTEST).get("assets", {})
    rows = {}
    for stage, folder in (("import", ASSETS_IMPORTED), ("collision", ASSETS_COLLISION), ("physics", ASSETS_SIM)):
        for name, reason in sorted(_read(Path(root) / folder / "failed.json").get("failed", {}).items()):
            rows.setdefault(name, {"name": name, "verdict": f"refused at {stage}", "hulls": "", "method": ""})
            rows[name]["detail"] = str(reason)
    for name, record in sorted(drops.items()):
        meta = _read(Path(root) / ASSETS_SIM / name / "meta.json")
        rows[name] = {
            "name": name,
            "verdict": "passed" if record["passed"] else "FAILED",
            "hulls": meta.get("hull_count", ""),
            "method": meta.get("collision_method", ""),
            "detail": "; ".join(record["failures"])
            or f"rests {record['rest_z']} m, tilt {record['tilt_deg']} deg, drift {record['drift']} m",
        }
    return [rows[n] for n in sorted(rows)] or None


def house_record(root: Path = Path()) -> dict[str, Any] | None:
    """The house set (``houses.json``: ``houses``, ``bad``) with the variants a house could not hold
    (``scenes/tasks/unsampled.json``: ``unsampled``); None before the house stage ran."""
    record = _read(Path(root) / HOUSES_FILE)
    unsampled = _read(Path(root) / TASKS_DIR / "unsampled.json").get("unsampled", [])
    return {**record, "unsampled": unsampled} if record else None


def report_inputs(params: Path = PARAMS, root: Path = Path(), pictures: Sequence[Path] | None = None) -> dict[str, Any]:
    """``build_report``'s keyword arguments from ``params``' ``report`` section: title, control,
    captioned pictures (``pictures`` instead of the section's ``scene_images`` when given), asset
    health and the house set; ``runs`` as the section names them."""
    section = load_section("report", ReportParams, params)
    specs = Path(root) / TASK_SPECS_DIR
    shown = (
        [(Path(p), caption(Path(p), specs)) for p in pictures]
        if pictures is not None
        else report_pictures(section.scene_images, specs, root)
    )
    return {
        "title": section.title,
        "control": section.control,
        "pictures": shown,
        "assets": asset_health(root),
        "verification": _read(Path(root) / VERIFICATION) or None,
        "runs": section.runs,
        "houses": house_record(root),
    }
