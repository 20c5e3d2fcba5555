"""Plain records -> validated Arrow tables -> one run's Parquet partitions; reading them back.

A run is written as ``<results>/<table>/run=<run>/part-0.parquet`` for every table a rollout writes (an
empty table still gets its file), each partition dir replaced atomically; a derived table (``trends``) gets
its run's partition later, from :func:`write_derived`. Rows are sorted by the table's
``SORT_KEYS``, so the same records give the same bytes. The rollout builds the rows
(:mod:`housebench.rollout.records`); this module validates and writes them.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from housebench.io import atomic_dir
from housebench.results.schema import (
    DERIVED_TABLES,
    LATER_TABLES,
    PARTITION,
    ROLLOUT_TABLES,
    SCHEMAS,
    SORT_KEYS,
    file_schema,
)

PART_FILE = "part-0.parquet"


def build_table(table: str, records: list[dict[str, Any]]) -> pa.Table:
    """Validate ``records`` against ``table``'s schema and return them as a sorted Arrow table.

    Unknown or missing columns, nulls in non-nullable columns, wrong types and values outside a
    column's closed set are a one-line ``ValueError`` naming the table and the column.
    """
    schema = SCHEMAS[table]
    for row, record in enumerate(records):
        unknown = sorted(set(record) - set(schema.names))
        missing = [name for name in schema.names if name not in record]
        if unknown or missing:
            what = f"unknown column '{unknown[0]}'" if unknown else f"missing column '{missing[0]}'"
            raise ValueError(f"{table}: {what} (row {row})")
    columns = []
    for field in schema:
        values = [record[field.name] for record in records]
        if pa.types.is_integer(field.type):  # Arrow would take 3.0 as 3: a seed or a count is an integer, or refused
            for row, value in enumerate(values):
                if value is not None and (isinstance(value, bool) or not isinstance(value, numbers.Integral)):
                    raise ValueError(f"{table}: column '{field.name}': {value!r} is not an integer (row {row})")
        try:
            column = pa.array(values, type=field.type)
        except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError) as err:
            raise ValueError(f"{table}: column '{field.name}': {err}".splitlines()[0]) from None
        if not field.nullable and column.null_count:
            row = values.index(None)
            raise ValueError(f"{table}: column '{field.name}' has a null (row {row})")
        allowed = (field.metadata or {}).get(b"values")
        if allowed and (bad := set(values) - set(allowed.decode().split(","))):
            raise ValueError(f"{table}: column '{field.name}' has value {sorted(bad)[0]!r}")
        columns.append(column)
    data = pa.Table.from_arrays(columns, schema=schema)
    return data.sort_by([(key, "ascending") for key in SORT_KEYS[table]])


def _first_duplicate(values: list[Any]) -> Any:
    seen = set()
    for value in values:
        if value in seen:
            return value
        seen.add(value)
    return None


def check_run(tables: dict[str, pa.Table]) -> None:
    """One run's tables hold together, or a one-line ``ValueError``: every episode id once in ``episodes``
    and ``states`` (a second row under the same id would be counted twice, or hide the first); the rows of
    ``conditions``, ``events`` and ``states`` belong to an episode of the run; an episode's events are
    numbered 0, 1, 2, ... in order (``seq``: what the report and the analyses order them by)."""
    ids = tables["episodes"].column("episode_id").to_pylist()
    for name in ("episodes", "states"):
        if (dup := _first_duplicate(tables[name].column("episode_id").to_pylist())) is not None:
            raise ValueError(f"{name}: duplicate episode_id {dup!r} in one run")
    known = set(ids)
    for name in ("conditions", "events", "states"):
        stray = sorted(set(tables[name].column("episode_id").to_pylist()) - known)
        if stray:
            raise ValueError(f"{name}: episode_id {stray[0]!r} has no row in episodes")
    events = tables["events"]  # sorted by (run, episode_id, seq)
    expected: dict[str, int] = {}
    for episode, seq in zip(events.column("episode_id").to_pylist(), events.column("seq").to_pylist(), strict=True):
        if seq != expected.get(episode, 0):
            want = expected.get(episode, 0)
            raise ValueError(f"events: episode {episode!r} has seq {seq} where {want} was due (seq counts 0, 1, ...)")
        expected[episode] = seq + 1


def _check_name(caller: str, run: str) -> None:
    if not run or "/" in run or run.startswith((".", "_")):
        raise ValueError(f"{caller}: bad run name {run!r}")


def _check_partition(name: str, data: pa.Table, run: str) -> None:
    if set(data.column(PARTITION).to_pylist()) - {run}:
        raise ValueError(f"{name}: column '{PARTITION}' differs from run {run!r}")


def _write_partition(results_dir: Path, name: str, run: str, data: pa.Table) -> Path:
    target = Path(results_dir) / name / f"{PARTITION}={run}"
    with atomic_dir(target) as tmp:
        pq.write_table(data.drop_columns([PARTITION]), tmp / PART_FILE, compression="zstd")
    return target / PART_FILE


def write_run(results_dir: Path, run: str, records: dict[str, list[dict[str, Any]]]) -> list[Path]:
    """Write run ``run`` of every rollout table (``records`` maps each of ``ROLLOUT_TABLES`` to its rows).

    All tables are validated before anything is written; each row's ``run`` must equal ``run``, and the
    tables must hold together (:func:`check_run`: no episode id twice, no orphan rows, events numbered).
    Returns the Parquet files written.
    """
    if sorted(records) != sorted(ROLLOUT_TABLES):
        raise ValueError(f"write_run: expected tables {sorted(ROLLOUT_TABLES)}, got {sorted(records)}")
    _check_name("write_run", run)
    tables = {name: build_table(name, rows) for name, rows in records.items()}
    for name, data in tables.items():
        _check_partition(name, data, run)
    check_run(tables)
    return [_write_partition(results_dir, name, run, data) for name, data in sorted(tables.items())]


def write_derived(results_dir: Path, table: str, run: str, rows: list[dict[str, Any]]) -> Path:
    """Write run ``run``'s partition of the derived ``table`` (one of ``DERIVED_TABLES``), validated as
    :func:`build_table` does and replaced atomically. Returns the Parquet file written."""
    if table not in DERIVED_TABLES:
        raise ValueError(f"write_derived: '{table}' is not a derived table ({', '.join(DERIVED_TABLES)})")
    _check_name("write_derived", run)
    data = build_table(table, rows)
    _check_partition(table, data, run)
    return _write_partition(results_dir, table, run, data)


def read_table(results_dir: Path, table: str) -> pa.Table:
    """Every run of ``table`` under ``results_dir`` as one Arrow table with the schema enforced."""
    root = Path(results_dir) / table
    if not root.is_dir():
        raise FileNotFoundError(f"{root}: no such results table (run the rollout stage first)")
    schema = SCHEMAS[table]
    partitioning = ds.partitioning(pa.schema([schema.field(PARTITION)]), flavor="hive")
    dataset = ds.dataset(root, format="parquet", partitioning=partitioning, schema=schema)
    expected = file_schema(table)
    for fragment in dataset.get_fragments():
        if not fragment.physical_schema.equals(expected):
            raise ValueError(f"{fragment.path}: schema differs from results.schema.{table}")
    data = dataset.to_table().select(schema.names).cast(schema)
    return data.sort_by([(key, "ascending") for key in SORT_KEYS[table]])


# A query reads the registered tables and nothing else: no file access (COPY, read_csv, glob, ATTACH,
# EXPORT), no extensions installed or loaded, a bounded memory, and the configuration locked after.
LOCKED_DOWN = {
    "enable_external_access": False,
    "autoinstall_known_extensions": False,
    "autoload_known_extensions": False,
    "allow_community_extensions": False,
    "allow_unsigned_extensions": False,
    "temp_directory": "",
    "memory_limit": "2GB",
    "threads": 1,  # same float sums in the same order, every time
}


def connect(results_dir: Path, runs: Sequence[str] | None = None) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB with each results table as a view of the same name: every run, or only
    the runs named in ``runs``. Read-only over those tables (:data:`LOCKED_DOWN`, configuration locked)."""
    con = duckdb.connect(config=LOCKED_DOWN)
    for table in SCHEMAS:
        if table in LATER_TABLES and not (Path(results_dir) / table).is_dir():
            data = SCHEMAS[table].empty_table()  # runs rolled out before the table existed
        else:
            data = read_table(results_dir, table)
        if runs is not None:
            data = data.filter(pc.is_in(data["run"], pa.array(list(runs), pa.string())))
        con.register(table, data)
    con.execute("SET lock_configuration = true")
    return con
