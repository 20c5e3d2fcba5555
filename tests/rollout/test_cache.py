"""The episode cache (issue 32): a resumed batch runs only what is missing and gives the tables of an uninterrupted
run; the key follows what an outcome depends on and nothing else; crashes are not kept; the bound and the CLI."""

from __future__ import annotations

import dataclasses
import os
import shutil

import pyarrow.parquet as pq
import yaml
from click.testing import CliRunner

from housebench.cli import main
from housebench.policy.registry import REMOTE_CLASS
from housebench.results.writer import write_run
from housebench.rollout.cache import EpisodeCache, policy_code, run_cached
from housebench.rollout.episode import run_episode
from housebench.rollout.records import records
from tests.conftest import ROOT, built_job
from tests.rollout.test_rollout import job as missing_job

PROVENANCE = {"code_commit": "c", "scene_hash": "s", "assets_hash": "a"}
RUN_ONLY = ("wall_s", "host", "started_at")  # what differs between two runs of the same episode


def jobs(n: int) -> list:
    """``n`` short noop episodes (seeds 0..n-1) on a built scene."""
    base = built_job("put_fruit_in_container", "v000", "noop", horizon_s=0.5)
    return [dataclasses.replace(base, seed=s, provenance=PROVENANCE) for s in range(n)]


def tables(outcomes, drop: tuple[str, ...] = ()) -> dict[str, list[dict]]:
    return {
        name: [{k: v for k, v in row.items() if k not in drop} for row in rows]
        for name, rows in records(outcomes).items()
    }


def test_a_resumed_batch_runs_only_the_missing_episodes_and_writes_the_same_tables(tmp_path):
    batch = jobs(3)
    cache = EpisodeCache(tmp_path / "cache", 2**30)
    first = run_cached(batch[:1], cache, workers=1, progress=False)  # the run that was killed after one episode
    resumed = run_cached(batch, cache, workers=1, progress=False)
    assert [o.cached for o in resumed] == [True, False, False] and not any(o.crash for o in resumed)
    assert tables(resumed[:1]) == tables(first)  # the stored outcome's rows, bit for bit (times and host too)

    again = run_cached(batch, cache, workers=1, progress=False)
    assert all(o.cached for o in again) and tables(again) == tables(resumed)

    clean = run_cached(batch, EpisodeCache(tmp_path / "fresh", 2**30), workers=1, progress=False)
    assert not any(o.cached for o in clean)
    assert tables(resumed, RUN_ONLY) == tables(clean, RUN_ONLY)
    for name, outcomes in (("resumed", resumed), ("again", again)):
        write_run(tmp_path / name, "test", records(outcomes))
    for table in ("episodes", "conditions", "events", "states", "phases", "choices"):  # the Parquet files too
        files = [tmp_path / name / table / "run=test/part-0.parquet" for name in ("resumed", "again")]
        assert files[0].read_bytes() == files[1].read_bytes(), table
    assert pq.read_table(tmp_path / "resumed/episodes/run=test/part-0.parquet").num_rows == 3


def test_the_key_follows_what_the_outcome_depends_on(tmp_path):
    files = tmp_path / "a"
    files.mkdir()
    for name in ("scene.usda", "task.json", "annotations.json"):
        (files / name).write_text(name)
    base = missing_job(tmp_path, 0, provenance=PROVENANCE, scene=files / "scene.usda", task_file=files / "task.json")
    base = dataclasses.replace(base, annotations=files / "annotations.json")
    cache = EpisodeCache(tmp_path / "cache", 2**30)
    key = cache.key(base)
    same = {
        "run": {"run": "other"},
        "split": {"split": "test"},
        "choices": {"choices": {"x": "y"}},
        "commit": {"provenance": {**PROVENANCE, "code_commit": "d"}},
    }
    for what, change in same.items():
        assert cache.key(dataclasses.replace(base, **change)) == key, what
    moved = tmp_path / "b"
    shutil.copytree(files, moved)  # the same files elsewhere: the same episode
    at = {"scene": moved / "scene.usda", "task_file": moved / "task.json", "annotations": moved / "annotations.json"}
    assert cache.key(dataclasses.replace(base, **at)) == key
    other = {
        "seed": {"seed": 1},
        "policy": {"policy": "scripted"},
        "policy params": {"policy": "scripted", "policy_entry": {"attempts": 2}},
        "scene": {"provenance": {**PROVENANCE, "scene_hash": "t"}},
        "assets": {"provenance": {**PROVENANCE, "assets_hash": "b"}},
        "horizon": {"horizon_s": 0.6},
        "noise": {"pose_noise_m": 0.001},
        "track": {"track": "vision"},
        "skills tuning": {"skills": {"navigate": {"arm_top_m": 1.7}}},
    }
    keys = {what: cache.key(dataclasses.replace(base, **change)) for what, change in other.items()}
    assert key not in keys.values() and len(set(keys.values())) == len(keys), keys
    (moved / "annotations.json").write_text("changed")
    assert cache.key(dataclasses.replace(base, **at)) != key
    assert cache.key(dataclasses.replace(base, provenance={"code_commit": "c"})) is None  # cannot name its scene


def test_an_outside_policy_is_keyed_by_its_source_or_its_version(tmp_path, monkeypatch):
    codes = []
    for where, value in (("a", 1), ("b", 2), ("c", 1)):  # c: a's source in another place
        package = tmp_path / where / "outside_pkg"
        package.mkdir(parents=True)
        (package / "__init__.py").write_text("from outside_pkg.helper import X\n")
        (package / "helper.py").write_text(f"X = {value}\n")
        monkeypatch.syspath_prepend(str(tmp_path / where))
        codes.append(policy_code("outside_pkg:Policy", ""))
    assert codes[0] != codes[1] and codes[0] == codes[2]  # its own source, imports followed; not where it lies
    assert policy_code("outside_pkg:Policy", "1.0") == "outside_pkg==1.0"  # an installed distribution: its version
    assert policy_code(REMOTE_CLASS, "") is None  # a policy server's code is not here: never cached


def test_crashes_are_not_kept(tmp_path):
    crashed = run_episode(missing_job(tmp_path, 0))
    cache = EpisodeCache(tmp_path / "cache", 2**30)
    assert crashed.crash and cache.put(crashed) is None and not cache.entries()


def test_the_cache_is_bounded_and_the_cli_reports_and_prunes_it(tmp_path):
    params = yaml.safe_load((ROOT / "params.yaml").read_text())
    params["rollout"]["cache"] = {"dir": "store", "max_mb": 1}
    (tmp_path / "params.yaml").write_text(yaml.safe_dump(params))
    store = tmp_path / "store"
    store.mkdir()
    for i in range(4):  # 4 x 400 KB, the first used last
        path = store / f"{i:064x}.json"
        path.write_bytes(b"x" * 400_000)
        os.utime(path, (1000 + (10 if i == 0 else i),) * 2)
    (store / f".{0:064x}.json.tmp-1-x.json").write_bytes(b"half")  # an unfinished write is not an entry
    runner = CliRunner()
    info = runner.invoke(main, ["rollout", "cache", "info", "--params", str(tmp_path / "params.yaml")])
    assert info.exit_code == 0 and '"entries": 4' in info.output and '"max_mb": 1' in info.output, info.output
    pruned = runner.invoke(main, ["rollout", "cache", "prune", "--params", str(tmp_path / "params.yaml")])
    assert pruned.exit_code == 0 and '"removed": 2' in pruned.output, pruned.output
    assert {p.name for p in store.glob("[!.]*.json")} == {f"{0:064x}.json", f"{3:064x}.json"}  # used last, newest
    everything = runner.invoke(main, ["rollout", "cache", "prune", "--all", "--params", str(tmp_path / "params.yaml")])
    assert everything.exit_code == 0 and not list(store.glob("[!.]*.json"))
    bad = runner.invoke(main, ["rollout", "cache", "info", "--params", str(tmp_path / "missing.yaml")])
    assert bad.exit_code != 0 and "missing.yaml" in bad.output
