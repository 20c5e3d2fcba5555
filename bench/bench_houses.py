"""Procedural houses (issue 31 item 1): build seeds 0..N-1, time each, check each, and draw their plans.

For each seed: the seconds to build it (``generate``: plan and furniture) and to check it (``check_house``: the
access tests and the names the tasks use), its rooms, the kitchen's layout, and ok or the reasons it fails (a seed
the rules cannot build is listed with why). Writes one JSON row a seed to ``--out`` (``runs/bench/houses/houses.jsonl``)
and a contact sheet of the plans beside it (``plans.png``), and prints a table.

    PYTHONPATH=$PWD python bench/bench_houses.py [--seeds 24] [--out runs/bench/houses/houses.jsonl]
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

import yaml
from PIL import Image, ImageDraw, ImageFont

from housebench.house.access import check_house
from housebench.house.annotate import house_annotations
from housebench.house.picture import plan_sketch
from housebench.house.procedural import generate
from housebench.house.program import Unplaceable
from housebench.house.split import signature
from housebench.tasks.needs import task_needs

ROOT = Path(__file__).resolve().parents[1]
TILE = (480, 360)
COLUMNS = 6


def measure(seed: int, params: dict, needs) -> tuple[dict, Image.Image | None]:
    start = time.perf_counter()
    try:
        built = generate(seed, params)
    except Unplaceable as e:
        return {"seed": seed, "built": False, "build_s": time.perf_counter() - start, "reasons": [str(e)]}, None
    build_s = time.perf_counter() - start
    reasons = check_house(built.house, needs)
    row = {
        "seed": seed,
        "built": True,
        "build_s": round(build_s, 3),
        "check_s": round(time.perf_counter() - start - build_s, 3),
        "rooms": len(built.plan.rooms),
        "room_names": [r.name for r in built.plan.rooms],
        "doors": len(built.plan.doors),
        "kitchen": built.kitchen,
        "size": [built.house.width, built.house.depth],
        "parts": len(built.house.parts),
        "signature": repr(signature(built.plan)),
        "reasons": reasons,
    }
    return row, plan_sketch(house_annotations(built.house), *TILE)


def sheet(tiles: list[tuple[dict, Image.Image | None]]) -> Image.Image:
    rows = math.ceil(len(tiles) / COLUMNS)
    out = Image.new("RGB", (COLUMNS * TILE[0], rows * (TILE[1] + 24)), "white")
    draw, font = ImageDraw.Draw(out), ImageFont.load_default(size=16)
    for i, (row, tile) in enumerate(tiles):
        x, y = (i % COLUMNS) * TILE[0], (i // COLUMNS) * (TILE[1] + 24)
        ok = row["built"] and not row["reasons"]
        label = f"seed {row['seed']}: " + (
            f"{row['rooms']} rooms, {row['kitchen']} kitchen, " + ("ok" if ok else "BAD")
            if row["built"]
            else "not built"
        )
        draw.text((x + 8, y + 4), label, fill=(20, 110, 20) if ok else (180, 20, 20), font=font)
        if tile is not None:
            out.paste(tile, (x, y + 24))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=24)
    parser.add_argument("--out", type=Path, default=ROOT / "runs/bench/houses/houses.jsonl")
    args = parser.parse_args()
    params = yaml.safe_load((ROOT / "params.yaml").read_text())["house"]
    needs = task_needs(ROOT / "tasks")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    tiles = []
    with args.out.open("w") as rows:
        for seed in range(args.seeds):
            row, tile = measure(seed, params, needs)
            rows.write(json.dumps(row) + "\n")
            tiles.append((row, tile))
            why = "ok" if not row["reasons"] else "; ".join(row["reasons"])[:140]
            if row["built"]:
                cells = f"{row['rooms']:>5} {row['kitchen']:>7} {row['build_s']:>7.2f} {row['check_s']:>7.2f}"
                print(f"{seed:>4} {cells}  {why}")
            else:
                print(f"{seed:>4} {'-':>5} {'-':>7} {row['build_s']:>7.2f} {'-':>7}  {why}")
    sheet(tiles).save(args.out.parent / "plans.png")
    built = [r for r, _ in tiles if r["built"]]
    good = [r for r in built if not r["reasons"]]
    print(
        f"{len(good)}/{len(tiles)} good, {len(built)} built, {len({r['signature'] for r in built})} distinct plans; "
        f"build {sum(r['build_s'] for r in built) / max(len(built), 1):.2f} s, "
        f"check {sum(r['check_s'] for r in built) / max(len(built), 1):.2f} s a house (mean)"
    )


if __name__ == "__main__":
    main()
