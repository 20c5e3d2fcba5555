"""The results tables' columns written out by hand: names, Arrow types, nullability and order. A change to a column
(a type narrowed, a column moved, renamed or added) fails here until this file and ``SCHEMA_VERSION`` change with it,
so the tables others read never change shape unannounced."""

from __future__ import annotations

from datetime import date

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from housebench.results.schema import PARTITION, ROLLOUT_TABLES, SCHEMA_VERSION, SCHEMAS, file_schema
from housebench.results.writer import read_table, write_derived, write_run

S, I32, I64, F64, B, D = pa.string(), pa.int32(), pa.int64(), pa.float64(), pa.bool_(), pa.date32()
UTC_US = pa.timestamp("us", tz="UTC")
NULL = True  # the column may hold nulls

GOLDEN_VERSION = 6
GOLDEN: dict[str, list[tuple]] = {
    "episodes": [
        ("episode_id", S),
        ("run", S),
        ("task", S),
        ("variant", S),
        ("house", S),
        ("seed", I64),
        ("policy", S),
        ("policy_class", S),
        ("policy_version", S),
        ("track", S),
        ("split", S),
        ("backend", S),
        ("backend_version", S),
        ("code_commit", S),
        ("scene_hash", S),
        ("assets_hash", S),
        ("host", S),
        ("started_at", UTC_US),
        ("wall_s", F64),
        ("sim_s", F64),
        ("horizon_s", F64),
        ("steps", I64),
        ("status", S),
        ("failure_reason", S, NULL),
        ("success", B),
        ("progress", F64),
        ("n_conditions", I32),
        ("n_conditions_ok", I32),
    ],
    "conditions": [
        ("episode_id", S),
        ("run", S),
        ("task", S),
        ("variant", S),
        ("seed", I64),
        ("policy", S),
        ("condition_index", I32),
        ("path", S),
        ("predicate", S),
        ("item", S),
        ("ok", B),
        ("reason", S),
    ],
    "events": [
        ("episode_id", S),
        ("run", S),
        ("seq", I32),
        ("t_sim", F64),
        ("kind", S),
        ("detail", S),
    ],
    "choices": [
        ("run", S),
        ("task", S),
        ("variant", S),
        ("choice", S),
        ("value", S),
    ],
    "states": [
        ("episode_id", S),
        ("run", S),
        ("initial", S, NULL),
        ("final", S, NULL),
    ],
    "phases": [
        ("episode_id", S),
        ("run", S),
        ("phase", I32),
        ("verb", S),
        ("targets", S),
        ("reached", B),
        ("implied", B),
        ("t_reached", F64, NULL),
        ("time_s", F64),
    ],
    "trends": [
        ("run", S),
        ("night", D),
        ("policy", S),
        ("track", S),
        ("split", S),
        ("task", S),
        ("n", I64),
        ("successes", I64),
        ("rate", F64),
        ("ci_low", F64),
        ("ci_high", F64),
        ("baseline_runs", S),
        ("baseline_n", I64),
        ("baseline_successes", I64),
        ("baseline_rate", F64, NULL),
        ("test", S),
        ("pairs", I64),
        ("p_value", F64, NULL),
        ("p_adjusted", F64, NULL),
        ("flag", B),
    ],
}
CLOSED = {
    ("episodes", "status"): "success,fail,crash",
    ("episodes", "track"): "state,vision",
    ("trends", "track"): "state,vision",
    ("trends", "test"): "paired,unpaired,none",
}


def _golden(table: str) -> pa.Schema:
    return pa.schema([pa.field(name, type_, nullable=bool(rest)) for name, type_, *rest in GOLDEN[table]])


def test_the_tables_and_the_version():
    assert list(SCHEMAS) == list(GOLDEN)
    assert SCHEMA_VERSION == GOLDEN_VERSION  # bump both, and the golden columns, on any change


@pytest.mark.parametrize("table", list(GOLDEN))
def test_columns_types_nullability_and_order(table):
    schema = SCHEMAS[table]
    assert [(f.name, str(f.type), f.nullable) for f in schema] == [
        (f.name, str(f.type), f.nullable) for f in _golden(table)
    ]
    assert schema.equals(_golden(table), check_metadata=False)
    for field in schema:
        values = (field.metadata or {}).get(b"values")
        assert (values.decode() if values else None) == CLOSED.get((table, field.name)), field.name


def _on_disk(path, table: str) -> None:
    written = pq.read_schema(path)
    expected = _golden(table).remove(_golden(table).get_field_index(PARTITION))
    assert written.equals(expected, check_metadata=False)
    assert file_schema(table).equals(expected, check_metadata=False)


@pytest.mark.parametrize("table", ROLLOUT_TABLES)
def test_the_written_parquet_has_the_golden_columns(results_dir, table):
    """What lands on disk (not what the writer says it writes): the partition column lives in the path only."""
    _on_disk(results_dir / table / f"{PARTITION}=repro" / "part-0.parquet", table)


def test_the_derived_trends_table_lands_with_the_golden_columns(tmp_path):
    """The nightly flow's trends table: written beside the rollout tables, by its own writer."""
    row = {name: None for name, *_ in GOLDEN["trends"]}
    row |= {"run": "nightly-2026-11-30-a1", "night": date(2026, 11, 30), "policy": "noop", "track": "state"}
    row |= {"split": "test", "task": "t", "n": 4, "successes": 1, "rate": 0.25, "ci_low": 0.05, "ci_high": 0.7}
    row |= {"baseline_runs": "", "baseline_n": 0, "baseline_successes": 0, "test": "none", "pairs": 0, "flag": False}
    path = write_derived(tmp_path, "trends", "nightly-2026-11-30-a1", [row])
    _on_disk(path, "trends")
    assert read_table(tmp_path, "trends").to_pylist() == [row]


def test_a_file_with_columns_reordered_or_retyped_is_refused(results_dir):
    part = results_dir / "episodes" / f"{PARTITION}=repro" / "part-0.parquet"
    data = pq.read_table(part)
    names = data.column_names
    moved = data.select([names[1], names[0], *names[2:]])  # task before episode_id
    pq.write_table(moved, part)
    with pytest.raises(ValueError, match=r"part-0.parquet: schema differs from results.schema.episodes"):
        read_table(results_dir, "episodes")
    narrowed = data.set_column(names.index("seed"), "seed", data.column("seed").cast(pa.int32()))
    pq.write_table(narrowed, part)
    with pytest.raises(ValueError, match=r"schema differs from results.schema.episodes"):
        read_table(results_dir, "episodes")


def test_seed_wall_and_sim_seconds_keep_their_meaning(tmp_path, make_records):
    """The writer keeps each number in its own column: the seed an integer, wall and simulated seconds apart."""
    records = make_records("repro", 29)
    root = tmp_path / "results"
    write_run(root, "repro", records)
    rows = {r["episode_id"]: r for r in read_table(root, "episodes").to_pylist()}
    for given in records["episodes"]:
        got = rows[given["episode_id"]]
        assert type(got["seed"]) is int and got["seed"] == given["seed"]
        assert (got["wall_s"], got["sim_s"]) == (given["wall_s"], given["sim_s"])
        assert got["episode_id"].split("/")[2] == str(got["seed"])
    events = read_table(root, "events").to_pylist()
    for episode in rows:
        seqs = [e["seq"] for e in events if e["episode_id"] == episode]
        assert seqs == list(range(len(seqs))) and seqs
