"""Held-out test flow: fresh variants sampled from a seed that is not in the repository, every one of them in the
``test`` split, rolled out and reported apart from the repository's own splits.

A leaderboard scored on variants nobody trained on: the organiser keeps the seed to themselves, runs

    python -m flows.heldout --seed 123456 [--policies noop,mine] [--name spring]

and publishes the report. It is the nightly flow's machinery (:mod:`flows.nightly`) with another seed and
workspace: the variants go to ``runs/heldout/<name>-a<k>/`` (sampled, settled, annotated), the rows to
``results/<table>/run=heldout-<name>-a<k>/`` with split ``test`` (the ``heldout-`` run prefix is what the report
reads as held-out), the report to ``runs/heldout/<name>-a<k>/report/``. Running a name again is a new attempt
beside the first. A seed whose variants overlap the repository's own (``tasks.seed`` to ``tasks.seed +
tasks.variants_per_task - 1``) is refused: those scenes are public.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from prefect import flow, task

from housebench.names import printable
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
from housebench.report.summary import HELDOUT_PREFIX
from housebench.results.schema import PARTITION
from housebench.rollout.plan import RolloutParams, check_policies
from housebench.skills.tuning import load_tuning
from housebench.tasks.sampler import SamplerParams
from housebench.tasks.splits import SplitParams

SPLIT = "test"  # every variant of a held-out run
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")  # a run name's part: a folder and a partition value


def heldout_run(root: Path, name: str) -> str:
    """The run id of the next attempt at ``name``: ``heldout-<name>-a<k>``, ``k`` one more than any attempt
    already in the results or the workspace."""
    prefix = f"{HELDOUT_PREFIX}{name}-a"
    found = [p.name.removeprefix(f"{PARTITION}=") for p in (root / RESULTS_DIR).glob(f"*/{PARTITION}={prefix}*")]
    found += [f"{HELDOUT_PREFIX}{p.name}" for p in (root / "runs" / "heldout").glob(f"{name}-a*")]
    attempts = [int(r.removeprefix(prefix)) for r in found if r.removeprefix(prefix).isdigit()]
    return f"{prefix}{max(attempts, default=0) + 1}"


def heldout_layout(root: Path, run: str) -> Layout:
    """The workspace of held-out run ``run``: ``runs/heldout/<name>-a<k>/``."""
    workspace = Path("runs") / "heldout" / run.removeprefix(HELDOUT_PREFIX)
    return Layout(root, workspace / "tasks", workspace / "settled", workspace / "annotations", workspace / "report")


def check_seed(seed: int, params: Path) -> None:
    """Refuse a seed whose variants are the repository's own (variant i of a task is sampled with seed + i)."""
    public = load_section("tasks", SamplerParams, params)
    if abs(seed - public.seed) < public.variants_per_task:
        raise ValueError(
            f"--seed {seed}: its variants overlap the repository's (tasks.seed {public.seed}, "
            f"{public.variants_per_task} variants per task in {params}); a held-out seed must be one nobody trained on"
        )


def _rollout_params(layout: Layout, seed: int, policies: list[str] | None) -> RolloutParams:
    overrides: dict[str, Any] = {"seed": seed} | ({"policies": policies} if policies else {})
    return load_section("rollout", RolloutParams, layout.at(PARAMS), **overrides)


def check(root: Path, seed: int, name: str, policies: list[str] | None) -> None:
    """Everything that can be wrong with the request, before a variant is sampled: the seed, the name, the
    policies (each resolved, its params and track checked)."""
    check_seed(seed, root / PARAMS)
    if not NAME.fullmatch(name):
        raise ValueError(f"--name {printable(name)!r}: letters, digits, '-' and '_', at most 64, not starting with '-'")
    check_policies(_rollout_params(Layout(root), seed, policies), policy_entries(root / PARAMS))


def sample(layout: Layout, seed: int) -> int:
    return len(write_variants(layout, load_section("tasks", SamplerParams, layout.at(PARAMS), seed=seed)))


def settle(layout: Layout) -> None:
    settle_all(layout, load_section("settle", SettleParams, layout.at(PARAMS)))


def annotate(layout: Layout) -> None:
    annotate_all(layout)


def rollout(layout: Layout, run: str, seed: int, policies: list[str] | None) -> int:
    """Every held-out variant rolled out by ``policies`` (default: ``rollout.policies``), each row split ``test``."""
    params = _rollout_params(layout, seed, policies)
    entries = policy_entries(layout.at(PARAMS))
    splits = load_section("splits", SplitParams, layout.at(PARAMS))
    skills = load_tuning(layout.at(PARAMS))
    outcomes = run_rollouts(run, params, layout, layout.at(RESULTS_DIR), entries, False, splits, SPLIT, skills)
    return len(outcomes)


def report(layout: Layout, run: str) -> dict:
    """The run's report: the house plan, the asset sheet and the held-out scenes' previews."""
    inputs = report_inputs(layout.at(PARAMS), layout.root)
    control = inputs["control"]
    patterns = ["scenes/house/topdown.png", "assets_built/assets.png", f"{layout.settled_dir}/*/*/preview.png"]
    return build_report(
        layout.at(RESULTS_DIR),
        layout.at(layout.report_dir),
        report_pictures(patterns, layout.at(TASK_SPECS_DIR), layout.root),
        title=f"housebench held-out test {run}",
        runs=[run],
        control=control,
        assets=asset_health(layout.root),
        houses=inputs["houses"],
    )


Step = Callable[[Callable[..., Any]], Callable[..., Any]]


def run_heldout(
    root: Path, seed: int, name: str | None = None, policies: list[str] | None = None, step: Step = lambda fn: fn
) -> dict:
    """Sample, settle, annotate, roll out and report a held-out test run over the house and assets built under
    ``root``; ``step`` wraps each stage function (the flow makes them Prefect tasks). Returns the metrics."""
    root = Path(root)
    name = name or datetime.now(UTC).date().isoformat()
    check(root, seed, name, policies)
    run = heldout_run(root, name)
    layout = heldout_layout(root, run)
    print(f"held-out {run}: {step(sample)(layout, seed)} variants (seed given, not recorded in the repository)")
    step(settle)(layout)
    step(annotate)(layout)
    print(f"{step(rollout)(layout, run, seed, policies)} episodes -> {layout.at(RESULTS_DIR)}/*/run={run}")
    return step(report)(layout, run)


TASKS = {
    sample: task(sample, retries=1, retry_delay_seconds=10),
    settle: task(settle, retries=1, retry_delay_seconds=10),
    annotate: task(annotate),
    rollout: task(rollout, retries=2, retry_delay_seconds=10),
    report: task(report),
}


@flow(name="housebench-heldout", log_prints=True)
def heldout(seed: int, name: str | None = None, policies: list[str] | None = None, root: str = ".") -> dict:
    """A held-out test run (see the module): each stage a Prefect task with the nightly flow's retries."""
    return run_heldout(Path(root), seed, name, policies, step=TASKS.__getitem__)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="housebench held-out test split from a seed outside the repository")
    parser.add_argument("--seed", type=int, required=True, help="the held-out seed (keep it out of the repository)")
    parser.add_argument("--name", help="the run's name, heldout-<name>-a<k> (default: today, UTC)")
    parser.add_argument("--policies", help="comma-separated policy names (default: rollout.policies)")
    parser.add_argument("--root", default=".", help="the housebench project (default: .)")
    args = parser.parse_args(argv)
    policies = [p.strip() for p in args.policies.split(",")] if args.policies else None
    try:  # a bad request is one line and exit 2 before the flow starts
        check(Path(args.root), args.seed, args.name or "today", policies)
    except ValueError as err:
        parser.exit(2, f"heldout: {str(err).splitlines()[0]}\n")
    heldout(seed=args.seed, name=args.name, policies=policies, root=args.root)


if __name__ == "__main__":
    main()
