"""The push of a flat item to its support's edge, in physics on built scenes (the tests' small
build, tests/builtdata.py): the item ends overhanging by the push's postcondition where the
push used to find no stance (a book 0.9 m out on a dining table, a plate by the wall at the back of a
counter, a book whose narrow side alone faces a free edge) or rode over the item (a 12 mm notebook), or the
fingers met the wall behind it; a stroke that leaves the item short is followed by
another from behind it."""

from __future__ import annotations

import math

import pytest

from housebench.skills.base import SkillContext
from housebench.skills.drive import Stepper, tried
from housebench.skills.edge import overhanging
from housebench.skills.flat_push import PushToEdge
from housebench.skills.tuning import tuning
from tests.conftest import built_job


def _push(task: str, variant: str, obj: str):
    episode = built_job(task, variant, "noop", horizon_s=200.0).open()
    obs = episode.reset(0)
    logged = []

    def log(kind, **detail):
        logged.append((kind, detail))

    ctx = SkillContext(task=episode.task, scene=episode.scene, control_dt=0.1, initial=obs.state, log=log)
    start = obs.objects[obj].pos[:2]
    runner = Stepper(tried(PushToEdge(obj), ctx, obs))
    while (action := runner.step(obs)) is not None and not episode.done:
        obs = episode.step(action)
    assert runner.done and runner.result[0] is None, runner.result
    assert overhanging(ctx, obs, obj, tuning().edge.overhang_m - 0.025) is not None
    return logged, math.dist(start, obs.objects[obj].pos[:2])


@pytest.mark.slow
def test_a_short_first_stroke_is_followed_by_another_until_the_item_overhangs():
    # organize_utility_items v000: the book 0.41 m from the dining table's nearest free edge (pad 0.9 m
    # from the base); the first stroke stalls with the arm folded in, 3 cm over the edge
    logged, moved = _push("organize_utility_items", "v000", "book")
    assert moved > 0.4
    assert any("stroke_again" in d for kind, d in logged if kind == "decision"), logged


@pytest.mark.slow
@pytest.mark.parametrize(
    ("task", "variant", "obj", "least"),
    [
        ("desk_prep", "v002", "notebook", 0.15),  # 12 mm thick: fingertips 6 mm up rode over it
        ("breakfast_setup", "v003", "dish", 0.2),  # 5 cm from the wall behind the counter, 0.25 m to go
        ("shelve_books", "v001", "book_blue", 0.2),  # only its narrow side faces a reachable edge
        ("shelve_books", "v009", "book", 0.15),  # 4 cm from the wall behind a side table in a corner
    ],
)
def test_thin_and_deep_items_are_pushed_over_the_edge(task, variant, obj, least):
    _, moved = _push(task, variant, obj)
    assert moved > least
