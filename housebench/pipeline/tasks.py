"""The tasks stage's work: sample every task spec into seeded variants (task layer + ``task.json``) and
count the choices drawn."""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path

from housebench.annotations.files import load_house_and_assets
from housebench.annotations.schema import AssetsFile, HouseAnnotations
from housebench.hashing import file_hash
from housebench.io import atomic_dir, write_json
from housebench.jsonfile import SpecError
from housebench.paths import ASSETS_SIM, HOUSE_DIR, TASK_SPECS_DIR, Layout
from housebench.tasks.sampler import SamplerParams, SamplingError, sample_variant
from housebench.tasks.spec import TaskVariant, load_spec
from housebench.usd.task_layer import PlacedProp, write_task_layer


def sample_all(
    params: SamplerParams, house: HouseAnnotations, assets: AssetsFile, specs: list[Path]
) -> list[TaskVariant]:
    """Every variant of every spec; a bad spec is reported with the others, then the stage fails."""
    variants, errors = [], []
    for path in specs:
        try:
            spec, digest = load_spec(path), file_hash(path)
            variants += [
                sample_variant(path.stem, spec, digest, f"v{i:03d}", params.seed + i, house, assets, params)
                for i in range(params.variants_per_task)
            ]
        except (SpecError, SamplingError) as err:
            errors.append(str(err))
    if errors:
        raise SystemExit("\n".join(errors))
    return variants


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


def write_variants(layout: Layout, params: SamplerParams) -> list[TaskVariant]:
    """Sample every spec of ``tasks/`` into ``layout.tasks_dir`` (atomic, byte-deterministic)."""
    house, assets = load_house_and_assets(layout)
    variants = sample_all(params, house, assets, sorted(layout.at(TASK_SPECS_DIR).glob("*.json")))
    target = layout.at(layout.tasks_dir)
    with atomic_dir(target) as tmp:
        for v in variants:
            folder = tmp / v.task / v.variant
            write_json(folder / "task.json", v.model_dump(mode="json"))
            write_task_layer(
                folder / "task.usda",
                layer_props(v),
                layout.at(HOUSE_DIR / "house.usda"),
                layout.at(ASSETS_SIM),
                anchor=target / v.task / v.variant,
            )
        write_json(tmp / "choices.json", choice_counts(variants))
    return variants
