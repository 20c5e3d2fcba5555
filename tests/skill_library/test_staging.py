"""One staging rule for both brains (issue 30): the open top of no appliance within the landed height band
(0.3-1.25 m) whose box edge comes nearest the appliance's cavity; the scripted flow stages there and the planner
offers that surface and no other. Pure: the small build's annotations, surfaces moved by hand."""

from __future__ import annotations

import pytest

from housebench.annotations.schema import HouseAnnotations, SceneAnnotations, Support
from housebench.jsonfile import load_model
from housebench.skill_library.planner import Problem, world_of
from housebench.skill_library.staging import staging_surface
from housebench.tasks.spec import TaskVariant
from tests.builtdata import built

DOOR_TASKS = [("heat_soda_can", "v000"), ("chill_drink", "v000"), ("heat_breakfast", "v000")]  # micro, fridge, both


def _problem(task: str, variant: str) -> Problem:
    layout = built(task, variant)
    spec = load_model(TaskVariant, layout.task_dir(task, variant) / "task.json")
    scene = load_model(SceneAnnotations, layout.scene_annotations(task, variant))
    return Problem(spec, world_of(spec, scene))


@pytest.fixture(scope="module")
def house() -> HouseAnnotations:
    return _problem(*DOOR_TASKS[0]).world.scene.house


def _app(house: HouseAnnotations, name: str):
    return next(a for a in house.appliances if a.name == name)


def _with(house: HouseAnnotations, *extra: Support) -> HouseAnnotations:
    return house.model_copy(update={"supports": [*house.supports, *extra]})


def _beside(app, gap: float, height: float, name: str, length: float = 0.4) -> Support:
    """An open top whose near edge lies ``gap`` m from the cavity's centre along -x, ``length`` m long away from it."""
    x0, y0, _, x1, y1, _ = app.cavity
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return Support(name=name, owner=name, height=height, box=(cx - gap - length, cy - 0.2, cx - gap, cy + 0.2))


def test_the_microwave_stages_on_its_own_counter():
    house = _problem("heat_soda_can", "v000").world.scene.house
    assert staging_surface(house, _app(house, "microwave")).name == "counter_west/top"


@pytest.mark.parametrize(("height", "taken"), [(0.25, False), (0.35, True), (1.2, True), (1.3, False)])
def test_a_staging_surface_is_no_floor_and_within_a_place_from_aboves_reach(house, height, taken):
    """The landed band is 0.3-1.25 m: a low table at 0.35 m and a high counter at 1.2 m qualify (the planner's old
    0.4-1.1 m left both out), a step at 0.25 m and a shelf at 1.3 m do not."""
    app = _app(house, "microwave")
    near = _beside(app, 0.01, height, "probe")  # nearer than any surface of the house
    chosen = staging_surface(_with(house, near), app)
    assert (chosen.name == "probe") is taken, (height, chosen.name)


def test_the_nearest_box_edge_wins_not_the_nearest_centre(house):
    """A long counter whose end comes within 0.05 m of the cavity beats a small table whose middle is nearer."""
    app = _app(house, "microwave")
    long_counter = _beside(app, 0.05, 0.9, "long_counter", length=3.0)  # centre 1.55 m off, edge 0.05 m
    small_table = _beside(app, 0.1, 0.9, "small_table", length=0.2)  # centre 0.2 m off, edge 0.1 m
    assert staging_surface(_with(house, small_table, long_counter), app).name == "long_counter"


def test_an_appliances_own_shelf_or_a_covered_level_is_no_staging_surface(house):
    app = _app(house, "microwave")
    owned = _beside(app, 0.01, 0.9, "probe").model_copy(update={"owner": "fridge"})
    covered = _beside(app, 0.01, 0.9, "probe2").model_copy(update={"clearance": 0.3})
    assert staging_surface(_with(house, owned, covered), app).name == "counter_west/top"


@pytest.mark.parametrize(("task", "variant"), DOOR_TASKS)
def test_the_planner_stages_by_the_same_rule(task, variant):
    """The planner's surfaces beside each door appliance in play are its :func:`staging_surface`: with a low long
    counter nearest by its edge (0.35 m: outside the planner's old 0.4-1.1 m band) and a small table nearest by its
    centre put beside the appliance, the counter is offered and the table is not."""
    problem = _problem(task, variant)
    scene = problem.world.scene
    doors = [a for a in problem._appliances() if a.door]
    assert doors, "no appliance with a door in play: the test would prove nothing"
    for app in doors:
        long_counter = _beside(app, 0.05, 0.35, "long_counter", length=3.0)
        small_table = _beside(app, 0.1, 0.9, "small_table", length=0.2)
        probed = scene.model_copy(update={"house": _with(scene.house, long_counter, small_table)})
        offered = {s.name for s in Problem(problem.variant, world_of(problem.variant, probed))._supports()}
        assert "long_counter" in offered and "small_table" not in offered, (app.name, sorted(offered))
