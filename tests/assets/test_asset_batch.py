"""``run_each``: an item whose process dies outright fails alone; the others of the batch still build."""

from __future__ import annotations

import json
import os
from pathlib import Path

from housebench.assets.batch import run_each


def _step(name: str, out: Path) -> str:
    if name == "crash":
        os._exit(1)  # the whole worker process dies, as in a segfault
    (out / "built.txt").write_text(name)
    return name.upper()


def test_a_dying_worker_fails_only_its_own_item(tmp_path):
    names = ["apple", "crash", "bowl", "mug", "pen"]
    done, failed = run_each(names, tmp_path / "out", _step, workers=2)
    assert done == {"apple": "APPLE", "bowl": "BOWL", "mug": "MUG", "pen": "PEN"}
    assert list(failed) == ["crash"] and "died" in failed["crash"]
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["apple", "bowl", "failed.json", "mug", "pen"]
    assert all((tmp_path / "out" / n / "built.txt").read_text() == n for n in done)
    assert json.loads((tmp_path / "out" / "failed.json").read_text())["failed"] == failed
