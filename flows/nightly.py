"""Nightly benchmark flow: fresh variants seeded by the date, batched rollouts, that night's Parquet
partition, its trends against the last nights, a report and Prefect artifacts.

The house and the built assets come from the DVC pipeline (``dvc repro``); the night samples its own
variants into ``runs/nightly/<date>-a<attempt>/`` and writes ``results/<table>/run=nightly-<date>-a<attempt>/``:
running the same night again is a new attempt beside the first, never a silent replacement (both are
git-ignored).

Each task's success is then compared with the last nights (:mod:`housebench.report.trends`, params
``nightly``) into ``results/trends/run=nightly-<date>-a<attempt>/`` and the report's ``#trends`` section. A
regression fails the flow run once everything is written (state Failed, its message naming the regressed
tasks; the ``housebench-nightly-trends`` artifact lists them) and ``python -m flows.nightly`` exits 1.

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
from prefect.states import Failed, State

from housebench.params import PARAMS, load_section
from housebench.paths import RESULTS_DIR, TASK_SPECS_DIR, Layout
from housebench.pipeline.annotate import annotate_all
from housebench.pipeline.rollout import run_rollouts
from housebench.pipeline.settle import SettleParams, settle_all
from housebench.pipeline.tasks import write_variants
from housebench.policy.registry import policy_entries
from housebench.report.build import build_report
from housebench.report.inputs import asset_health, report_inputs
from housebench.report.pictures import report_pictures
from housebench.report.trends import NIGHTLY_PREFIX, TrendParams, Trends, night_trends
from housebench.results.schema import PARTITION
from housebench.results.writer import write_derived
from housebench.rollout.plan import RolloutParams
from housebench.skills.tuning import load_tuning
from housebench.tasks.sampler import SamplerParams
from housebench.tasks.splits import SplitParams

PREFECT_YAML = Path(__file__).resolve().parents[1] / "prefect.yaml"


class Regression(RuntimeError):
    """A task's success dropped against the last nights: the failed flow run's error (its message names them)."""


def nightly_cron() -> str:
    """The nightly deployment's cron, from ``prefect.yaml`` (the one place it is written)."""
    deployments = yaml.safe_load(PREFECT_YAML.read_text())["deployments"]
    return next(d for d in deployments if d["name"] == "nightly")["schedules"][0]["cron"]


def night_run(root: Path, night: str) -> str:
    """The run id of the next attempt at ``night``: ``nightly-<night>-a<k>``, ``k`` one more than any
    attempt already in the results or the workspace."""
    prefix = f"{NIGHTLY_PREFIX}{night}-a"
    found = [p.name.removeprefix(f"{PARTITION}=") for p in (root / RESULTS_DIR).glob(f"*/{PARTITION}={prefix}*")]
    found += [f"{NIGHTLY_PREFIX}{p.name}" for p in (root / "runs" / "nightly").glob(f"{night}-a*")]
    attempts = [int(r.removeprefix(prefix)) for r in found if r.removeprefix(prefix).isdigit()]
    return f"{prefix}{max(attempts, default=0) + 1}"


def night_seed(night: str) -> int:
    """The night's seed: its date as a number (2026-11-30 -> 20261130)."""
    return int(date.fromisoformat(night).strftime("%Y%m%d"))


@task(retries=1, retry_delay_seconds=10)
def sample(layout: Layout, seed: int) -> int:
    params = load_section("tasks", SamplerParams, layout.at(PARAMS), seed=seed)
    return len(write_variants(layout, params))


@task(retries=1, retry_delay_seconds=10)
def settle(layout: Layout) -> None:
    settle_all(layout, load_section("settle", SettleParams, layout.at(PARAMS)))


@task
def annotate(layout: Layout) -> None:
    annotate_all(layout)


@task(retries=2, retry_delay_seconds=10)
def rollout(layout: Layout, run: str, seed: int) -> int:
    params = load_section("rollout", RolloutParams, layout.at(PARAMS), seed=seed)
    entries, splits = policy_entries(layout.at(PARAMS)), load_section("splits", SplitParams, layout.at(PARAMS))
    skills = load_tuning(layout.at(PARAMS))
    return len(
        run_rollouts(run, params, layout, layout.at(RESULTS_DIR), entries, progress=False, splits=splits, skills=skills)
    )


@task
def trends(layout: Layout, run: str) -> Trends:
    """Tonight against the last nights in the results (params ``nightly``), written to the ``trends`` table."""
    found = night_trends(layout.at(RESULTS_DIR), run, load_section("nightly", TrendParams, layout.at(PARAMS)))
    write_derived(layout.at(RESULTS_DIR), "trends", run, found.rows)
    return found


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def trends_markdown(found: Trends) -> str:
    """The trends artifact: what regressed (or that nothing did), then every tested row."""
    flagged = found.flagged
    head = (
        f"# housebench {found.run}: {len(flagged)} regressed\n\n"
        + "".join(f"- **{r['task']}** ({r['policy']}, {r['track']}, {r['split']})\n" for r in flagged)
        if flagged
        else f"# housebench {found.run}: no regression\n"
    )
    rows = "".join(
        f"| {'REGRESSED' if r['flag'] else ''} | {r['task']} | {r['policy']} | {r['track']}, {r['split']} | "
        f"{_pct(r['rate'])} ({r['successes']}/{r['n']}) | {_pct(r['baseline_rate'])} "
        f"({r['baseline_successes']}/{r['baseline_n']}) | {r['test']} | "
        f"{'-' if r['p_adjusted'] is None else format(r['p_adjusted'], '.2g')} |\n"
        for r in sorted(found.rows, key=lambda r: not r["flag"])
    )
    return (
        f"{head}\nBaseline: {', '.join(found.baseline) or 'none'}; flagged when the adjusted one-sided p-value is "
        f"below {found.params.alpha:g}.\n\n| | task | policy | track, split | tonight | baseline | test | p adjusted |"
        f"\n|---|---|---|---|---|---|---|---|\n{rows}"
    )


def regression_message(found: Trends) -> str:
    """The failed state's message: the regressed tasks with tonight's and the baseline's rates."""
    return f"{found.run}: regressed " + "; ".join(
        f"{r['task']} ({r['policy']}, {r['track']}, {r['split']}) {_pct(r['baseline_rate'])} -> {_pct(r['rate'])}"
        f" (p adjusted {r['p_adjusted']:.2g})"
        for r in found.flagged
    )


@task
def report(layout: Layout, run: str, found: Trends | None = None) -> dict:
    """The night's report with the same pictures as the DVC report (the house plan, the asset sheet)
    but the night's own scene previews, captioned, and the trends section; a markdown artifact, one row per
    policy, and one of the trends."""
    inputs = report_inputs(layout.at(PARAMS), layout.root)
    control = inputs["control"]
    settled = layout.settled_dir
    patterns = [
        "scenes/house/topdown.png",
        "assets_built/assets.png",
        f"{settled}/*/*/preview.png",
        f"{settled}/*/v000/plan.png",
    ]
    metrics = build_report(
        layout.at(RESULTS_DIR),
        layout.at(layout.report_dir),
        report_pictures(patterns, layout.at(TASK_SPECS_DIR), layout.root),
        title=f"housebench nightly {run}",
        runs=[run],
        control=control,
        assets=asset_health(layout.root),
        trends=found,
        houses=inputs["houses"],
    )
    rows = "\n".join(
        f"| {policy}{' (control)' if policy == control else ''} | {m['episodes']} | {m['success_rate']:.3f} "
        f"({m['success_ci_low']:.3f}-{m['success_ci_high']:.3f}) | {m['mean_progress']:.3f} | {m['crash_rate']:.3f} |"
        for policy, m in sorted(metrics.items())
    )
    create_markdown_artifact(
        key="housebench-nightly",
        description=f"housebench nightly benchmark, run {run}",
        markdown=(
            f"# housebench {run}\n\n| policy | episodes | success (95% CI) | progress (partial credit) | crash rate |"
            f"\n|---|---|---|---|---|\n{rows}\n\nReport: `{layout.at(layout.report_dir) / 'index.html'}`\n"
        ),
    )
    if found is not None:
        create_markdown_artifact(
            key="housebench-nightly-trends",
            description=f"housebench nightly {run}: each task against the last nights",
            markdown=trends_markdown(found),
        )
    return metrics


@flow(name="housebench-nightly", log_prints=True)
def nightly(night: str | None = None, root: str = ".") -> dict | State:
    """Benchmark one night (default: today, UTC) over the house and assets built under ``root``. Returns the
    metrics; a Failed state naming the regressed tasks (its result raises :class:`Regression`) when a task
    dropped against the last nights, once the trends, the report and the artifacts are written."""
    night = night or datetime.now(UTC).date().isoformat()
    run, seed = night_run(Path(root), night), night_seed(night)
    layout = Layout.nightly(Path(root), run)
    print(f"night {night} ({run}): seed {seed}, {sample(layout, seed)} variants")
    settle(layout)
    annotate(layout)
    print(f"{rollout(layout, run, seed)} episodes -> {layout.at(RESULTS_DIR)}/*/run={run}")
    found = trends(layout, run)
    print(f"trends: {len(found.rows)} rows against {', '.join(found.baseline) or 'no earlier night'}")
    metrics = report(layout, run, found)
    if found.flagged:  # a red run: what Prefect's notifications and automations watch for
        message = regression_message(found)
        return Failed(message=message, data=Regression(message))
    return metrics


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="housebench nightly benchmark flow")
    parser.add_argument("--night", help="date to benchmark, YYYY-MM-DD (default: today, UTC)")
    parser.add_argument("--root", default=".", help="the housebench project (default: .)")
    parser.add_argument("--serve", action="store_true", help="serve the flow on its cron schedule (prefect.yaml)")
    args = parser.parse_args(argv)
    if args.serve:
        nightly.serve(name="nightly", cron=nightly_cron(), parameters={"root": str(Path(args.root).resolve())})
        return
    state = nightly(night=args.night, root=args.root, return_state=True)
    if not state.is_completed():  # a regression (the message names it) or a failed step
        parser.exit(1, f"nightly: {state.message}\n")


if __name__ == "__main__":
    main()
