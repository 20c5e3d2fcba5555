"""The schema module: documented columns, and a write/read round trip that keeps every type."""

import pyarrow as pa

from housebench.results.schema import PARTITION, ROLLOUT_TABLES, SCHEMA_VERSION, SCHEMAS, describe, file_schema
from housebench.results.writer import read_table


def test_every_column_is_documented_and_versioned():
    assert SCHEMA_VERSION >= 1
    for name, schema in SCHEMAS.items():
        assert schema.metadata[b"housebench.table"] == name.encode()
        keys = {"choices": [PARTITION, "task"], "trends": [PARTITION, "night"]}  # tables of no episode
        assert schema.names[:2] == keys.get(name, ["episode_id", PARTITION])
        assert all(doc for _, _, doc in describe(name))
        assert PARTITION not in file_schema(name).names


def test_round_trip_keeps_rows_and_types(results_dir, make_records):
    for name in ROLLOUT_TABLES:  # the derived trends table: tests/results/test_schema_golden.py
        schema = SCHEMAS[name]
        data = read_table(results_dir, name)
        assert data.schema.equals(schema)
        expected = make_records("repro", 29)[name]
        got = [row for row in data.to_pylist() if row["run"] == "repro"]
        names = schema.names
        assert sorted(got, key=lambda row: tuple(str(row[k]) for k in names)) == sorted(
            expected, key=lambda row: tuple(str(row[k]) for k in names)
        )
    episodes = read_table(results_dir, "episodes")
    assert episodes.schema.field("started_at").type == pa.timestamp("us", tz="UTC")
    assert set(episodes.column("status").to_pylist()) == {"success", "fail", "crash"}
