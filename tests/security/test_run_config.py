"""A configuration that cannot run is refused before any output is touched; params are bounded; report
figures draw names as written (issue 33)."""

from __future__ import annotations

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from housebench.params import load_section
from housebench.paths import Layout
from housebench.policy.registry import make_policy
from housebench.rollout.plan import RolloutParams, plan_jobs
from housebench.rollout.run import run_rollouts


def _newton_missing() -> bool:
    try:
        import newton  # noqa: F401
    except ImportError:
        return True
    return False


@pytest.mark.skipif(not _newton_missing(), reason="newton is installed here")
def test_a_backend_that_is_not_installed_fails_before_any_output(tmp_path):
    params = load_section("rollout", RolloutParams).model_copy(update={"backend": "newton", "policies": ["noop"]})
    (tmp_path / "results" / "episodes" / "run=repro").mkdir(parents=True)
    (tmp_path / "results" / "episodes" / "run=repro" / "part-0.parquet").write_text("the last good run")
    with pytest.raises(ValueError, match=r"^rollout\.backend: newton is not installed"):
        plan_jobs("repro", params, Layout())
    with pytest.raises(ValueError, match=r"^rollout\.backend: newton is not installed"):
        run_rollouts("repro", params, Layout(), tmp_path / "results")
    assert (tmp_path / "results" / "episodes" / "run=repro" / "part-0.parquet").read_text() == "the last good run"


@pytest.mark.parametrize(
    ("name", "entry", "key"),
    [
        ("scripted", {"attempts": 10**9}, "attempts"),
        ("planned", {"attempts": 10**9}, "attempts"),
        ("planned", {"max_expansions": 10**12}, "max_expansions"),
    ],
)
def test_policy_params_have_upper_bounds(name, entry, key):
    with pytest.raises(ValueError, match=rf"^policies\.{name}\.{key}: Input should be less than or equal to"):
        make_policy(name, entry)


@pytest.mark.parametrize("name", ["$\\frac{a}{$", "price $5", "$x^2$ and $", "\\$"])
def test_report_figures_draw_names_as_written(tmp_path, name):
    import matplotlib

    from housebench.report.plots import STYLE

    with matplotlib.rc_context(STYLE):
        fig = Figure()
        FigureCanvasAgg(fig)
        axes = fig.add_subplot()
        axes.barh([name], [1.0])
        axes.set_title(name)
        fig.savefig(tmp_path / "plot.png")
    assert (tmp_path / "plot.png").stat().st_size > 0
