"""Cross-engine flow (issue 14): the USD scenes in a second physics engine. Needs the newton extra
(``pip install -e '.[newton]'``) and the DVC pipeline's settled scenes (``dvc repro annotate``).

1. every settled scene (and the house alone) runs the 3 s stability check in Newton:
   ``runs/crosscheck/newton_check.json``;
2. the rollouts (``rollout:`` of params.yaml, policies included) run on both backends into
   ``results/<table>/run=crosscheck-mujoco`` and ``run=crosscheck-newton``;
3. a report of those two runs, the engines side by side: ``runs/crosscheck/report/index.html``.

    python -m flows.crosscheck [--root .] [--episodes 1]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from prefect import flow, task

from housebench.params import PARAMS, load_params, load_section
from housebench.paths import RESULTS_DIR, Layout
from housebench.pipeline.crosscheck import check_scenes
from housebench.pipeline.settle import SettleParams
from housebench.report.build import build_report
from housebench.rollout.plan import RolloutParams
from housebench.rollout.run import run_rollouts

BACKENDS = ("mujoco", "newton")
WORKSPACE = Path("runs/crosscheck")


@task
def stability_in_newton(layout: Layout) -> dict:
    params = load_section("settle", SettleParams, layout.at(PARAMS)).model_dump()
    return check_scenes(layout, params, layout.at(WORKSPACE / "newton_check.json"), "newton")


@task(retries=1, retry_delay_seconds=10)
def rollout(layout: Layout, backend: str, episodes: int | None) -> int:
    overrides = {"backend": backend, **({"episodes_per_variant": episodes} if episodes else {})}
    params = load_section("rollout", RolloutParams, layout.at(PARAMS), **overrides)
    policies = load_params("policies", layout.at(PARAMS))
    run = f"crosscheck-{backend}"
    return len(run_rollouts(run, params, layout, layout.at(RESULTS_DIR), policies, progress=False))


@flow(name="housebench-crosscheck", log_prints=True)
def crosscheck(root: str = ".", episodes: int | None = None) -> dict:
    """Stability in Newton, then the same rollouts in MuJoCo and Newton, reported side by side."""
    layout = Layout(Path(root))
    check = stability_in_newton(layout)
    print(f"newton stability: {len(check['scenes'])} scenes, failed: {check['failed'] or 'none'}")
    for backend in BACKENDS:
        print(f"{backend}: {rollout(layout, backend, episodes)} episodes")
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
    args = parser.parse_args(argv)
    crosscheck(root=args.root, episodes=args.episodes)


if __name__ == "__main__":
    main()
