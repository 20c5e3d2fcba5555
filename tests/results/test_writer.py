"""The writer: strict validation, hive partitions per run, atomic rewrite, verdict -> rows."""

import pytest

from housebench.results.writer import build_table, read_table, write_run
from housebench.rollout.records import verdict_rows
from housebench.tasks.verdict import ConditionResult, ItemResult, Verdict


@pytest.fixture
def episode(make_records) -> dict:
    return make_records("repro", 29)["episodes"][0]


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda r: r.update(colour="red"), "episodes: unknown column 'colour' (row 0)"),
        (lambda r: r.pop("host"), "episodes: missing column 'host' (row 0)"),
        (lambda r: r.update(status="timeout"), "episodes: column 'status' has value 'timeout'"),
        (lambda r: r.update(seed=None), "episodes: column 'seed' has a null (row 0)"),
    ],
)
def test_bad_records_are_one_line_errors(episode, change, message):
    change(episode)
    with pytest.raises(ValueError) as err:
        build_table("episodes", [episode])
    assert str(err.value) == message


def test_wrong_type_names_the_column(episode):
    record = episode | {"steps": "many"}
    with pytest.raises(ValueError, match=r"^episodes: column 'steps': ") as err:
        build_table("episodes", [record])
    assert "\n" not in str(err.value)


def test_two_runs_read_together_and_a_rewrite_replaces_its_run(results_dir, make_records):
    episodes = read_table(results_dir, "episodes")
    assert sorted(set(episodes.column("run").to_pylist())) == ["nightly-2026-11-30", "repro"]
    assert episodes.num_rows == 2 * len(make_records("repro", 29)["episodes"])
    part = results_dir / "episodes/run=repro/part-0.parquet"
    before = part.read_bytes()
    records = make_records("repro", 29)
    records["episodes"].reverse()  # input order does not change the bytes
    write_run(results_dir, "repro", records)
    assert part.read_bytes() == before
    assert read_table(results_dir, "episodes").num_rows == episodes.num_rows
    assert not [p for p in results_dir.rglob(".*")]  # no temp dirs left behind


def test_a_bad_table_writes_nothing(tmp_path, make_records):
    records = make_records("repro", 29)
    records["events"][0]["kind"] = None
    with pytest.raises(ValueError, match="events: column 'kind' has a null"):
        write_run(tmp_path, "repro", records)
    assert not list(tmp_path.iterdir())


def test_run_column_must_match_the_partition(tmp_path, make_records):
    with pytest.raises(ValueError, match="episodes: column 'run' differs from run 'other'"):
        write_run(tmp_path, "other", make_records("repro", 29))


def test_verdict_rows(episode):
    meta = {
        k: v
        for k, v in episode.items()
        if k not in {"episode_id", "status", "failure_reason", "success", "progress", "n_conditions", "n_conditions_ok"}
    }
    verdict = Verdict(
        success=False,
        progress=0.5,
        conditions=[
            ConditionResult(
                index=0,
                path="goal",
                predicate="inside",
                ok=False,
                progress=0.5,
                items=[
                    ItemResult(item="apple", ok=True, reason="inside bowl"),
                    ItemResult(item="pear", ok=False, reason="on table"),
                ],
            )
        ],
    )
    episode, conditions = verdict_rows(meta, verdict)
    assert episode["episode_id"] == "{task}/{variant}/{seed}/{policy}".format(**meta)
    assert (episode["status"], episode["failure_reason"]) == ("fail", "inside(pear): on table")
    assert (episode["n_conditions"], episode["n_conditions_ok"]) == (1, 0)
    assert [(c["item"], c["ok"]) for c in conditions] == [("apple", True), ("pear", False)]
    build_table("episodes", [episode]), build_table("conditions", conditions)
    crashed, none = verdict_rows(meta, None, crash_reason="diverged")
    assert (crashed["status"], crashed["failure_reason"], none) == ("crash", "diverged", [])


def _rename(row: dict, episode_id: str) -> dict:
    return row | {"episode_id": episode_id}


@pytest.mark.parametrize(
    "plant, message",
    [
        (  # the same episode id twice (two policies sharing a name, a job planned twice)
            lambda r: r["episodes"].append(r["episodes"][0] | {"seed": 7}),
            "episodes: duplicate episode_id 'fruit_in_bowl/v000/0/noop' in one run",
        ),
        (
            lambda r: r["states"].append(dict(r["states"][0])),
            "states: duplicate episode_id 'fruit_in_bowl/v000/0/noop' in one run",
        ),
        (  # a row of an episode the run does not have
            lambda r: r["events"].append(_rename(r["events"][0], "ghost/v000/0/noop")),
            "events: episode_id 'ghost/v000/0/noop' has no row in episodes",
        ),
        (
            lambda r: r["conditions"].append(_rename(r["conditions"][0], "ghost/v000/0/noop")),
            "conditions: episode_id 'ghost/v000/0/noop' has no row in episodes",
        ),
        (  # an event lost, or numbered twice
            lambda r: r["events"].pop(1),
            "events: episode 'fruit_in_bowl/v000/0/noop' has seq 2 where 1 was due (seq counts 0, 1, ...)",
        ),
        (
            lambda r: r["events"].__setitem__(1, r["events"][1] | {"seq": 0}),
            "events: episode 'fruit_in_bowl/v000/0/noop' has seq 0 where 1 was due (seq counts 0, 1, ...)",
        ),
    ],
)
def test_a_run_that_does_not_hold_together_is_refused(tmp_path, make_records, plant, message):
    records = make_records("repro", 29)
    plant(records)
    with pytest.raises(ValueError) as err:
        write_run(tmp_path, "repro", records)
    assert str(err.value) == message
    assert not list(tmp_path.iterdir())  # nothing written


@pytest.mark.parametrize("value", [3.0, True, "3"])
def test_an_integer_column_takes_integers_only(episode, value):
    """Arrow alone would store the seed 3.0 as 3: a float or a flag where an integer belongs is refused."""
    with pytest.raises(ValueError, match=r"^episodes: column 'seed': ") as err:
        build_table("episodes", [episode | {"seed": value}])
    assert "\n" not in str(err.value)
