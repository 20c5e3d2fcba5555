"""DVC stage `rollout`: batched episodes of every settled task scene -> ``results/*/run=repro/``.

Reads ``scenes/settled/``, ``scenes/tasks/``, ``annotations/scenes/``; params ``rollout`` and ``policies``.
"""

from __future__ import annotations

from housebench.params import load_params, load_section
from housebench.paths import RESULTS_DIR, Layout
from housebench.procs import die_with_parent
from housebench.rollout.plan import RolloutParams
from housebench.rollout.run import run_rollouts

RUN = "repro"


def main() -> None:
    die_with_parent()  # killing dvc repro takes this stage and its workers with it
    params = load_section("rollout", RolloutParams)
    outcomes = run_rollouts(RUN, params, Layout(), RESULTS_DIR, load_params("policies"))
    crashed = sum(o.crash is not None for o in outcomes)
    succeeded = sum(bool(o.verdict and o.verdict.success) for o in outcomes)
    print(f"rollout: {len(outcomes)} episodes, {succeeded} succeeded, {crashed} crashed -> {RESULTS_DIR}/*/run={RUN}")


if __name__ == "__main__":
    main()
