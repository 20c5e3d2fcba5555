"""The report's Houses section: success per house when the episodes ran in several houses, the house set stated
and every bad house listed with its reason; nothing for the default set (the grid house alone, none bad)."""

from __future__ import annotations

import re

from housebench.report.build import build_report
from housebench.results.writer import write_run

RECORD = {
    "houses": [
        {"id": "grid", "seed": None, "held_out": False},
        {"id": "p003", "seed": 3, "held_out": False},
        {"id": "p008", "seed": 8, "held_out": True},
    ],
    "bad": [{"id": "p006", "seed": 6, "reason": "not built: house 6: bedroom: no wall for bedroom_desk"}],
}


def _section(html: str) -> str:
    found = re.search(r"<h2 id=houses>.*?(?=<h2 )", html, re.S)
    return found.group(0) if found else ""


def test_rates_by_house_and_the_bad_houses(make_records, tmp_path):
    records = make_records("repro", 29)
    for row in records["episodes"]:
        row["house"] = "p008" if row["variant"] == "v001" else "grid"
    write_run(tmp_path / "results", "repro", records)
    build_report(tmp_path / "results", tmp_path / "report", houses=RECORD)
    section = _section((tmp_path / "report" / "index.html").read_text())
    assert "Success by house" in section and "<td>p008</td>" in section and "<td>grid</td>" in section
    assert "3 houses that passed the access tests: grid, p003, p008 (held out: test only); 1 bad house" in section
    assert "<td>p006</td><td>6</td><td>not built: house 6: bedroom: no wall for bedroom_desk</td>" in section


def test_one_house_and_none_bad_adds_nothing(results_dir, tmp_path):
    default = {"houses": [{"id": "grid", "seed": None, "held_out": False}], "bad": []}
    build_report(results_dir, tmp_path / "with", houses=default)
    build_report(results_dir, tmp_path / "without")
    html = (tmp_path / "with" / "index.html").read_text()
    assert "id=houses" not in html and html == (tmp_path / "without" / "index.html").read_text()


def test_a_bad_house_is_shown_even_with_one_house(results_dir, tmp_path):
    record = {"houses": [{"id": "grid", "seed": None, "held_out": False}], "bad": RECORD["bad"]}
    build_report(results_dir, tmp_path / "report", houses=record)
    section = _section((tmp_path / "report" / "index.html").read_text())
    assert "Success by house" not in section and "<td>p006</td>" in section


def test_the_variants_a_house_could_not_hold_are_listed(results_dir, tmp_path):
    unsampled = [{"house": "p008", "task": "recycle_and_store", "variant": "p008_v000", "reason": "no free spot"}]
    build_report(results_dir, tmp_path / "report", houses={**RECORD, "unsampled": unsampled})
    section = _section((tmp_path / "report" / "index.html").read_text())
    assert "1 variants were not sampled" in section
    assert "<td>p008</td><td>recycle_and_store</td><td>p008_v000</td><td>no free spot</td>" in section
