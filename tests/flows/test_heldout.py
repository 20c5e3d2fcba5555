"""The held-out test flow: a seed outside the repository's gives fresh variants, every row split ``test`` in a
``heldout-`` run that the report shows apart; public seeds, bad names and unknown policies are refused first."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml

from flows.heldout import check, heldout_layout, heldout_run, main, run_heldout
from housebench.results.writer import read_table
from tests.builtdata import built

ROOT = Path(__file__).resolve().parents[2]
TASK = "put_fruit_in_container"
SEED = 987_654  # a seed nobody trained on (the repository's variants use tasks.seed 0 to 19)


def _project(tmp_path: Path, **rollout) -> Path:
    """A project over the house and assets of the tests' small build (tests/builtdata.py; linked, read only) with
    one task spec and one variant per task."""
    small = built(TASK, "v000").root
    root = tmp_path / "project"
    (root / "tasks").mkdir(parents=True)
    (root / "tasks" / f"{TASK}.json").write_text((ROOT / "tasks" / f"{TASK}.json").read_text())
    # links to what the simulation reads; the pictures (house plan, asset sheet) are left out: the report takes
    # no picture from outside its project
    # (the small build has no drop test: the report's asset health then lists no drop verdicts)
    links = ["scenes/house/house.usda", "scenes/house/fetch.usda", "assets_built/sim", "assets_built/droptest.json"]
    for name in [*links, "annotations/house.json", "annotations/assets.json"]:
        if (small / name).exists():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            os.symlink(small / name, root / name)
    params = yaml.safe_load((ROOT / "params.yaml").read_text())
    params["tasks"]["variants_per_task"] = 1
    params["rollout"].update({"policies": ["noop"], "workers": 1, **rollout})
    (root / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    return root


def test_attempts_and_workspace(tmp_path):
    assert heldout_run(tmp_path, "spring") == "heldout-spring-a1"
    (tmp_path / "results/episodes/run=heldout-spring-a1").mkdir(parents=True)
    (tmp_path / "runs/heldout/spring-a2").mkdir(parents=True)  # an attempt that failed before writing results
    assert heldout_run(tmp_path, "spring") == "heldout-spring-a3"
    layout = heldout_layout(tmp_path, "heldout-spring-a3")
    assert layout.tasks_dir == Path("runs/heldout/spring-a3/tasks")
    assert layout.report_dir == Path("runs/heldout/spring-a3/report")


@pytest.mark.parametrize(
    "seed, name, policies, message",
    [
        (5, "spring", None, "--seed 5: its variants overlap the repository's (tasks.seed 0, 20 variants per task"),
        (SEED, "../up", None, "--name '../up': letters, digits, '-' and '_'"),
        (SEED, "spring", ["noop", "nobody"], "policies.nobody: unknown policy"),
    ],
)
def test_a_bad_request_is_refused_before_anything_runs(seed, name, policies, message, capsys):
    with pytest.raises(ValueError, match="^" + message.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        check(ROOT, seed, name, policies)
    with pytest.raises(SystemExit) as code:
        main(
            [
                "--seed",
                str(seed),
                "--name",
                name,
                "--root",
                str(ROOT),
                *(["--policies", ",".join(policies)] if policies else []),
            ]
        )
    assert code.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"heldout: {message}") and err.count("\n") == 1
    assert not (ROOT / "runs/heldout" / f"{name}-a1").exists()


@pytest.mark.slow  # a small pipeline: sample, settle (with the house check), annotate, roll out, report
def test_a_heldout_run_samples_settles_rolls_out_and_reports_as_test(tmp_path):
    """One task, one fresh variant, noop (it stops 2 s after the scene comes to rest): 13 s on an idle
    machine, 40 s or more on the shared one."""
    root = _project(tmp_path)
    metrics = run_heldout(root, SEED, name="ci", policies=["noop"])
    run = "heldout-ci-a1"
    workspace = root / "runs/heldout/ci-a1"
    variant = json.loads((workspace / f"tasks/{TASK}/v000/task.json").read_text())
    assert variant["seed"] == SEED  # sampled from the held-out seed, not the repository's
    public = built(TASK, "v000").task_dir(TASK, "v000") / "task.json"  # the repository's v000, as dvc repro samples it
    assert variant["objects"] != json.loads(public.read_text())["objects"]  # other poses than the public v000
    assert (workspace / f"settled/{TASK}/v000/scene.usda").is_file()
    episodes = read_table(root / "results", "episodes").to_pylist()
    assert [(e["run"], e["task"], e["variant"], e["policy"], e["split"], e["seed"]) for e in episodes] == [
        (run, TASK, "v000", "noop", "test", SEED)
    ]
    assert metrics["noop"]["tracks"]["state"]["heldout_test"]["episodes"] == 1
    html = (workspace / "report/index.html").read_text()
    assert "state track · test split, held-out" in html and "housebench held-out test heldout-ci-a1" in html
