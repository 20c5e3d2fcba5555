"""Cross-engine flow (issue 14): the USD scenes in a second physics engine. Needs the newton extra
(``pip install -e '.[newton]'``) and the DVC pipeline's settled scenes (``dvc repro annotate``).

1. every settled scene (and the house alone) runs the 3 s stability check in Newton:
   ``runs/crosscheck/newton_check.json``;
2. the rollouts (``rollout:`` of params.yaml, or ``--policies``) run on both backends into
   ``results/<table>/run=crosscheck-mujoco`` and ``run=crosscheck-newton``, each episode's horizon capped at
   ``--max-horizon`` seconds when given (Newton's MuJoCo solver runs at about real time on a CPU);
3. a report of those two runs, the engines side by side: ``runs/crosscheck/report/index.html``.

    python -m flows.crosscheck [--root .] [--episodes 1] [--policies noop] [--max-horizon 10] [--workers 1]
        [--variants v000] [--skip-check]
"""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

from prefect import flow, task

from housebench.params import PARAMS, load_section
from housebench.paths import RESULTS_DIR, Layout
from housebench.pipeline.crosscheck import check_scenes
from housebench.pipeline.settle import SettleParams
from housebench.policy.registry import policy_entries
from housebench.report.build import build_report
from housebench.results.writer import write_run
from housebench.rollout.batch import run_batch
from housebench.rollout.plan import RolloutParams, plan_jobs
from housebench.rollout.records import records

BACKENDS = ("mujoco", "newton")
WORKSPACE = Path("runs/crosscheck")


@task
def stability_in_newton(layout: Layout) -> dict:
    params = load_section("settle", SettleParams, layout.at(PARAMS)).model_dump()
    return check_scenes(layout, params, layout.at(WORKSPACE / "newton_check.json"), "newton")


@task(retries=1, retry_delay_seconds=10)
def rollout(
    layout: Layout, backend: str, overrides: dict, max_horizon_s: float | None, variants: list[str] | None
) -> int:
    """The rollout stage's episodes on ``backend`` into ``run=crosscheck-<backend>``; the episode count."""
    params = load_section("rollout", RolloutParams, layout.at(PARAMS), backend=backend, **overrides)
    run = f"crosscheck-{backend}"
    jobs = plan_jobs(run, params, layout, policy_entries(layout.at(PARAMS)))
    if variants:
        jobs = [job for job in jobs if job.variant in variants]
    if max_horizon_s:
        jobs = [dataclasses.replace(job, horizon_s=min(job.horizon_s, max_horizon_s)) for job in jobs]
    outcomes = run_batch(jobs, params.executor, params.workers or None, progress=False, ray=params.ray)
    write_run(layout.at(RESULTS_DIR), run, records(outcomes))
    return len(outcomes)


@flow(name="housebench-crosscheck", log_prints=True)
def crosscheck(
    root: str = ".",
    episodes: int | None = None,
    policies: list[str] | None = None,
    max_horizon_s: float | None = None,
    workers: int | None = None,
    variants: list[str] | None = None,
    skip_check: bool = False,
) -> dict:
    """Stability in Newton (unless ``skip_check``), then the same rollouts in MuJoCo and Newton (of ``variants``
    only, when given), reported side by side."""
    layout = Layout(Path(root))
    if not skip_check:
        check = stability_in_newton(layout)
        print(f"newton stability: {len(check['scenes'])} scenes, failed: {check['failed'] or 'none'}")
    given = {"episodes_per_variant": episodes, "policies": policies, "workers": workers}
    overrides = {key: value for key, value in given.items() if value is not None}
    for backend in BACKENDS:
        print(f"{backend}: {rollout(layout, backend, overrides, max_horizon_s, variants)} episodes")
    return build_report(
        layout.at(RESULTS_DIR),
        layout.at(WORKSPACE / "report"),
        title="housebench: MuJoCo and Newton",
        runs=[f"crosscheck-{b}" for b in BACKENDS],
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="housebench cross-engine check (MuJoCo and Newton)")
    parser.add_argument("--root", default=".", help="the housebench project (default: .)")
    parser.add_argument("--episodes", type=int, help="episodes per variant (default: rollout.episodes_per_variant)")
    parser.add_argument("--policies", nargs="+", help="policies to roll out (default: rollout.policies)")
    parser.add_argument("--max-horizon", type=float, help="cap every episode's horizon at this many seconds")
    parser.add_argument("--workers", type=int, help="worker processes (default: rollout.workers)")
    parser.add_argument("--variants", nargs="+", help="roll out only these variants of every task (e.g. v000)")
    parser.add_argument("--skip-check", action="store_true", help="no stability check, rollouts only")
    args = parser.parse_args(argv)
    crosscheck(args.root, args.episodes, args.policies, args.max_horizon, args.workers, args.variants, args.skip_check)


if __name__ == "__main__":
    main()
