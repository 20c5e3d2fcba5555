"""The scripted policy's move order on the built scenes (slow: needs ``dvc repro annotate``): a toy lying
in the only passage to the bed (between the bedroom desk and the wardrobe) is moved before the toy the
goal lists first, whose place on the bed was unreachable with it there (toys_off_floor v016, v019)."""

from __future__ import annotations

import pytest

from housebench.skill_library.moves import clear_the_way, in_reach, plan_moves
from tests.conftest import built_episode


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["v016", "v019"])
def test_the_toy_in_the_passage_to_the_bed_goes_first(variant):
    episode, ctx, obs = built_episode("toys_off_floor", variant, horizon_s=10.0)
    moves = plan_moves(ctx, obs)
    assert [m.obj for m in moves] == ["car", "duck"]
    bed = moves[0].supports
    assert not in_reach(ctx, obs, bed, ("car",))  # the duck cuts the bedroom's far side off
    assert in_reach(ctx, obs, bed, ("car", "duck"))
    assert [m.obj for m in clear_the_way(ctx, obs, moves)] == ["duck", "car"]


@pytest.mark.slow
def test_moves_whose_surfaces_are_within_reach_keep_their_order():
    episode, ctx, obs = built_episode("toys_off_floor", "v000", horizon_s=10.0)
    moves = plan_moves(ctx, obs)
    assert clear_the_way(ctx, obs, moves) == moves
