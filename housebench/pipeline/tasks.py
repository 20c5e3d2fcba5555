"""The tasks stage's work: sample every task spec into seeded variants (task layer + ``task.json``) in every
house of the house set (``scenes/house/houses.json``), and count the choices drawn.

Variant ``i`` of a task is sampled with seed ``tasks.seed + i`` in each house (or, with
``tasks.spread_over_houses``, only in house ``i mod n`` of the set's ``n``): named ``vNNN`` in the grid house
(today's names), ``<house>_vNNN`` in any other (``p003_v000``); its ``task.json`` records the house and its task
layer stands on that house's ``house.usda``. A variant that cannot be sampled in the grid house fails the stage, as
always; one that cannot be sampled in a procedural house is listed with its reason in ``unsampled.json`` (the
report shows the list) and the stage goes on."""

from __future__ import annotations

import itertools
import json
from collections import Counter, defaultdict
from collections.abc import Collection, Mapping
from pathlib import Path

from housebench.annotations.files import load_assets, load_house
from housebench.annotations.schema import AssetsFile, HouseAnnotations
from housebench.hashing import file_hash
from housebench.house.houses import load_house_set
from housebench.io import atomic_dir, write_json
from housebench.jsonfile import SpecError
from housebench.paths import ASSETS_SIM, DROPTEST, GRID, TASK_SPECS_DIR, Layout
from housebench.progress import track
from housebench.tasks.checks import refuse_failed_assets
from housebench.tasks.sampler import SamplerParams, SamplingError, sample_variant
from housebench.tasks.spec import TaskVariant, load_spec
from housebench.usd.task_layer import PlacedProp, write_task_layer

UNSAMPLED = "unsampled.json"  # the variants a procedural house could not hold, with the reasons (the report reads it)


def drop_failures(layout: Layout) -> dict[str, str]:
    """Asset -> why it failed the drop test (``assets_built/droptest.json``; none before the drop test ran)."""
    path = layout.at(DROPTEST)
    if not path.is_file():
        return {}
    try:
        records = json.loads(path.read_text(encoding="utf-8"))["assets"]
        return {name: "; ".join(r["failures"]) for name, r in sorted(records.items()) if not r["passed"]}
    except (json.JSONDecodeError, KeyError, TypeError) as err:
        raise SystemExit(f"{path}: not a drop test record ({err})") from None


def variant_name(house: str, index: int) -> str:
    """``v007`` in the grid house, ``p003_v007`` in house ``p003``."""
    return f"v{index:03d}" if house == GRID else f"{house}_v{index:03d}"


def sample_all(
    params: SamplerParams,
    houses: Mapping[str, HouseAnnotations],
    assets: AssetsFile,
    specs: list[Path],
    failed: dict[str, str] | None = None,
    only: Mapping[str, Collection[int]] | None = None,
) -> tuple[list[TaskVariant], list[dict[str, str]]]:
    """Every variant of every spec in every house of ``houses`` (id -> annotations; or, given ``only``, task ->
    variant indices, just those: variant i depends on no other, so a test's small build samples exactly the
    variants it needs), and the variants that could not be sampled in a procedural house (house, task, variant,
    reason); a bad spec, or one using an asset in ``failed`` (asset -> why), or a variant that cannot be sampled in
    the grid house, is reported in one line with the others, then the stage fails."""
    variants, unsampled, errors = [], [], []
    for path in track(specs, "tasks", "task"):
        indices = range(params.variants_per_task) if only is None else sorted(only.get(path.stem, ()))
        try:
            spec, digest = load_spec(path), file_hash(path)
            refuse_failed_assets(path.stem, spec, failed or {})
        except (SpecError, SamplingError) as err:
            errors.append(str(err))
            continue
        for (house_id, house), i in itertools.product(houses.items(), indices):
            if params.spread_over_houses and list(houses)[i % len(houses)] != house_id:
                continue  # variant i belongs to one house of the set
            name = variant_name(house_id, i)
            try:
                variant = sample_variant(path.stem, spec, digest, name, params.seed + i, house, assets, params)
                variants.append(variant.model_copy(update={"house": house_id}))
            except SamplingError as err:
                if house_id == GRID:
                    errors.append(str(err))
                else:
                    unsampled.append({"house": house_id, "task": path.stem, "variant": name, "reason": str(err)})
    if errors:
        raise SystemExit("\n".join(errors))
    return sorted(variants, key=lambda v: (v.task, v.variant)), unsampled


def choice_counts(variants: list[TaskVariant]) -> dict:
    """``{task: {"variants": n, "choices": {key: {value: count}}}}``."""
    counts: dict[str, dict[str, Counter]] = defaultdict(lambda: defaultdict(Counter))
    for v in variants:
        for key, value in v.choices.items():
            counts[v.task][key][value] += 1
    return {
        task: {"variants": sum(1 for v in variants if v.task == task), "choices": {k: dict(c) for k, c in keys.items()}}
        for task, keys in counts.items()
    }


def layer_props(variant: TaskVariant) -> dict[str, PlacedProp]:
    """The props of ``variant`` as its task layer writes them."""
    return {name: PlacedProp(o.asset, o.pos, o.quat) for name, o in variant.objects.items()}


def write_variants(
    layout: Layout, params: SamplerParams, only: Mapping[str, Collection[int]] | None = None
) -> list[TaskVariant]:
    """Sample every spec of ``tasks/`` in every house of the set into ``layout.tasks_dir`` (atomic,
    byte-deterministic); ``only``: as :func:`sample_all`."""
    houses = {h: load_house(layout, h) for h in load_house_set(layout).ids()}
    specs = sorted(layout.at(TASK_SPECS_DIR).glob("*.json"))
    variants, unsampled = sample_all(params, houses, load_assets(layout), specs, drop_failures(layout), only)
    target = layout.at(layout.tasks_dir)
    with atomic_dir(target) as tmp:
        for v in variants:
            folder = tmp / v.task / v.variant
            write_json(folder / "task.json", v.model_dump(mode="json"))
            write_task_layer(
                folder / "task.usda",
                layer_props(v),
                layout.house_dir(v.house) / "house.usda",
                layout.at(ASSETS_SIM),
                anchor=target / v.task / v.variant,
            )
        write_json(tmp / "choices.json", choice_counts(variants))
        write_json(tmp / UNSAMPLED, {"unsampled": unsampled})
    for row in unsampled:
        print(f"tasks: {row['variant']} of {row['task']} not sampled in house {row['house']}: {row['reason']}")
    return variants
