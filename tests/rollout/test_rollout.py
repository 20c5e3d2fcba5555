"""Episodes and batches: seeded perturbation, crashes as results, job order across worker processes."""

from __future__ import annotations

from pathlib import Path

import pytest

from housebench.policy.base import NoopPolicy
from housebench.policy.registry import make_policy
from housebench.results.writer import read_table, write_run
from housebench.rollout.batch import run_batch
from housebench.rollout.env import perturb
from housebench.rollout.episode import EpisodeJob, run_episode
from housebench.rollout.records import records
from housebench.state import ObjectState, SimState


def job(tmp_path: Path, seed: int, **changes) -> EpisodeJob:
    base = dict(
        run="test",
        task="t",
        variant="v000",
        seed=seed,
        policy="noop",
        backend="mujoco",
        scene=tmp_path / "missing.usda",
        task_file=tmp_path / "missing.json",
        annotations=tmp_path / "missing-annotations.json",
        horizon_s=0.5,
        control_dt=0.1,
        pose_noise_m=0.0,
        provenance={"code_commit": "c", "scene_hash": "s", "assets_hash": "a"},
    )
    return EpisodeJob(**{**base, **changes})


def test_perturb_is_seeded_and_bounded():
    state = SimState(objects={n: ObjectState(pos=(1.0, 2.0, 0.5), quat=(1, 0, 0, 0)) for n in ("a", "b")})
    one, again = perturb(state, 7, "t/v000", 0.01), perturb(state, 7, "t/v000", 0.01)
    other_seed, other_scene = perturb(state, 8, "t/v000", 0.01), perturb(state, 7, "t/v001", 0.01)
    assert one == again and one != other_seed and one != other_scene
    for obj in one.objects.values():
        assert abs(obj.pos[0] - 1.0) <= 0.01 and abs(obj.pos[1] - 2.0) <= 0.01 and obj.pos[2] == 0.5


def test_a_broken_episode_is_a_crash_row_not_an_abort(tmp_path):
    outcome = run_episode(job(tmp_path, 0))
    assert outcome.verdict is None and outcome.crash.startswith("SpecError")
    assert [kind for _, kind, _ in outcome.events] == ["episode_start", "crash", "episode_end"]
    tables = records([outcome])
    write_run(tmp_path / "results", "test", tables)
    episodes = read_table(tmp_path / "results", "episodes").to_pylist()
    assert [(e["status"], e["success"]) for e in episodes] == [("crash", False)]
    assert "missing.json" in episodes[0]["failure_reason"]


def test_records_one_choice_row_per_variant_choice(tmp_path):
    picked = {"container.asset": "bowl", "fruit.support": "table"}
    outcomes = [run_episode(job(tmp_path, s, variant=v, choices=picked)) for v in ("v000", "v001") for s in (0, 1)]
    rows = records(outcomes)["choices"]
    assert rows == [
        {"run": "test", "task": "t", "variant": v, "choice": k, "value": picked[k]}
        for v in ("v000", "v001")
        for k in sorted(picked)
    ]
    write_run(tmp_path / "results", "test", records(outcomes))
    assert read_table(tmp_path / "results", "choices").num_rows == 4


def test_batch_keeps_job_order_across_processes(tmp_path):
    jobs = [job(tmp_path, seed) for seed in range(4)]
    outcomes = run_batch(jobs, "local", workers=2, progress=False)
    assert [o.job.seed for o in outcomes] == [0, 1, 2, 3]
    assert all(o.crash for o in outcomes)


def test_unknown_executor_and_policy_are_one_line_errors(tmp_path):
    with pytest.raises(ValueError, match="rollout.executor: unknown 'dask'"):
        run_batch([job(tmp_path, 0), job(tmp_path, 1)], "dask", workers=2, progress=False)
    with pytest.raises(ValueError, match="policies.magic: unknown policy"):
        make_policy("magic")
    assert isinstance(make_policy("noop"), NoopPolicy)


@pytest.mark.parametrize("ship", [True, False])  # code and files through Ray, or read where the jobs say
def test_ray_executor_runs_the_same_jobs_in_order(tmp_path, monkeypatch, ship):
    ray = pytest.importorskip("ray")
    from housebench.rollout.cluster import RayParams

    monkeypatch.setenv("RAY_DISABLE_USAGE_STATS", "1")
    jobs = [job(tmp_path, seed) for seed in range(3)]
    try:
        outcomes = run_batch(jobs, "ray", workers=2, progress=False, ray=RayParams(address="local", ship=ship))
    finally:
        ray.shutdown()
    assert [o.job for o in outcomes] == jobs
    assert all(o.crash and "missing.json" in o.crash and o.node for o in outcomes)
