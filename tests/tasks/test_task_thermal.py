"""The task thermal model on real MuJoCo states of the default house: the microwave heats only while
running with its door closed, the fridge cools, a running burner heats a vessel; and the episode loop
reports the model's temperatures to the evaluator."""

from __future__ import annotations

import json
import math

import pytest
from click.testing import CliRunner

from housebench.annotations.schema import AssetAnnotation, ContainerProfile, PlacedObject, SceneAnnotations
from housebench.cli import main
from housebench.house.annotate import house_annotations
from housebench.house.layout import generate_house
from housebench.io import write_json
from housebench.jsonfile import load_model
from housebench.rollout.episode import EpisodeJob, run_episode
from housebench.sim.mujoco import MujocoBackend
from housebench.state import SimState
from housebench.tasks.evaluator import evaluate
from housebench.tasks.goal import Goal
from housebench.tasks.spec import PlacedTaskObject, TaskVariant
from housebench.tasks.thermal import ThermalModel, ThermalSetup
from housebench.usd.house import write_house_usd
from tests.sim.usd_fixtures import BOX, house_params, write_box_asset, write_task_layer

BOX_ASSET = AssetAnnotation(name="box", category="box", size=(BOX, BOX, BOX), mass=0.2)
POT = BOX_ASSET.model_copy(
    update={"container": ContainerProfile(shape="rect", inner_half_extents=(0.025, 0.025), floor_z=0.005, rim_z=BOX)}
)
SETUP = ThermalSetup(initial_c={"food": 4.0}, appliances=["microwave", "fridge", "stove"])


def _on(house, support: str) -> tuple[float, float, float]:
    s = next(s for s in house.supports if s.name == support)
    return (s.box[0] + s.box[2]) / 2, (s.box[1] + s.box[3]) / 2, s.height + 0.001


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """The default house with a box in the microwave, one on a fridge shelf and a pot on a burner."""
    root = tmp_path_factory.mktemp("thermal")
    house = generate_house(house_params())
    ann = house_annotations(house)
    (root / "house").mkdir()
    write_house_usd(house, root / "house/house.usda")
    asset = write_box_asset(root / "box.usda")
    poses = {
        "food": _on(ann, "microwave/bottom"),
        "milk": _on(ann, "fridge/shelf_1"),
        "pot": _on(ann, "stove/burner_1"),
    }
    layer = write_task_layer(
        root / "task/task.usda", root / "house/house.usda", {name: (asset, pos) for name, pos in poses.items()}
    )
    return root, ann, layer, poses


@pytest.fixture
def sim(world, tmp_path):
    return MujocoBackend(cache_dir=world[0] / "mjcf").load(world[2])


def _set(sim, **joints):
    """Set joint values (``microwave__door`` for ``microwave/door``) and return the state."""
    state = sim.get_state()
    sim.set_state(
        state.model_copy(update={"joints": {**state.joints, **{k.replace("__", "/"): v for k, v in joints.items()}}})
    )
    return sim.get_state()


def _model(world) -> ThermalModel:
    return ThermalModel(SETUP, world[1], {"food": BOX_ASSET, "milk": BOX_ASSET, "pot": POT})


def test_microwave_heats_only_running_with_door_closed(world, sim):
    model = _model(world)
    relax = 1 - math.exp(-SETUP.ambient_rate * 1.0)
    state = _set(sim, microwave__door=1.2, microwave__start_button=0.008)  # pressed, door open
    assert model.step(state, 1.0)["food"] == pytest.approx(4.0 + 17.0 * relax)
    state = _set(sim, microwave__door=0.0, microwave__start_button=0.0)  # closed, never started
    start = model.temperatures_c["food"]
    assert model.step(state, 1.0)["food"] == pytest.approx(start + (21.0 - start) * relax)
    state = _set(sim, microwave__start_button=0.008)  # pressed with the door closed: runs
    start = model.temperatures_c["food"]
    assert model.step(state, 1.0)["food"] == pytest.approx(start + SETUP.microwave_c_per_s)
    sim.step(500)  # the button springs back; the microwave keeps running
    state = sim.get_state()
    assert state.joints["microwave/start_button"] < 0.004 and state.joints["microwave/door"] == pytest.approx(
        0, abs=0.02
    )
    assert model.step(state, 10.0)["food"] == pytest.approx(start + 11 * SETUP.microwave_c_per_s)
    for door in (1.2, 0.0):  # opening the door stops it, closing it again does not restart it
        warm = model.temperatures_c["food"]
        assert model.step(_set(sim, microwave__door=door), 1.0)["food"] == pytest.approx(warm + (21 - warm) * relax)
    assert model.temperatures_c["milk"] < 21.0  # in the fridge all along


def test_a_run_lasts_its_time_and_heating_stops_at_max(world, sim):
    model = _model(world)
    model.step(_set(sim, microwave__start_button=0.008), 1.0)
    state = _set(sim, microwave__start_button=0.0)
    for _ in range(10):
        model.step(state, 10.0)  # 1 s + 89 s of the 90 s run, then cooling
    assert 93.0 < model.temperatures_c["food"] < 4.0 + SETUP.microwave_run_s * SETUP.microwave_c_per_s
    hot = ThermalModel(SETUP.model_copy(update={"initial_c": {"food": 99.5}}), world[1], {"food": BOX_ASSET})
    assert hot.step(_set(sim, microwave__start_button=0.008), 1.0)["food"] == SETUP.max_c


def test_fridge_cools_with_its_door_closed_only(world, sim):
    model = _model(world)
    expected = 21.0 + (SETUP.fridge_c - 21.0) * (1 - math.exp(-SETUP.fridge_rate * 100.0))
    assert model.step(sim.get_state(), 100.0)["milk"] == pytest.approx(expected)
    assert model.step(_set(sim, fridge__door=1.2), 100.0)["milk"] > expected


def test_thermal_tolerances_are_fields_of_the_setup(world, sim):
    """A fridge door ajar by 0.15 rad is open by default and closed at ``door_max_rad`` 0.2; a pot 3 cm
    above a running burner is off it by default and on it at ``burner_max_gap`` 0.05."""
    ajar = _set(sim, fridge__door=0.15)
    loose = SETUP.model_copy(update={"door_max_rad": 0.2, "burner_max_gap": 0.05})
    cold = 21.0 + (SETUP.fridge_c - 21.0) * (1 - math.exp(-SETUP.fridge_rate * 100.0))
    assert _model(world).step(ajar, 100.0)["milk"] == pytest.approx(21.0)
    assert ThermalModel(loose, world[1], {"milk": BOX_ASSET}).step(ajar, 100.0)["milk"] == pytest.approx(cold)
    state = _set(sim, fridge__door=0.0, stove__power_key=1.5708)
    pot = state.objects["pot"]
    raised = pot.model_copy(update={"pos": (pot.pos[0], pot.pos[1], pot.pos[2] + 0.03)})
    state = state.model_copy(update={"objects": {**state.objects, "pot": raised}})
    assert _model(world).step(state, 2.0)["pot"] == pytest.approx(21.0)
    assert ThermalModel(loose, world[1], {"pot": POT}).step(state, 2.0)["pot"] == pytest.approx(
        21.0 + 2 * SETUP.stove_c_per_s
    )


def test_running_burner_heats_the_vessel_on_it(world, sim):
    model = _model(world)
    assert model.step(sim.get_state(), 2.0)["pot"] == pytest.approx(21.0)  # power key off
    assert model.step(_set(sim, stove__power_key=1.5708), 2.0)["pot"] == pytest.approx(21.0 + 2 * SETUP.stove_c_per_s)
    state = sim.get_state()
    away = state.objects["pot"].model_copy(update={"pos": (5.5, 2.0, 0.76)})  # on the dining table
    sim.set_state(state.model_copy(update={"objects": {**state.objects, "pot": away}}))
    assert model.step(sim.get_state(), 2.0)["pot"] < 21.0 + 2 * SETUP.stove_c_per_s


def test_unknown_appliance_and_missing_joint_are_errors(world, sim):
    with pytest.raises(ValueError, match=r"no appliance named \['oven'\]"):
        ThermalModel(ThermalSetup(appliances=["oven"]), world[1], {})
    state = sim.get_state()
    with pytest.raises(ValueError, match="joint 'microwave/door' is missing"):
        _model(world).step(state.model_copy(update={"joints": {}}), 1.0)


def _task_files(world, tmp_path) -> tuple[TaskVariant, SceneAnnotations]:
    """``task.json`` (heat the food) and ``scene.json`` for the world, written under ``tmp_path``."""
    root, ann, layer, poses = world
    objects = {
        n: PlacedTaskObject(asset="box", role=n, support="s", pos=p, quat=(1, 0, 0, 0), base=(1, 1, 0))
        for n, p in poses.items()
    }
    goal = Goal(
        roles={n: n for n in objects},
        condition={
            "all_of": [
                {"predicate": "heated", "items": ["food"], "min_c": 60.0},
                {"predicate": "chilled", "items": ["food"], "max_c": 5.0},
                {"predicate": "closed", "parts": ["microwave"]},
            ]
        },
    )
    variant = TaskVariant(
        task="heat",
        variant="v000",
        seed=0,
        instruction="x",
        spec_hash="h",
        robot_start=(9.4, 1.6, 1.5708),
        objects=objects,
        dropped=[],
        choices={},
        thermal=SETUP,
        goal=goal,
    )
    scene = SceneAnnotations(
        scene="heat/v000",
        house=ann,
        objects={
            n: PlacedObject(asset=POT if n == "pot" else BOX_ASSET, pos=p, quat=(1, 0, 0, 0)) for n, p in poses.items()
        },
    )
    write_json(tmp_path / "task.json", variant.model_dump(mode="json"))
    write_json(tmp_path / "scene.json", scene.model_dump(mode="json"))
    return variant, scene


def test_scene_state_is_judged_again_by_evaluate(world, tmp_path):
    """``housebench scene state`` writes the scene's state as the simulator loads it (temperatures from
    the task's thermal setup); ``housebench evaluate`` judges that file as the evaluator judges the state."""
    variant, scene = _task_files(world, tmp_path)
    run = CliRunner().invoke(
        main,
        ["scene", "state", str(world[2]), "--task", str(tmp_path / "task.json"), "--out", str(tmp_path / "s.json")],
    )
    assert run.exit_code == 0, run.output
    state = load_model(SimState, tmp_path / "s.json")
    assert state.temperatures_c["food"] == 4.0 and state.temperatures_c["milk"] == SETUP.ambient_c
    assert state.objects["food"].pos == pytest.approx(world[3]["food"], abs=1e-6)
    judged = CliRunner().invoke(
        main,
        ["evaluate", "--task", str(tmp_path / "task.json"), "--annotations", str(tmp_path / "scene.json")]
        + ["--state", str(tmp_path / "s.json")],
    )
    verdict = evaluate(variant.goal, state, scene)
    assert not verdict.success and verdict.conditions[1].ok  # 4 C: chilled, not heated
    assert judged.exit_code == 3 and json.loads(judged.output) == json.loads(verdict.model_dump_json())


def _heat_job(world, tmp_path, **changes) -> EpisodeJob:
    """A noop episode job on the heat task of ``_task_files`` (written under ``tmp_path``)."""
    _task_files(world, tmp_path)
    base = dict(
        run="t",
        task="heat",
        variant="v000",
        seed=0,
        policy="noop",
        backend="mujoco",
        scene=world[2],
        task_file=tmp_path / "task.json",
        annotations=tmp_path / "scene.json",
        horizon_s=0.5,
        control_dt=0.1,
        pose_noise_m=0.0,
    )
    return EpisodeJob(**{**base, **changes})


def test_noop_episode_is_judged_on_the_model_temperatures(world, tmp_path):
    outcome = run_episode(_heat_job(world, tmp_path))
    assert outcome.crash is None, outcome.crash
    heated, chilled, closed = outcome.verdict.conditions
    assert not outcome.verdict.success and not heated.ok and chilled.ok and closed.ok
    assert heated.items[0].reason.startswith("4.00")  # 4 C from the setup, barely warmed in 0.5 s


def test_noop_runs_on_while_a_temperature_changes(world, tmp_path):
    """The food warms in the closed microwave: the scene is not at rest, so the control does not stop."""
    outcome = run_episode(_heat_job(world, tmp_path, horizon_s=3.0))
    assert outcome.crash is None and outcome.sim_s >= 3.0 - 1e-9


def test_an_episode_keeps_its_states_so_its_verdict_can_be_judged_again(world, tmp_path):
    """The rollout writes each episode's initial and final states; ``housebench results state`` gets
    them back and ``housebench evaluate`` gives the verdict the rollout recorded."""
    from housebench.results.writer import write_run
    from housebench.rollout.records import records

    job = _heat_job(
        world,
        tmp_path,
        seed=3,
        horizon_s=0.3,
        pose_noise_m=0.01,  # the initial state is not the annotated one: it has to be kept too
        provenance={"code_commit": "c", "scene_hash": "s", "assets_hash": "a"},
    )
    outcome = run_episode(job)
    assert outcome.crash is None, outcome.crash
    write_run(tmp_path / "results", "t", records([outcome]))
    runner = CliRunner()
    got = runner.invoke(
        main,
        ["results", "state", "heat/v000/3/noop", "--run", "t", "--results", str(tmp_path / "results")]
        + ["--out", str(tmp_path / "ep")],
    )
    assert got.exit_code == 0, got.output
    final = load_model(SimState, tmp_path / "ep/final.json")
    assert final.temperatures_c["food"] == outcome.final.temperatures_c["food"] and final.time == pytest.approx(0.3)
    judged = runner.invoke(
        main,
        ["evaluate", "--task", str(tmp_path / "task.json"), "--annotations", str(tmp_path / "scene.json")]
        + ["--state", str(tmp_path / "ep/final.json"), "--initial", str(tmp_path / "ep/initial.json")],
    )
    assert judged.exit_code == 3 and json.loads(judged.stdout) == json.loads(outcome.verdict.model_dump_json())
    missing = runner.invoke(main, ["results", "state", "nope", "--run", "t", "--results", str(tmp_path / "results")])
    assert missing.exit_code == 1 and "episode 'nope' of run 't': no final state" in missing.output
