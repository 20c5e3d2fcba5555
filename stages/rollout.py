"""DVC stage `rollout`: batched episodes of every settled task scene -> ``results/*/run=repro/``.

Reads ``scenes/settled/``, ``scenes/tasks/``, ``annotations/scenes/``; params ``rollout``, ``splits``, ``policies``
and ``skills``.
"""

from __future__ import annotations

import sys

from housebench.params import load_section
from housebench.paths import RESULTS_DIR, Layout
from housebench.pipeline.rollout import run_rollouts
from housebench.policy.registry import policy_entries
from housebench.procs import die_with_parent
from housebench.rollout.plan import RolloutParams
from housebench.skills.tuning import load_tuning
from housebench.tasks.splits import SplitParams

RUN = "repro"


def main() -> None:
    die_with_parent()  # killing dvc repro takes this stage and its workers with it
    params = load_section("rollout", RolloutParams)
    splits = load_section("splits", SplitParams)
    skills = load_tuning()
    try:
        outcomes = run_rollouts(RUN, params, Layout(), RESULTS_DIR, policy_entries(), splits=splits, skills=skills)
    except ValueError as err:  # a configuration that cannot run: one line, exit 2
        print(f"params.yaml: {err}", file=sys.stderr)
        raise SystemExit(2) from None
    except KeyboardInterrupt:  # Ctrl-C: the workers are stopped, the finished episodes are in the cache
        print(f"rollout: interrupted; finished episodes are kept in {params.cache.dir}", file=sys.stderr)
        raise SystemExit(130) from None
    crashed = sum(o.crash is not None for o in outcomes)
    succeeded = sum(bool(o.verdict and o.verdict.success) for o in outcomes)
    cached = sum(o.cached for o in outcomes)
    print(
        f"rollout: {len(outcomes)} episodes ({len(outcomes) - cached} run, {cached} from the episode cache), "
        f"{succeeded} succeeded, {crashed} crashed -> {RESULTS_DIR}/*/run={RUN}"
    )


if __name__ == "__main__":
    main()
