"""The tests' small build (tests/builtdata.py): its pair lists name real variants of the benchmark, a pair
not listed is refused saying where to list it, its key follows what the build reads, and no test reads the
repository's own built data instead."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from tests import builtdata
from tests.builtdata import ROOT, SLOW_VARIANTS, VARIANTS


def test_every_listed_pair_is_a_variant_the_benchmark_samples():
    per_task = yaml.safe_load((ROOT / "params.yaml").read_text())["tasks"]["variants_per_task"]
    for task, variant in VARIANTS + SLOW_VARIANTS:
        assert (ROOT / "tasks" / f"{task}.json").is_file(), task
        assert builtdata._index(variant) < per_task, (task, variant)
    assert not set(VARIANTS) & set(SLOW_VARIANTS)  # a pair of the default suite is built once, there
    assert list(VARIANTS) == sorted(set(VARIANTS)) and list(SLOW_VARIANTS) == sorted(set(SLOW_VARIANTS))


def test_a_pair_not_listed_or_not_a_variant_is_refused_naming_the_list():
    with pytest.raises(LookupError, match="add it to VARIANTS in tests/builtdata.py"):
        builtdata.built("clear_shelf", "v019")
    with pytest.raises(ValueError, match="'19' is not vNNN"):
        builtdata._index("19")


def test_the_key_follows_the_pairs_and_the_code_the_stages_declare():
    key = builtdata._key(VARIANTS)
    assert builtdata._key(VARIANTS[:-1]) != key
    code, sections = builtdata._code_deps()
    assert ROOT / "housebench/pipeline/tasks.py" in code and ROOT / "stages/settle.py" in code
    assert not [p for p in code if p.parts[len(ROOT.parts)] in ("scenes", "annotations", "assets_built")]
    assert {"import", "collision", "physics", "house", "tasks", "settle"} <= set(sections)


def test_an_asset_an_asset_stage_refused_fails_the_build(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "assets_built/collision").mkdir(parents=True)
    (tmp_path / "assets_built/collision/failed.json").write_text('{"version": 1, "failed": {"duck": "no hulls"}}')
    assert builtdata._refused("collision") == {"duck": "no hulls"}
    assert builtdata._refused("physics") == {} and builtdata._refused("settle") == {}


# a test reading the repository's own built data would skip (or test nothing) on CI's clean checkout
READS_REPO_DATA = re.compile(
    r"""ROOT\s*/\s*(f?["'](scenes|annotations|assets_built)|SETTLED_DIR|TASKS_DIR|HOUSE_DIR|ANNOTATIONS_DIR"""
    r"""|ASSETS_SIM|ASSETS_IMPORTED|ASSETS_COLLISION|DROPTEST)|Layout\(root=ROOT\b|root=ROOT\b|["']root["']: ROOT\b"""
)


def test_no_test_reads_the_repositorys_built_data():
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sorted((ROOT / "tests").rglob("*.py"))
        if path != Path(__file__).resolve()  # this file names the patterns
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if READS_REPO_DATA.search(line)
    ]
    assert found == [], "use tests/builtdata.py's built() or conftest's built_layout instead:\n" + "\n".join(found)


def test_the_pattern_catches_the_ways_a_test_read_them():
    for line in ('ROOT / "scenes/settled"', "ROOT / f'annotations/{x}'", "ROOT / HOUSE_DIR", "Layout(root=ROOT)",
                 'make_env(t, root=ROOT, x=1)', '{"root": ROOT}'):  # fmt: skip
        assert READS_REPO_DATA.search(line), line
    assert not READS_REPO_DATA.search('ROOT / "tasks" / "a.json"') and not READS_REPO_DATA.search("root=ROOTS")
