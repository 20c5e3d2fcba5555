"""The symbolic planner: task goals decomposed into subgraphs that ground in the scene and that the
evaluator's predicates, read symbolically, say reach the goal; the plan stage's outputs."""

from __future__ import annotations

import json

import pytest

from housebench.annotations.schema import Support
from housebench.io import write_json
from housebench.paths import Layout
from housebench.pipeline.plan import PlanParams, plan_all
from housebench.skill_library import symbolic
from housebench.skill_library.planner import PlanError, Problem, _preference, plan, world_of
from housebench.skill_library.subgraph import ground
from housebench.tasks.goal import Goal
from housebench.tasks.spec import PlacedTaskObject, TaskVariant
from housebench.tasks.thermal import ThermalSetup

ROLES = {"apple": "fruit", "orange": "fruit", "bowl": "container"}


def _variant(scene, condition, thermal=None, roles=ROLES) -> TaskVariant:
    objects = {
        n: PlacedTaskObject(
            asset=o.asset.name, role=roles[n], support=o.support, pos=o.pos, quat=o.quat, base=(1.0, 1.9, 0.0)
        )
        for n, o in scene.objects.items()
    }
    return TaskVariant(
        task="t",
        variant="v000",
        seed=0,
        instruction="test",
        spec_hash="0",
        robot_start=(0.8, 0.8, 0.0),
        objects=objects,
        dropped=[],
        choices={},
        thermal=thermal,
        goal=Goal(roles=roles, condition=condition),
    )


def _verbs(sub) -> list[str]:
    return [f"{n.verb}({','.join(str(v) for v in n.args.values())})" for n in sub.nodes]


def _reaches_goal(variant, world, sub) -> bool:
    problem = Problem(variant, world)
    state = problem.initial
    for node in sub.nodes:
        op = problem.operator(node.verb, **node.args)
        assert problem.applicable(op, state), node
        state = problem.apply(op, state)
    return problem.unmet(state) == 0


def test_fruit_into_bowl(scene):
    condition = {
        "all_of": [
            {"predicate": "inside", "items": ["all:fruit"], "container": "container", "bind": "container"},
            {"predicate": "on", "items": ["$container"], "support": "table", "upright": True},
        ]
    }
    variant = _variant(scene, condition)
    world = world_of(variant, scene)
    sub = plan(variant, world)
    assert _verbs(sub) == [
        "navigate(apple)",
        "pick(apple)",
        "navigate(bowl)",
        "insert(apple,bowl)",
        "navigate(orange)",
        "pick(orange)",
        "navigate(bowl)",
        "insert(orange,bowl)",
    ]
    assert len(ground(sub, world)) == 8 and _reaches_goal(variant, world, sub)


def test_fridge_is_opened_for_the_apple_and_closed_again(scene):
    inside = scene.objects["apple"].model_copy(update={"pos": (0.3, 3.3, 0.5), "support": "fridge/shelf_1"})
    scene = scene.model_copy(update={"objects": {**scene.objects, "apple": inside}})
    condition = {
        "all_of": [
            {"predicate": "on", "items": ["apple"], "support": "table"},
            {"predicate": "closed", "parts": ["fridge"]},
        ]
    }
    variant = _variant(scene, condition)
    sub = plan(variant, world_of(variant, scene))
    verbs = _verbs(sub)
    assert verbs.index("open(fridge/door)") < verbs.index("pick(apple)") < verbs.index("close(fridge/door)")
    assert _reaches_goal(variant, world_of(variant, scene), sub)


def test_chill_in_the_fridge(scene):
    condition = {
        "all_of": [
            {"predicate": "chilled", "items": ["orange"], "max_c": 8.0},
            {"predicate": "closed", "parts": ["fridge"]},
        ]
    }
    thermal = ThermalSetup(initial_c={"orange": 21.0}, appliances=["fridge"], fridge_rate=0.02)
    variant = _variant(scene, condition, thermal)
    sub = plan(variant, world_of(variant, scene))
    verbs = _verbs(sub)
    assert verbs[-2:] == ["close(fridge/door)", "chill(orange,fridge,8.0,83.0)"]  # ln(17/4) / 0.02 + 10 s margin
    assert any(v.startswith("place(orange,fridge/") for v in verbs)


def test_impossible_goal_is_a_one_line_plan_error(scene):
    condition = {"all_of": [{"predicate": "heated", "items": ["apple"], "min_c": 60.0}]}
    variant = _variant(scene, condition, ThermalSetup(appliances=["fridge"]))
    with pytest.raises(PlanError, match=r"^t/v000: no plan after \d+ expansions"):
        Problem(variant, world_of(variant, scene)).solve(max_expansions=200)


def test_symbolic_hand_holds_one_object(scene):
    variant = _variant(scene, {"all_of": [{"predicate": "not_dropped"}]})
    problem = Problem(variant, world_of(variant, scene))
    pick = {(o.verb, o.args): o for o in problem.operators}
    state = problem.apply(pick[("pick", (("object", "apple"),))], problem.initial | {("base", "table")})
    assert problem.sym.held(state) == ["apple"]
    assert not problem.applicable(pick[("pick", (("object", "orange"),))], state)
    assert symbolic.holds(pick[("pick", (("object", "apple"),))].contract.post[0], "apple", state, problem.sym)


def test_plan_stage_writes_every_variant_and_a_summary(tmp_path, scene):
    layout = Layout(tmp_path)
    variant = _variant(scene, {"all_of": [{"predicate": "inside", "items": ["apple"], "container": "bowl"}]})
    folder = layout.task_dir("t", "v000")
    folder.mkdir(parents=True)
    (folder / "task.usda").write_text("#usda 1.0\n")
    write_json(folder / "task.json", variant.model_dump(mode="json"))
    write_json(layout.scene_annotations("t", "v000"), scene.model_dump(mode="json"))
    summary = plan_all(layout, PlanParams(max_expansions=1000, weight=2.0), tmp_path / "plans")
    assert summary["decomposed"] == 1.0 and summary["tasks"] == {"t": {"variants": 1, "decomposed": 1}}
    written = json.loads((tmp_path / "plans" / "t" / "v000.json").read_text())
    assert [n["verb"] for n in written["nodes"]] == ["navigate", "pick", "navigate", "insert"]


def test_open_tops_first_then_the_level_under_a_ceiling_nearest_reach_height():
    def level(name, height, clearance=None):
        return Support(name=name, owner="fridge", height=height, box=(0, 0, 1, 1), clearance=clearance)

    found = [level("fridge/bottom", 0.07, 0.41), level("fridge/shelf_2", 0.9, 0.38), level("fridge/top", 1.8)]
    found.append(level("fridge/shelf_3", 1.3, 0.48))
    assert [s.name for s in sorted(found, key=_preference)] == [
        "fridge/top",
        "fridge/shelf_2",
        "fridge/shelf_3",
        "fridge/bottom",
    ]
