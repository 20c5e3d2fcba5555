"""DVC stage ``verify``: a scenario per verb (and per policy path) run in physics by the skill runtime.

Reads ``params.yaml:verify`` and ``skills`` (the skills' tuning the scenarios run under), the settled scenes,
their ``task.json`` and annotations; writes ``results/verification/{status.json, status.md}``: per scenario the
verb, the path chosen, passed or failed with the measured reason; the shares of verbs and paths that passed.
"""

from __future__ import annotations

from housebench.params import load_section
from housebench.paths import Layout
from housebench.pipeline.verify import VerifyParams, verify_all
from housebench.skills.tuning import from_overrides, load_tuning, using


def main() -> None:
    params = load_section("verify", VerifyParams)
    with using(from_overrides(load_tuning())):
        totals = verify_all(Layout(), params)
    print(
        f"verbs passed {totals['verbs_passed']}/{totals['verbs']} ({totals['verb_rate']:.0%}), "
        f"paths passed {totals['paths_passed']}/{totals['paths']} ({totals['path_rate']:.0%})"
    )


if __name__ == "__main__":
    main()
