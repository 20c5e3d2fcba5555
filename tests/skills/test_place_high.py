"""A place whose usual pre-pose is out of reach comes in lower: the juice bottle, held by its top, over the
storage basket on the kitchen island (organize_utility_items v002) had no stance 0.12 m over its release
point; 2-6 cm over it, one reaches (contact physics on the built scene)."""

from __future__ import annotations

from housebench.skills.pick import Pick
from housebench.skills.place import Place
from housebench.skills.tuning import tuning
from housebench.tasks.geometry import world_box
from tests.conftest import built_episode, run_skill


def test_a_bottle_goes_into_the_basket_on_the_island_from_a_lower_pre_pose():
    episode, ctx, obs = built_episode("organize_utility_items", "v002", horizon_s=200.0)
    failure, obs = run_skill(episode, ctx, obs, Pick("bottle"))
    assert failure is None and obs.holding("bottle")
    place = Place("bottle", container="basket")
    failure, obs = run_skill(episode, ctx, obs, place)
    assert failure is None, failure
    assert place.above < tuning().pick.approach_m  # no stance reaches from the usual height
    x0, y0, _, x1, y1, _ = world_box(obs.objects["basket"], ctx.scene.objects["basket"].asset)
    x, y, _ = obs.objects["bottle"].pos
    assert x0 < x < x1 and y0 < y < y1  # in the basket, not beside it
