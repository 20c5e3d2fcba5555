"""The leaderboard (one table per track and split, every policy beside the control, held-out runs apart), the
per-task matrix (one row per task, a column per policy, marks explained once) and the metrics per track and split,
all from the Parquet tables alone."""

from __future__ import annotations

import csv
import json
import re

import pytest

from housebench.report.build import build_report
from housebench.report.page import BAR_W, ci_bar
from housebench.report.summary import REMOTE_CLASS, policy_kind
from housebench.results.writer import write_run

IMPORTED = "my_pkg.policies:MyPolicy"


def _as_policy(records: dict[str, list[dict]], source: str, policy: str, **changes) -> dict[str, list[dict]]:
    """The rows of ``source`` in ``records`` again, as policy ``policy`` (episode ids follow), with ``changes``
    to its episode rows."""
    ids = {}
    out: dict[str, list[dict]] = {name: [] for name in records}
    for row in records["episodes"]:
        if row["policy"] == source:
            new_id = row["episode_id"].rsplit("/", 1)[0] + f"/{policy}"
            ids[row["episode_id"]] = new_id
            out["episodes"].append(row | {"episode_id": new_id, "policy": policy} | changes)
    for name in ("conditions", "events", "states"):
        for row in records[name]:
            if row["episode_id"] in ids:
                out[name].append(
                    row | {"episode_id": ids[row["episode_id"]]} | ({"policy": policy} if "policy" in row else {})
                )
    return out


def _merge(*parts: dict[str, list[dict]]) -> dict[str, list[dict]]:
    return {name: [row for part in parts for row in part[name]] for name in parts[0]}


@pytest.fixture(scope="module")
def board(tmp_path_factory, make_records):
    """A state run (noop, scripted, an imported policy), a vision run (noop and a remote policy) and a held-out
    run (every variant test); their page, metrics and folder."""
    tmp_path = tmp_path_factory.mktemp("board")
    root = tmp_path / "results"
    repro = make_records("repro", 29)
    write_run(root, "repro", _merge(repro, _as_policy(repro, "scripted", "mine", policy_class=IMPORTED)))
    vision = make_records("vision", 29)
    for row in vision["episodes"]:
        row["track"] = "vision"
    noop_v = _as_policy(vision, "noop", "noop")
    write_run(root, "vision", _merge(noop_v, _as_policy(vision, "scripted", "vla", policy_class=REMOTE_CLASS)))
    heldout = make_records("heldout-secret-a1", 30)
    for row in heldout["episodes"]:
        row["split"] = "test"
    write_run(root, "heldout-secret-a1", heldout)
    metrics = build_report(root, tmp_path / "report")
    return (tmp_path / "report/index.html").read_text(), metrics, tmp_path / "report"


def _tables(html: str) -> dict[str, str]:
    """The leaderboard's tables by their heading."""
    section = html[html.index("<h2 id=leaderboard>") : html.index("<h2 id=tasks>")]
    heads = list(re.finditer(r"<h3 id=[^>]+>(.*?)</h3>", section))
    return {
        m.group(1): section[m.end() : heads[k + 1].start() if k + 1 < len(heads) else len(section)]
        for k, m in enumerate(heads)
    }


def _policies(table: str) -> list[str]:
    return re.findall(r"<td><b>([^<]+)</b>", table)


def test_one_table_per_track_and_split_never_mixing_tracks(board):
    html, _, _ = board
    tables = _tables(html)
    held = "test split, held-out (variants sampled from a seed outside the repository)"
    assert list(tables) == [
        f"state track · {held}",
        "state track · test split",
        "state track · train split",
        "vision track · test split",
        "vision track · train split",
    ]
    assert _policies(tables[f"state track · {held}"]) == ["scripted", "noop"]  # ranked, the control last
    assert "runs heldout-secret-a1" in tables[f"state track · {held}"]
    for name, table in tables.items():
        policies = _policies(table)
        assert policies[-1] == "noop" and "(control)" in table  # the control in every table, at the bottom
        if name.startswith("state"):
            assert "vla" not in policies
        else:
            assert policies == ["vla", "noop"]
    # scripted and its imported copy tie on the rates: ranked 1 and 2 by name, each with where it comes from
    state_test = tables["state track · test split"]
    assert _policies(state_test) == ["mine", "scripted", "noop"]
    assert re.findall(r"<tr(?: class=control)?><td>(\d*)</td>", state_test) == ["1", "2", ""]
    assert f"<td>imported</td><td><code>{IMPORTED}</code> 0.1.0</td>" in state_test
    assert "<td>remote</td>" in tables["vision track · test split"]
    assert "<td>built-in</td><td><code>housebench.policy.scripted:ScriptedPolicy</code>" in state_test


def test_leaderboard_numbers_and_metrics_per_track_and_split(board):
    html, metrics, _ = board
    # the conftest's scripted policy succeeds on seed 1 (variant v001, split test) and fails seeds 0 and 2
    # (v000, train), book_on_shelf's seed 2 by a crash: per run 2 of 2 test episodes, 0 of 4 train
    test = _tables(html)["state track · test split"]
    assert "<b>100.0%</b> <small>2/2</small>" in test and "<b>0.0%</b> <small>2/2" not in test
    state = metrics["scripted"]["tracks"]["state"]
    assert (state["test"]["episodes"], state["test"]["success_rate"]) == (2, 1.0)
    assert (state["train"]["episodes"], state["train"]["success_rate"]) == (4, 0.0)
    assert state["train"]["crash_rate"] == 0.25
    assert (state["heldout_test"]["episodes"], state["heldout_test"]["success_rate"]) == (6, round(2 / 6, 6))
    assert sorted(metrics["noop"]["tracks"]) == ["state", "vision"]
    assert sorted(metrics["vla"]["tracks"]) == ["vision"] and "state" not in metrics["vla"]["tracks"]
    assert metrics["vla"]["tracks"]["vision"]["test"]["success_ci_low"] == pytest.approx(0.342, abs=1e-3)


def test_task_matrix_one_row_per_task_marks_explained_once(board):
    html, _, _ = board
    section = html[html.index("<h2 id=tasks>") : html.index("<h2 id=plots>")]
    state, vision = section.split("<h3 id=tasks-vision>")
    assert state.count("<tr>") == 1 + 2 and vision.count("<tr>") == 1 + 2  # header + one row per task
    header = re.search(r"<tr>(<th>.*?)</tr>", state).group(1)
    assert re.findall(r"<th>([^<]+)</th>", header) == ["task", "noop (control)", "mine", "scripted"]
    assert "vla" in vision and "vla" not in state
    assert "note" not in section.lower().replace("notes", "")  # no note column: marks instead
    assert section.count("too few episodes") == 1 and section.count("not told apart") == 1
    assert section.count("<span class=mark>†</span>") > 1  # the marks themselves, on many cells
    assert section.count('<svg class="ci"') == 2 * 3 + 2 * 2  # an interval bar in every cell


def test_interval_bar_is_drawn_to_scale():
    svg = ci_bar(0.2, 0.6, 0.4, control=(0.0, 0.1))
    rects = [dict(re.findall(r'(\w+)="([^"]*)"', r)) for r in re.findall(r"<rect [^>]*/>", svg)]
    track, band, interval, tick = rects
    assert float(track["width"]) == BAR_W
    assert (float(band["x"]), float(band["width"])) == (0.0, pytest.approx(0.1 * BAR_W, abs=0.05))
    assert (float(interval["x"]), float(interval["width"])) == (
        pytest.approx(0.2 * BAR_W, abs=0.05),
        pytest.approx(0.4 * BAR_W, abs=0.05),
    )
    assert float(tick["x"]) + float(tick["width"]) / 2 == pytest.approx(0.4 * BAR_W, abs=0.05)
    assert "95% CI 20.0% – 60.0%" in svg


def test_policy_kind_and_the_registrys_remote_class():
    from housebench.policy.registry import REMOTE_CLASS as REGISTRY_REMOTE

    assert REMOTE_CLASS == REGISTRY_REMOTE
    assert policy_kind(REMOTE_CLASS) == "remote"
    assert policy_kind("housebench.policy.base:NoopPolicy") == "built-in"
    assert policy_kind(IMPORTED) == "imported"


def test_metrics_json_is_what_build_returns(board):
    _, metrics, out = board
    assert json.loads((out / "metrics.json").read_text()) == metrics


def test_plots_data_name_a_policy_per_track(board):
    """noop ran on both tracks: two rows per task in the plots data, never one averaged over both."""
    rows = list(csv.DictReader((board[2] / "success_by_task.csv").open()))
    labels = [r["label"] for r in rows if r["task"] == "fruit_in_bowl"]
    assert labels == [
        f"fruit_in_bowl / {p}"
        for p in ("mine (state)", "noop (state)", "noop (vision)", "scripted (state)", "vla (vision)")
    ]
