"""Plain records -> validated Arrow tables -> one run's Parquet partitions; reading them back.

A run is written as ``<results>/<table>/run=<run>/part-0.parquet`` for every table (an empty
table still gets its file), each partition dir replaced atomically. Rows are sorted by the table's
``SORT_KEYS``, so the same records give the same bytes. The rollout builds its rows with
``verdict_rows`` (evaluator verdict -> episode row + condition rows) and ``event_rows``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from housebench.io import atomic_dir
from housebench.results.schema import PARTITION, SCHEMAS, SORT_KEYS, file_schema
from housebench.tasks.verdict import Verdict

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


def write_run(results_dir: Path, run: str, records: dict[str, list[dict[str, Any]]]) -> list[Path]:
    """Write run ``run`` of every table (``records`` maps each table name to its rows).

    All tables are validated before anything is written; each row's ``run`` must equal ``run``.
    Returns the Parquet files written.
    """
    if sorted(records) != sorted(SCHEMAS):
        raise ValueError(f"write_run: expected tables {sorted(SCHEMAS)}, got {sorted(records)}")
    if not run or "/" in run or run.startswith((".", "_")):
        raise ValueError(f"write_run: bad run name {run!r}")
    tables = {name: build_table(name, rows) for name, rows in records.items()}
    for name, data in tables.items():
        if set(data.column(PARTITION).to_pylist()) - {run}:
            raise ValueError(f"{name}: column '{PARTITION}' differs from run {run!r}")
    written = []
    for name, data in sorted(tables.items()):
        target = Path(results_dir) / name / f"{PARTITION}={run}"
        with atomic_dir(target) as tmp:
            pq.write_table(data.drop_columns([PARTITION]), tmp / PART_FILE, compression="zstd")
        written.append(target / PART_FILE)
    return written


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
        data = read_table(results_dir, table)
        if runs is not None:
            data = data.filter(pc.is_in(data["run"], pa.array(list(runs), pa.string())))
        con.register(table, data)
    con.execute("SET lock_configuration = true")
    return con


def episode_id(task: str, variant: str, seed: int, policy: str) -> str:
    """The deterministic episode key within a run: ``<task>/<variant>/<seed>/<policy>``."""
    return f"{task}/{variant}/{seed}/{policy}"


def verdict_rows(
    meta: dict[str, Any], verdict: Verdict | None, crash_reason: str | None = None
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The episode row and its condition rows from the evaluator's ``verdict``.

    ``meta`` holds the episode's provenance columns (run, task, variant, seed, policy, backend,
    backend_version, code_commit, scene_hash, assets_hash, host, started_at, wall_s, sim_s, steps).
    A crashed episode has no verdict: pass ``verdict=None`` and ``crash_reason``.
    """
    if (verdict is None) == (crash_reason is None):
        raise ValueError("verdict_rows: pass exactly one of verdict or crash_reason")
    key = {"episode_id": episode_id(meta["task"], meta["variant"], meta["seed"], meta["policy"])}
    if verdict is None:
        outcome = {
            "status": "crash",
            "failure_reason": crash_reason,
            "success": False,
            "progress": 0.0,
            "n_conditions": 0,
            "n_conditions_ok": 0,
        }
        return key | meta | outcome, []
    outcome = {
        "status": "success" if verdict.success else "fail",
        "failure_reason": None if verdict.success else _reason(verdict),
        "success": verdict.success,
        "progress": verdict.progress,
        "n_conditions": len(verdict.conditions),
        "n_conditions_ok": sum(c.ok for c in verdict.conditions),
    }
    base = key | {name: meta[name] for name in ("run", "task", "variant", "seed")}
    conditions = [
        base | {"condition_index": c.index, "predicate": c.predicate, "item": i.item, "ok": i.ok, "reason": i.reason}
        for c in verdict.conditions
        for i in c.items
    ]
    return key | meta | outcome, conditions


def _reason(verdict: Verdict) -> str:
    """The first failing item, e.g. ``inside(apple): 0.12 m outside bowl``."""
    for condition in verdict.conditions:
        for item in condition.items:
            if not item.ok:
                return f"{condition.predicate}({item.item}): {item.reason}"
    return "goal not met"


def event_rows(episode: dict[str, Any], events: Iterable[tuple[float, str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """Event rows of ``episode`` (its row) from ``(t_sim, kind, detail)`` in order of occurrence."""
    return [
        {
            "episode_id": episode["episode_id"],
            "run": episode["run"],
            "seq": seq,
            "t_sim": float(t_sim),
            "kind": kind,
            "detail": json.dumps(detail, sort_keys=True, separators=(",", ":")),
        }
        for seq, (t_sim, kind, detail) in enumerate(events)
    ]
