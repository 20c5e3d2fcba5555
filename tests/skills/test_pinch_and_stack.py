"""The pinch of a pushed book and the stack of one book on another, in physics on built scenes (slow;
the tests' small build, tests/builtdata.py): the pinch's hand comes down to its pre-pose
from above, outside the edge (a joint motion straight there swept it through the overhang and knocked
the book off the side table), and a held book is set on another with its held end over that book's
own side (the world box of a book lying askew offered no side the fingers could pass)."""

from __future__ import annotations

import numpy as np
import pytest

from housebench.annotations.schema import Support
from housebench.skills.flat_pinch import PickOverhang, StackAtEdge
from housebench.skills.flat_push import PushToEdge
from housebench.skills.grasp import FINGER_HALF
from housebench.skills.hand import Stack, top_of
from housebench.skills.tuning import tuning
from housebench.skills.view import support_of
from housebench.tasks.geometry import rotation
from tests.conftest import built_episode, run_skill


def _pinched(task: str, variant: str, obj: str, first: tuple[str, ...] = ()):
    """A built episode in which the items ``first`` and then ``obj`` have been pushed to an edge, and ``obj``
    pinched (all asserted)."""
    episode, ctx, obs = built_episode(task, variant, horizon_s=300.0)
    for skill in (*(PushToEdge(o) for o in first), PushToEdge(obj), PickOverhang(obj)):
        failure, obs = run_skill(episode, ctx, obs, skill)
        assert failure is None, failure
    assert obs.holding(obj)
    return episode, ctx, obs


@pytest.mark.slow
def test_a_book_pushed_over_the_side_tables_edge_is_pinched_not_knocked_off():
    # shelve_books v010: the book askew (110 deg) on the side table, the pinch's stance 0.3 m along the edge;
    # the fingers close on it (what the carry after does to it is not this test's: it may still slide out)
    episode, ctx, obs = built_episode("shelve_books", "v010", horizon_s=300.0)
    grasped = []
    ctx.log = lambda kind, **detail: grasped.append(detail) if kind == "grasped" else None
    failure, obs = run_skill(episode, ctx, obs, PushToEdge("book"))
    assert failure is None, failure
    failure, obs = run_skill(episode, ctx, obs, PickOverhang("book"))
    assert [d["obj"] for d in grasped] == ["book"], failure


@pytest.mark.slow
def test_a_book_is_stacked_on_another_that_overhangs_its_tables_edge():
    # stack_books v003: the lower book askew (109 deg) pushed over the dining table's edge as a place leaves
    # it, the blue one pinched 0.7 m away; its world box's sides put the lower finger on the table
    episode, ctx, obs = _pinched("stack_books", "v003", "book_blue", first=("book",))
    failure, obs = run_skill(episode, ctx, obs, Stack("book_blue", "book"))
    assert failure is None, failure
    assert ctx.judge(Stack("book_blue", "book").postconditions(ctx), obs.state).success


def test_a_stacked_book_lands_inside_the_lower_ones_own_footprint_the_pair_steadiest_first():
    _, ctx, obs = built_episode("stack_books", "v003", horizon_s=10.0)
    reach_in = 0.09  # pad to the held book's centre
    lower = obs.objects["book"]  # askew: 108 deg
    spots = list(StackAtEdge("book_blue", top_of(ctx, obs, "book")).spots(ctx, obs, reach_in))
    assert len(spots) == 4  # in the middle of the table: every side of the lower book
    table: Support = support_of(ctx, obs, "book")
    depths = []
    for foot, normal, height in spots:
        landed = np.asarray(foot) + np.asarray(normal) * (tuning().edge.tip_off_m + FINGER_HALF - reach_in)
        local = rotation(lower.quat).T @ np.array([*(landed - np.asarray(lower.pos[:2])), 0.0])
        assert all(
            abs(local[k]) <= ctx.scene.objects["book"].asset.size[k] / 2 - tuning().edge.stack_in_m for k in (0, 1)
        )
        assert height == pytest.approx(top_of(ctx, obs, "book").height)
        pair = (landed + np.asarray(lower.pos[:2])) / 2  # the two books weigh the same
        box = table.box
        depths.append(min(pair[0] - box[0], box[2] - pair[0], pair[1] - box[1], box[3] - pair[1]))
    assert min(depths) >= tuning().edge.pair_in_m
    assert depths == sorted(depths, reverse=True)
