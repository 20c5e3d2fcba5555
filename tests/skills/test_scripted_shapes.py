"""The scripted policy's moves for ``stacked``, ``lying`` and ``upright`` goals, read from built task
variants (the small build of :mod:`tests.builtdata`)."""

from __future__ import annotations

from housebench.rollout.env import Episode
from housebench.skill_library.moves import plan_moves, shape_moves, toppled
from housebench.skills.base import SkillContext
from tests.builtdata import built
from tests.conftest import Played


def _start(task: str):
    layout = built(task, "v000")
    scene = layout.settled_scene(task, "v000")
    files = (scene, layout.task_dir(task, "v000") / "task.json", layout.scene_annotations(task, "v000"))
    episode = Episode(*files, horizon_s=1.0)
    obs = episode.reset(0)
    ctx = SkillContext(episode.task, episode.scene, 0.1, initial=obs.state)
    return ctx, obs


def test_stacking_goes_last_onto_its_base():
    ctx, obs = _start("stack_books")
    moves = shape_moves(ctx, obs, plan_moves(ctx, obs))
    assert [(m.obj, m.base) for m in moves][-1] == ("book_blue", "book")
    assert moves[0].obj == "book" and moves[0].base is None  # the base goes to the desk first
    assert [c.predicate for c in moves[-1].check] == ["stacked"]


def test_a_standing_bottle_gets_laid_on_its_own_table():
    ctx, obs = _start("lay_bottle_down")
    (move,) = shape_moves(ctx, obs, plan_moves(ctx, obs))
    assert move.obj == "bottle" and move.lay and [s.name for s in move.supports] == ["dining_table/top"]
    assert not ctx.judge(move.check, obs.state).success  # standing: not yet lying


def test_nothing_toppled_at_the_start():
    ctx, obs = _start("arrange_drinks")
    assert toppled(ctx, obs) == []


def test_a_stack_that_fails_unreachable_is_tried_again_not_a_crash():
    """A failed ``stack`` (its target is an object, not a surface) leads to another attempt; the script
    once read ``place.support`` of it and crashed 11 of 500 episodes."""
    from housebench.skill_library.script import Script
    from housebench.skills.base import Reason, SkillFailure
    from housebench.skills.hand import Stack

    ctx, obs = _start("stack_blocks")
    script = Script(ctx, attempts=3)
    script.skill = Played(lambda s, o: (SkillFailure(s.name, Reason.UNREACHABLE) if isinstance(s, Stack) else None, o))
    stacks = sum(isinstance(skill, Stack) for skill in script.skill.play(script, obs))
    assert stacks == 3
