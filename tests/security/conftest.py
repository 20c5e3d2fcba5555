"""A small results set for the security tests, written through the real writer (the synthetic records of
tests/results, with the columns schema v3 added)."""

from __future__ import annotations

from pathlib import Path

import pytest

from housebench.results.schema import SCHEMAS
from housebench.results.writer import write_run
from tests.results.conftest import run_records


def records(run: str) -> dict[str, list[dict]]:
    found = run_records(run, 29)
    for table, rows in found.items():
        for row in rows:
            for field in SCHEMAS[table]:  # v3's strings: the first of a closed set, else empty
                allowed = (field.metadata or {}).get(b"values")
                row.setdefault(field.name, allowed.decode().split(",")[0] if allowed else "")
    return found


@pytest.fixture
def results_dir(tmp_path: Path) -> Path:
    root = tmp_path / "results"
    write_run(root, "repro", records("repro"))
    return root
