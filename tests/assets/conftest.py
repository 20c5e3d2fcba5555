"""Shared fixtures for the asset tests: small CoACD settings and a cross-section of the default set
(every kind of prop: fruit, round and rect containers, a mug, flat, thin and light props, the
distractor) built once. The whole default set is built by the stage test and the slow tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from asset_constants import BUILT, REPO, SMALL_COACD

from housebench.annotations.schema import AssetAnnotation
from housebench.assets.build import PhysicsParams, build_sim, collide
from housebench.assets.collision import CollisionParams
from housebench.assets.importer import import_asset
from housebench.assets.spec import load_specs
from housebench.assets.standins import generate


@pytest.fixture(scope="session")
def coacd_cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("coacd_cache")


@pytest.fixture(scope="session")
def small_params(coacd_cache) -> CollisionParams:
    return CollisionParams(**SMALL_COACD, cache_dir=str(coacd_cache))


@pytest.fixture(scope="session")
def built(built_set) -> dict[str, Path]:
    """Name -> sim folder of the built default set."""
    return {name: sim for name, (sim, _) in built_set.items()}


@pytest.fixture(scope="session")
def built_set(tmp_path_factory, small_params) -> dict[str, tuple[Path, AssetAnnotation]]:
    """The default raw set generated, imported, decomposed and built: name -> (sim, annotation)."""
    root = tmp_path_factory.mktemp("built")
    generate(BUILT, root / "raw", seed=0)
    specs = load_specs(REPO / "assets" / "specs.yaml")
    sims = {}
    for name in BUILT:
        imported, hulls, sim = (root / part / name for part in ("imported", "collision", "sim"))
        for folder in (imported, hulls, sim):
            folder.mkdir(parents=True)
        import_asset(root / "raw" / name / "result", imported, specs.assets[name], name=name)
        collide(imported, hulls, small_params)
        sims[name] = (sim, build_sim(imported, hulls, sim, PhysicsParams()))
    return sims
