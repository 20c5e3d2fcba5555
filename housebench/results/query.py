"""One ``housebench results query``, bounded by what it costs: DuckDB's own memory (``connect``), the
result's rows and bytes (counted batch by batch while it is fetched, so a huge result is refused before
it is converted to text), and its seconds (DuckDB's interrupt, from a timer)."""

from __future__ import annotations

import threading

import duckdb
import pyarrow as pa

MAX_ROWS = 1_000_000  # rows of one result (its text or CSV is printed whole)
MAX_BYTES = 128 << 20  # Arrow bytes of one result (10 M rows of 100 characters: 4.9 GB as a frame)
MAX_SECONDS = 60  # the default time limit; --timeout-s up to MAX_TIMEOUT
MAX_TIMEOUT = 3600
BATCH_ROWS = 65_536


class QueryLimit(ValueError):
    """A query over one of the limits (one line naming it)."""


def run_query(
    con: duckdb.DuckDBPyConnection,
    sql: str,
    timeout_s: float = MAX_SECONDS,
    max_rows: int = MAX_ROWS,
    max_bytes: int = MAX_BYTES,
) -> pa.Table | None:
    """The result of ``sql`` on ``con`` (None for a statement without one); :class:`QueryLimit` when it
    runs over ``timeout_s`` seconds or its result over ``max_rows`` rows or ``max_bytes`` bytes."""
    timer = threading.Timer(timeout_s, con.interrupt)
    timer.start()
    try:
        relation = con.sql(sql)
        if relation is None:
            return None
        reader = relation.to_arrow_reader(BATCH_ROWS)
        batches, rows, size = [], 0, 0
        for batch in reader:
            rows, size = rows + batch.num_rows, size + batch.nbytes
            if rows > max_rows:
                raise QueryLimit(f"results query: more than {max_rows} rows; aggregate, filter or add a limit")
            if size > max_bytes:
                raise QueryLimit(f"results query: over {max_bytes >> 20} MB of result; select fewer rows or columns")
            batches.append(batch)
        return pa.Table.from_batches(batches, schema=reader.schema)
    except duckdb.InterruptException:
        raise QueryLimit(f"results query: stopped after {timeout_s:g} s (--timeout-s)") from None
    finally:
        timer.cancel()
