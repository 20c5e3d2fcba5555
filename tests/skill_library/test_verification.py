"""Verification scenarios as data, and the status table read from a run's events."""

from __future__ import annotations

from housebench.report.page import verification_section
from housebench.skill_library.library import skills
from housebench.skill_library.verification import Scenario, load_scenarios, status_row, subgraph, summary

PICK = Scenario(verb="pick", scene="t/v000", setup=[("navigate", {"target": "apple"})], args={"object": "apple"})


def test_every_verb_has_a_scenario():
    assert {s.verb for s in load_scenarios()} == set(skills())


def test_scenario_subgraph_and_zone(world):
    sub = subgraph(Scenario(verb="push", scene="t/v000", args={"object": "apple", "zone": "$near_apple"}), world)
    zone = sub.nodes[-1].args["zone"]
    assert sub.nodes[-1].id == "v" and zone[0] > 1.8 and zone[3] - zone[0] > 0.2  # +x of the apple
    assert [n.id for n in subgraph(PICK, world).nodes] == ["s1", "v"]


def _events(*rows):
    return [(float(i), kind, detail) for i, (kind, detail) in enumerate(rows)]


def test_status_rows_from_events():
    passed = _events(
        ("node_post", {"node": "s1", "ok": True, "failed": []}),
        ("node_path", {"node": "v", "path": "top_pinch"}),
        ("node_post", {"node": "v", "ok": True, "failed": [], "error": ""}),
    )
    assert status_row(PICK, passed)["status"] == "passed"
    failed = _events(
        ("node_path", {"node": "v", "path": "top_pinch"}),
        ("node_post", {"node": "v", "ok": False, "failed": ["holding apple: touched by no finger"], "error": "missed"}),
        ("node_failed", {"node": "v", "stage": "post", "failed": ["holding"]}),
    )
    row = status_row(PICK, failed)
    assert row["status"] == "failed" and row["path"] == "top_pinch"
    assert row["reason"] == "post: holding (missed) [holding apple: touched by no finger]"
    running = _events(("node_path", {"node": "v", "path": "top_pinch"}), ("node_pre", {"node": "v", "ok": True}))
    assert status_row(PICK, running)["reason"] == ""  # never ended: verify names the horizon
    setup = _events(("node_failed", {"node": "s1", "verb": "navigate", "stage": "run", "failed": ["base_near"]}))
    assert status_row(PICK, setup) == {
        **status_row(PICK, setup),
        "status": "setup failed",
        "reason": "s1 navigate: base_near",
    }


def test_summary_counts_a_verb_passed_when_any_path_did():
    rows = [
        {"verb": "pick", "path": "top_pinch", "status": "passed"},
        {"verb": "pick", "path": "rim_pinch", "status": "failed"},
        {"verb": "open", "path": "swing_door", "status": "failed"},
    ]
    totals = summary(rows)
    assert (totals["verbs_passed"], totals["verbs"], totals["paths_passed"], totals["paths"]) == (1, 2, 1, 3)
    html = verification_section(
        {**totals, "library_version": "x", "rows": [{**r, "scenario": "s", "reason": ""} for r in rows]}
    )
    assert "verbs passed 1/2" in html and "rim_pinch" in html
