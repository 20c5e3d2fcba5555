"""Nightly benchmark flow: fresh variants seeded by the date, batched rollouts, that night's Parquet
partition, a report and a Prefect artifact.

The house and the built assets come from the DVC pipeline (``dvc repro``); the night samples its own
variants into ``runs/nightly/<date>/`` and writes ``results/<table>/run=nightly-<date>/``.

    python -m flows.nightly [--night 2026-11-30]        # run once
    python -m flows.nightly --serve                     # serve the cron schedule of prefect.yaml
"""

from __future__ import annotations

import argparse
from datetime import UTC, date, datetime
from pathlib import Path

import yaml
from prefect import flow, task
from prefect.artifacts import create_markdown_artifact

from housebench.params import PARAMS, load_keys, load_params, load_section
from housebench.paths import RESULTS_DIR, Layout
from housebench.pipeline.annotate import annotate_all
from housebench.pipeline.settle import SETTLE_KEYS, settle_all
from housebench.pipeline.tasks import write_variants
from housebench.report.build import build_report
from housebench.rollout.plan import RolloutParams
from housebench.rollout.run import run_rollouts
from housebench.tasks.sampler import SamplerParams

PREFECT_YAML = Path(__file__).resolve().parents[1] / "prefect.yaml"


def nightly_cron() -> str:
    """The nightly deployment's cron, from ``prefect.yaml`` (the one place it is written)."""
    deployments = yaml.safe_load(PREFECT_YAML.read_text())["deployments"]
    return next(d for d in deployments if d["name"] == "nightly")["schedules"][0]["cron"]


def night_seed(night: str) -> int:
    """The night's seed: its date as a number (2026-11-30 -> 20261130)."""
    return int(date.fromisoformat(night).strftime("%Y%m%d"))


@task(retries=1, retry_delay_seconds=10)
def sample(layout: Layout, seed: int) -> int:
    params = load_section("tasks", SamplerParams, layout.at(PARAMS), seed=seed)
    return len(write_variants(layout, params))


@task(retries=1, retry_delay_seconds=10)
def settle(layout: Layout) -> None:
    settle_all(layout, load_keys("settle", SETTLE_KEYS, layout.at(PARAMS)))


@task
def annotate(layout: Layout) -> None:
    annotate_all(layout)


@task(retries=2, retry_delay_seconds=10)
def rollout(layout: Layout, run: str, seed: int) -> int:
    params = load_section("rollout", RolloutParams, layout.at(PARAMS), seed=seed)
    policies = load_params("policies", layout.at(PARAMS))
    return len(run_rollouts(run, params, layout, layout.at(RESULTS_DIR), policies, progress=False))


@task
def report(layout: Layout, run: str) -> dict:
    metrics = build_report(
        layout.at(RESULTS_DIR), layout.at(layout.report_dir), title=f"housebench nightly {run}", runs=[run]
    )
    rows = "\n".join(
        f"| {task_name} | {policy} | {m['episodes']} | {m['success_rate']:.2f} | {m['mean_progress']:.2f} |"
        for task_name, policies in sorted(metrics["per_task"].items())
        for policy, m in sorted(policies.items())
    )
    create_markdown_artifact(
        key="housebench-nightly",
        description=f"housebench nightly benchmark, run {run}",
        markdown=(
            f"# housebench {run}\n\n{metrics['episodes']} episodes, success rate "
            f"{metrics['success_rate']:.3f}, crash rate {metrics['crash_rate']:.3f}\n\n"
            f"| task | policy | episodes | success | progress |\n|---|---|---|---|---|\n{rows}\n\n"
            f"Report: `{layout.at(layout.report_dir) / 'index.html'}`\n"
        ),
    )
    return metrics


@flow(name="housebench-nightly", log_prints=True)
def nightly(night: str | None = None, root: str = ".") -> dict:
    """Benchmark one night (default: today, UTC) over the house and assets built under ``root``."""
    night = night or datetime.now(UTC).date().isoformat()
    layout, run, seed = Layout.nightly(Path(root), night), f"nightly-{night}", night_seed(night)
    print(f"night {night}: seed {seed}, {sample(layout, seed)} variants")
    settle(layout)
    annotate(layout)
    print(f"{rollout(layout, run, seed)} episodes -> {layout.at(RESULTS_DIR)}/*/run={run}")
    return report(layout, run)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="housebench nightly benchmark flow")
    parser.add_argument("--night", help="date to benchmark, YYYY-MM-DD (default: today, UTC)")
    parser.add_argument("--root", default=".", help="the housebench project (default: .)")
    parser.add_argument("--serve", action="store_true", help="serve the flow on its cron schedule (prefect.yaml)")
    args = parser.parse_args(argv)
    if args.serve:
        nightly.serve(name="nightly", cron=nightly_cron(), parameters={"root": str(Path(args.root).resolve())})
    else:
        nightly(night=args.night, root=args.root)


if __name__ == "__main__":
    main()
