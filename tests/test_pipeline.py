"""End to end, for real: `dvc repro` on a fresh copy of the project, then the nightly Prefect flow
against a real Prefect server, then the analysis notebook on the Parquet that came out.

The fast copy keeps one task spec and only the raw assets it uses, so the default suite stays fast;
the `slow` variant (`pytest -m slow`) builds the whole raw set and every task.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import nbformat
import pytest
import yaml
from nbclient import NotebookClient

from flows.nightly import nightly_cron
from housebench.annotations.schema import SceneAnnotations
from housebench.policy.base import REST_S
from housebench.sim.registry import make_backend
from housebench.tasks.evaluator import evaluate
from housebench.tasks.spec import TaskVariant
from tests.conftest import ROOT

DETERMINISTIC_STAGES = ("import", "collision", "physics", "house", "tasks", "settle", "annotate")
NIGHT = "2026-11-30"
FAST_TASK = "put_fruit_in_container"
FAST_VERBS = ("wait", "tuck")  # the verify stage's scenarios in the fast copy: the stage's mechanics


def used_assets(spec: Path) -> set[str]:
    """Every asset a task spec can draw (alternatives ``a|b`` included)."""
    return {name for obj in json.loads(spec.read_text())["objects"].values() for name in obj["asset"].split("|")}


def copy_project(dest: Path, everything: bool) -> Path:
    """The project's files as git sees them (tracked and new, not ignored), in a fresh git repo;
    unless ``everything``, only the fast task and the raw assets it uses."""
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.splitlines()
    assets = used_assets(ROOT / "tasks" / f"{FAST_TASK}.json")
    for rel in listed:
        parts = Path(rel).parts
        if rel == "dvc.lock" or not (ROOT / rel).is_file():
            continue
        if not everything and (
            (parts[0] == "assets_raw" and parts[1] not in assets)
            or (parts[0] == "tasks" and rel != f"tasks/{FAST_TASK}.json")
        ):
            continue
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, dest / rel)
    params = dest / "params.yaml"  # two variants a task: the pipeline's mechanics, not the benchmark's counts
    text = _set(params.read_text(), r"  variants_per_task: \d+", "  variants_per_task: 2")
    if not everything:  # the verify stage on two scenarios: its mechanics (the skills have their own physics tests)
        text = _set(text, r"  verbs: \[\]", f"  verbs: {list(FAST_VERBS)}")
    params.write_text(text)
    for cmd in (
        ["git", "init", "-q"],
        ["git", "add", "-A"],
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "copy"],
    ):
        subprocess.run(cmd, cwd=dest, check=True)
    return dest


def _set(params: str, line: str, value: str) -> str:
    """``params`` with its one line matching ``line`` replaced by ``value`` (none or two: the params changed)."""
    text, count = re.subn(rf"(?m)^{line}", value, params)
    assert count == 1, f"params.yaml: {count} lines match {line!r}"
    return text


def run(cmd: list[str], cwd: Path, env: dict, timeout: int = 900) -> str:
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"{' '.join(cmd)} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc.stdout + proc.stderr


def ran_stages(output: str) -> list[str]:
    return re.findall(r"Running stage '([^']+)'", output)


def out_hashes(lock: Path, stages: tuple[str, ...]) -> dict[str, list[str]]:
    data = yaml.safe_load(lock.read_text())["stages"]
    return {s: sorted(f"{o['path']}:{o['md5']}" for o in data[s]["outs"]) for s in stages}


def pipeline_env(prefect_server: dict) -> dict:
    venv_bin = str(Path(sys.executable).parent)
    return {**prefect_server, "PATH": os.pathsep.join([venv_bin, os.environ.get("PATH", "")])}


def check_pipeline(repo: Path, env: dict) -> None:
    dvc = [sys.executable, "-m", "dvc"]
    first = ran_stages(run(dvc + ["repro"], repo, env))
    assert sorted(first) == sorted(yaml.safe_load((repo / "dvc.yaml").read_text())["stages"])
    chain = ["import", "collision", "physics", "tasks", "settle", "annotate", "rollout", "report"]
    assert [s for s in first if s in chain] == chain and first.index("house") < first.index("tasks")

    # Parquet that DuckDB can query, with provenance on every row
    episodes = duckdb.sql(
        f"select * from read_parquet('{repo}/results/episodes/**/*.parquet', hive_partitioning=true)"
    ).df()
    variants = len(list((repo / "scenes/tasks").glob("*/*/task.json")))
    params = yaml.safe_load((repo / "params.yaml").read_text())["rollout"]
    assert len(episodes) == variants * params["episodes_per_variant"] * len(params["policies"]) > 0
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True).stdout.strip()
    assert set(episodes["code_commit"]) == {head}
    assert set(episodes["run"]) == {"repro"} and set(episodes["backend"]) == {"mujoco"}
    assert episodes["status"].isin(["success", "fail"]).all()  # a crash here is a bug
    for column in ("scene_hash", "assets_hash", "host", "backend_version"):
        assert episodes[column].str.len().min() > 0, column
    noop = episodes[episodes["policy"] == "noop"]  # the control stops once its scene has been at rest
    assert len(noop) and (noop["sim_s"] >= REST_S).all()
    assert (episodes["sim_s"] <= params["horizon_s"] + params["control_dt"]).all()

    # the report and its metrics
    html = (repo / "results/report/index.html").read_text()
    assert "<img" in html and FAST_TASK in html
    metrics = json.loads(run(dvc + ["metrics", "show", "--json"], repo, env))
    assert metrics, "dvc metrics show lists nothing"
    per_policy = {p.stem: json.loads(p.read_text()) for p in (repo / "results/metrics").glob("*.json")}
    assert sum(m["episodes"] for m in per_policy.values()) == len(episodes)
    assert sorted(per_policy) == sorted(params["policies"])  # one short row per policy

    # a second repro re-runs nothing; one param re-runs that stage and what depends on it
    assert ran_stages(run(dvc + ["repro"], repo, env)) == []
    text = (repo / "params.yaml").read_text()
    head, rollout = text.split("\nrollout:", 1)  # verify has a horizon_s of its own
    rollout = rollout.replace(f"horizon_s: {params['horizon_s']}", f"horizon_s: {params['horizon_s'] + 0.5}", 1)
    (repo / "params.yaml").write_text(head + "\nrollout:" + rollout)
    assert sorted(ran_stages(run(dvc + ["repro"], repo, env))) == ["demos", "report", "rollout"]  # rollout params

    # every stage before the rollout is byte-identical when rebuilt from a cold cache
    before = out_hashes(repo / "dvc.lock", DETERMINISTIC_STAGES)
    shutil.rmtree(repo / ".cache", ignore_errors=True)
    run(dvc + ["repro", "--force", "annotate"], repo, env)
    assert out_hashes(repo / "dvc.lock", DETERMINISTIC_STAGES) == before
    check_failed_stage_outputs_come_back(repo, env)
    check_asset_physics_reruns_the_simulation(repo, env, episodes)


def check_failed_stage_outputs_come_back(repo: Path, env: dict) -> None:
    """A stage that fails has had its old outputs removed by DVC; `dvc checkout` brings them back."""
    dvc = [sys.executable, "-m", "dvc"]
    report = (repo / "results/report/index.html").read_bytes()
    text = (repo / "params.yaml").read_text()
    (repo / "params.yaml").write_text(text.replace("report:\n", "report:\n  bogus: 1\n"))
    failed = subprocess.run(dvc + ["repro", "report"], cwd=repo, env=env, capture_output=True, text=True)
    assert failed.returncode != 0 and "bogus" in failed.stdout + failed.stderr
    assert not (repo / "results/report").exists()  # DVC removed the old report before running the stage
    (repo / "params.yaml").write_text(text)
    run(dvc + ["checkout"], repo, env)
    assert (repo / "results/report/index.html").read_bytes() == report


def check_asset_physics_reruns_the_simulation(repo: Path, env: dict, episodes) -> None:
    """Friction added to one asset changes only its body, not a settled pose: the rollout and the report
    re-run all the same, and the episodes carry the new assets hash."""
    dvc = [sys.executable, "-m", "dvc"]
    specs = repo / "assets/specs.yaml"
    text = specs.read_text()
    specs.write_text(text.replace("  apple:\n", "  apple:\n    friction: 0.3\n", 1))
    ran = ran_stages(run(dvc + ["repro"], repo, env))
    assert {"physics", "settle", "rollout", "report"} <= set(ran), ran
    after = duckdb.sql(
        f"select distinct assets_hash from read_parquet('{repo}/results/episodes/**/*.parquet', hive_partitioning=true)"
    ).fetchall()
    assert [h for (h,) in after] != sorted(set(episodes["assets_hash"]))


def check_scene_annotations(repo: Path) -> None:
    """Every prop of every scene: its room, its world box around its rest pose, its support."""
    for path in sorted((repo / "annotations/scenes").glob("*.json")):
        scene = SceneAnnotations.model_validate_json(path.read_text())
        supports = {s.name: s for s in scene.house.supports}
        for name, obj in scene.objects.items():
            assert obj.room in {r.name for r in scene.house.rooms}, (path.name, name)
            x0, y0, z0, x1, y1, z1 = obj.box
            assert x0 <= obj.pos[0] <= x1 and y0 <= obj.pos[1] <= y1 and z1 - z0 >= obj.asset.size[2] * 0.99
            assert abs(z0 - supports[obj.support].height) <= 0.02, (path.name, name)  # resting on it


def check_goal_state_succeeds(repo: Path) -> None:
    """Physics + evaluator agree on success: drop the fruit into the container and let it rest."""
    task, variant = FAST_TASK, "v000"
    spec = TaskVariant.model_validate_json((repo / f"scenes/tasks/{task}/{variant}/task.json").read_text())
    scene = SceneAnnotations.model_validate_json((repo / f"annotations/scenes/{task}__{variant}.json").read_text())
    sim = make_backend("mujoco").load(repo / f"scenes/settled/{task}/{variant}/scene.usda")
    initial = sim.get_state()
    assert not evaluate(spec.goal, initial, scene).success
    role = {obj.role: name for name, obj in sorted(spec.objects.items())}
    fruit, container = role["fruit"], role["container"]
    above = initial.objects[container].pos
    objects = dict(initial.objects)
    objects[fruit] = objects[fruit].model_copy(update={"pos": (above[0], above[1], above[2] + 0.06)})
    sim.set_state(initial.model_copy(update={"objects": objects}))
    sim.step(round(1.5 / sim.timestep))
    verdict = evaluate(spec.goal, sim.get_state(), scene, initial=initial)
    assert verdict.success, verdict.model_dump_json(indent=1)


def check_nightly(repo: Path, env: dict) -> None:
    """The nightly flow, its episodes spread over a local Ray cluster (the scale-out executor)."""
    params = (repo / "params.yaml").read_text()
    (repo / "params.yaml").write_text(params.replace("executor: local", "executor: ray"))
    try:
        out = run(
            [sys.executable, "-m", "flows.nightly", "--night", NIGHT], repo, {**env, "RAY_DISABLE_USAGE_STATS": "1"}
        )
    finally:
        (repo / "params.yaml").write_text(params)
    run_name = f"nightly-{NIGHT}-a1"  # the night's first attempt
    for table in ("episodes", "conditions", "events", "choices"):
        assert (repo / f"results/{table}/run={run_name}/part-0.parquet").is_file(), out[-2000:]
    choices = f"select count(*) from read_parquet('{repo}/results/choices/run={run_name}/*.parquet')"
    assert duckdb.sql(choices).fetchall()[0][0] > 0  # the variants' sampled choices reach the table
    variant = json.loads(next((repo / f"runs/nightly/{NIGHT}-a1/tasks").glob("*/*/task.json")).read_text())
    assert variant["seed"] >= 20261130  # seeded by the date
    html = (repo / f"runs/nightly/{NIGHT}-a1/report/index.html").read_text()
    assert html.count("<img") >= 5 and f"{FAST_TASK}/v000: “" in html  # plots, plan, sheet, captioned previews
    assert "Data and pipelines are up to date" in run([sys.executable, "-m", "dvc", "status"], repo, env)
    status = ["git", "status", "--porcelain", "--untracked-files=all"]
    untracked = subprocess.run(status, cwd=repo, capture_output=True, text=True).stdout
    assert "nightly" not in untracked  # the night's outputs are where git ignores them
    # the DVC pipeline is untouched by the night
    assert "Data and pipelines are up to date" in run([sys.executable, "-m", "dvc", "status"], repo, env)

    query = (
        "import asyncio, json\n"
        "from prefect.client.orchestration import get_client\n"
        "async def main():\n"
        "    async with get_client() as client:\n"
        "        runs = await client.read_flow_runs()\n"
        "        arts = await client.read_artifacts()\n"
        "        print(json.dumps({'runs': [(r.name, r.state.type.value) for r in runs],\n"
        "                          'artifacts': [a.key for a in arts]}))\n"
        "asyncio.run(main())\n"
    )
    seen = json.loads(run([sys.executable, "-c", query], repo, env).strip().splitlines()[-1])
    assert "COMPLETED" in {state for _, state in seen["runs"]}
    assert "housebench-nightly" in seen["artifacts"]


def check_deployment(repo: Path, env: dict) -> None:
    """prefect.yaml deploys the nightly flow on its cron schedule."""
    prefect = [sys.executable, "-m", "prefect", "--no-prompt"]
    run(prefect + ["work-pool", "create", "housebench", "--type", "process"], repo, env)
    run(prefect + ["deploy", "--all"], repo, {**env, "HOUSEBENCH_ROOT": str(repo)})
    query = (
        "import asyncio, json\n"
        "from prefect.client.orchestration import get_client\n"
        "async def main():\n"
        "    async with get_client() as client:\n"
        "        d = await client.read_deployment_by_name('housebench-nightly/nightly')\n"
        "        print(json.dumps([s.schedule.cron for s in d.schedules]))\n"
        "asyncio.run(main())\n"
    )
    crons = json.loads(run([sys.executable, "-c", query], repo, env).strip().splitlines()[-1])
    assert crons == ["0 2 * * *"] == [nightly_cron()]  # --serve uses the same schedule


def check_notebook(repo: Path) -> None:
    notebook = nbformat.read(ROOT / "notebooks/analysis.ipynb", as_version=4)
    os.environ["HOUSEBENCH_RESULTS"] = str(repo / "results")
    try:
        NotebookClient(
            notebook, kernel_name="python3", timeout=180, resources={"metadata": {"path": str(ROOT / "notebooks")}}
        ).execute()
    finally:
        del os.environ["HOUSEBENCH_RESULTS"]
    outputs = [out for cell in notebook.cells for out in cell.get("outputs", [])]
    assert not [out for out in outputs if out.output_type == "error"]
    assert any("image/png" in out.get("data", {}) for out in outputs)


EXAMPLE = "examples/housebench_example_policy"
OUTSIDE = {"example": None, "example_path": "housebench_example_policy:ExamplePolicy"}  # entry point, import path


def with_outside_policies(repo: Path, env: dict) -> dict:
    """The example package pip-installed (into a folder of the copy, not the venv) and benchmarked beside the
    built-ins: ``example`` by its entry point, ``example_path`` by its import path in params.yaml."""
    site = repo / ".site"
    pip = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site)]
    run([*pip, str(repo / EXAMPLE)], repo, env)
    text = (repo / "params.yaml").read_text()
    text = re.sub(r"(?m)^(  policies: \[noop, scripted, planned)\]", r"\1, example, example_path]", text)
    entries = "".join(
        f"  {n}: {{class: '{c}', stop_s: 2.0}}\n" if c else f"  {n}: {{stop_s: 2.0}}\n" for n, c in OUTSIDE.items()
    )
    (repo / "params.yaml").write_text(
        re.sub(r"(?m)^policies:.*$", lambda m: m.group(0) + "\n" + entries.rstrip(), text)
    )
    return {**env, "PYTHONPATH": str(site)}


def check_outside_policies(repo: Path) -> None:
    """The outside package's rows carry its class path and version; its metrics and leaderboard line exist."""
    rows = duckdb.sql(
        "select policy, policy_class, policy_version, track, split, status from "
        f"read_parquet('{repo}/results/episodes/**/*.parquet', hive_partitioning=true) where policy like 'example%'"
    ).fetchall()
    assert {r[0] for r in rows} == set(OUTSIDE) and all(r[5] in ("success", "fail") for r in rows), rows
    assert {(r[1], r[2]) for r in rows} == {("housebench_example_policy:ExamplePolicy", "0.1.0")}
    assert {r[3] for r in rows} == {"state"} and {r[4] for r in rows} <= {"train", "val", "test"}
    for name in OUTSIDE:
        assert json.loads((repo / f"results/metrics/{name}.json").read_text())["episodes"] == len(rows) // 2
    assert "housebench_example_policy:ExamplePolicy" in (repo / "results/report/index.html").read_text()


@pytest.mark.server
def test_repro_nightly_and_notebook(tmp_path, prefect_server):
    repo = copy_project(tmp_path / "repo", everything=False)
    env = with_outside_policies(repo, pipeline_env(prefect_server))
    check_pipeline(repo, env)
    check_outside_policies(repo)
    check_scene_annotations(repo)
    check_goal_state_succeeds(repo)
    check_nightly(repo, env)
    check_deployment(repo, env)
    check_notebook(repo)


@pytest.mark.slow
def test_repro_whole_raw_set(tmp_path, prefect_server):
    repo = copy_project(tmp_path / "repo", everything=True)
    check_pipeline(repo, pipeline_env(prefect_server))
