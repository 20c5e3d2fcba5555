"""The choice table decides every way of a verb, and nothing else does: each row's decision on annotated scenes
of the small build, and no module of the brains (policy/, skill_library/) makes a way's skill itself."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from housebench.skill_library.catalog import build_catalog
from housebench.skill_library.choose import TABLE, Noun, choose, table_rows, ways
from housebench.state import ObjectState
from tests.conftest import built_episode
from tests.skills.test_appliance_flow import _level_hand

ROOT = Path(__file__).resolve().parents[2]
WAY_SKILLS = {"Pick", "SidePick", "PickOverhang", "Place", "SidePlace", "PlaceAtEdge"}  # made by the table only
BRAINS = ("housebench/policy", "housebench/skill_library")


def _called(node: ast.Call) -> str:
    func = node.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def test_no_brain_module_makes_a_ways_skill_but_the_table():
    found = []
    for folder in BRAINS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.name == "choose.py":
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Call) and _called(node) in WAY_SKILLS:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} {_called(node)}")
    assert not found, f"a way's skill made outside the choice table: {found}"


def test_every_verb_ends_in_a_way_that_always_holds_and_the_catalog_shows_them_all():
    for verb in {w.verb for w in TABLE}:
        assert ways(verb)[-1].rule in ("from above", "above the container's cavity, lowered below its rim")
    assert [(r["verb"], r["way"]) for r in table_rows()] == [(w.verb, w.name) for w in TABLE]
    assert build_catalog().choices == table_rows()  # the catalog a model reads shows the table


@pytest.fixture(scope="module")
def fridge():
    _, ctx, obs = built_episode("restock_fridge", "v000", horizon_s=5.0)
    return ctx, obs, {s.name: s for s in ctx.scene.house.supports}


@pytest.fixture(scope="module")
def books():
    _, ctx, obs = built_episode("shelve_books", "v000", horizon_s=5.0)
    return ctx, obs, {s.name: s for s in ctx.scene.house.supports}


def _way(verb: str, ctx, obs, obj: str, **where) -> tuple[str, list[str]]:
    way, skills = choose(verb, Noun(ctx, obs, obj, **where))
    return way.name, [type(s).__name__ for s in skills]


def test_a_flat_book_is_pushed_over_an_edge_and_pinched_and_set_down_at_an_edge(books):
    ctx, obs, s = books
    assert _way("pick", ctx, obs, "book", supports=[s["bookcase_low/top"]]) == (
        "slide_and_pinch",
        ["PushToEdge", "PickOverhang"],
    )
    assert _way("place", ctx, obs, "book", support=s["bookcase_low/top"]) == ("at_edge", ["PlaceAtEdge"])


def test_a_book_on_its_side_is_no_flat_item(books):
    ctx, obs, _ = books
    pose = obs.objects["book"]
    on_edge = ObjectState(pos=pose.pos, quat=(0.7071068, 0.7071068, 0.0, 0.0))  # turned 90 degrees about x
    fallen = dataclasses.replace(obs, objects={**obs.objects, "book": on_edge})
    assert _way("pick", ctx, fallen, "book")[0] != "slide_and_pinch"


def test_an_item_bound_under_a_low_ceiling_or_through_a_door_is_taken_from_the_side(fridge):
    ctx, obs, s = fridge
    assert _way("pick", ctx, obs, "juice", supports=[s["fridge/shelf_2"]]) == ("side", ["SidePick"])
    assert _way("pick", ctx, obs, "juice", supports=[s["counter_south/top"]]) == ("top", ["Pick"])
    assert _way("pick", ctx, obs, "juice", supports=[s["counter_south/top"]], through_door=True)[0] == "side"


def test_an_item_resting_under_a_low_ceiling_is_taken_from_the_side(fridge):
    ctx, obs, s = fridge
    shelf = s["fridge/shelf_2"]
    x, y = (shelf.box[0] + shelf.box[2]) / 2, (shelf.box[1] + shelf.box[3]) / 2
    inside = ObjectState(pos=(x, y, shelf.height + 0.105), quat=(1.0, 0.0, 0.0, 0.0))  # the juice, 0.21 m tall
    in_fridge = dataclasses.replace(obs, objects={**obs.objects, "juice": inside})
    assert _way("pick", ctx, in_fridge, "juice", supports=[s["counter_south/top"]]) == ("side", ["SidePick"])


def test_a_place_under_a_low_ceiling_or_through_a_door_is_from_the_side_else_from_above(fridge):
    ctx, obs, s = fridge
    assert _way("place", ctx, obs, "juice", support=s["fridge/shelf_2"]) == ("side", ["SidePlace"])
    assert _way("place", ctx, obs, "juice", support=s["counter_south/top"]) == ("top", ["Place"])
    assert _way("place", ctx, obs, "juice", support=s["counter_south/top"], through_door=True)[0] == "side"


def test_an_insert_goes_in_above_the_rim(fridge):
    ctx, obs, _ = fridge
    way, skills = choose("insert", Noun(ctx, obs, "juice", container="milk"))
    assert way.name == "above_rim" and skills[0].container == "milk" and skills[0].support is None


def test_an_item_held_level_is_set_down_from_the_side_even_on_an_open_top():
    """A side grasp's level hand cannot turn down over an open top: the place is from the side; the same item in a
    hand that points down goes from above."""
    ctx, level, _ = _level_hand("heat_breakfast_preloaded", "v000")
    counter = next(s for s in ctx.scene.house.supports if s.name == "counter_south/top")
    assert _way("place", ctx, level, "oatmeal", support=counter) == ("side", ["SidePlace"])
    _, _, tucked = built_episode("heat_breakfast_preloaded", "v000", horizon_s=5.0)
    assert _way("place", ctx, tucked, "oatmeal", support=counter) == ("top", ["Place"])


def _without_edge_pinch(ctx, obj: str):
    asset = ctx.scene.objects[obj].asset
    kept = [p for p in asset.grasps if p.kind != "edge_pinch_after_push"]
    placed = ctx.scene.objects[obj].model_copy(update={"asset": asset.model_copy(update={"grasps": kept})})
    scene = ctx.scene.model_copy(update={"objects": {**ctx.scene.objects, obj: placed}})
    return dataclasses.replace(ctx, scene=scene)


def test_an_item_no_hand_from_above_fits_is_slid_and_pinched_only_if_it_offers_the_pinch(books):
    ctx, obs, s = books
    assert _way("pick", ctx, obs, "book", supports=[s["bookcase_low/top"]])[0] == "slide_and_pinch"
    assert _way("pick", _without_edge_pinch(ctx, "book"), obs, "book", supports=[s["bookcase_low/top"]])[0] == "top"


def test_the_first_row_that_holds_wins(books):
    """A flat book bound under a low ceiling or through a door is still slid and pinched (the slide-and-pinch row
    comes before the side row), and held by its end it is set down at the edge there (at_edge before side)."""
    ctx, obs, s = books
    low = s["bookcase_low/level_1"]  # a 0.38 m level: too low for a hand from above
    assert _way("pick", ctx, obs, "book", supports=[low])[0] == "slide_and_pinch"
    assert _way("pick", ctx, obs, "book", supports=[s["bookcase_low/top"]], through_door=True)[0] == "slide_and_pinch"
    assert _way("place", ctx, obs, "book", support=low)[0] == "at_edge"
    assert _way("place", ctx, obs, "book", support=s["bookcase_low/top"], through_door=True)[0] == "at_edge"
