"""Bad numbers are bad input (issue 11): NaN, infinity and out-of-range values in a state, a goal, an
annotation file, a task file or a temperature give exit 2 with one line naming the file and the field,
never a verdict. Quaternions must be unit length (within 1e-3): refused, never normalised."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from pydantic import ValidationError
from task_world import SPEC, state_of

from housebench.cli import main
from housebench.io import write_json
from housebench.state import ObjectState, SimState
from housebench.tasks.sampler import SamplerParams, sample_variant
from housebench.tasks.spec import load_spec


@pytest.fixture
def files(tmp_path, house, assets, scene):
    variant = sample_variant("put_fruit_in_container", load_spec(SPEC), "h", "v000", 0, house, assets, SamplerParams())
    write_json(tmp_path / "task.json", variant.model_dump(mode="json"))
    write_json(tmp_path / "annotations.json", scene.model_dump(mode="json"))
    good = state_of(scene, {"apple": {"pos": [2.0, 1.9, 0.76]}}).model_dump(mode="json")
    return tmp_path, good


def _evaluate(root, state_text: str, name: str = "state.json"):
    (root / name).write_text(state_text)
    args = ["evaluate", "--task", root / "task.json", "--annotations", root / "annotations.json", "--state"]
    return CliRunner().invoke(main, [*map(str, args), str(root / name)])


def _with(good: dict, path: tuple, value) -> dict:
    data = json.loads(json.dumps(good))
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return data


@pytest.mark.parametrize(
    "path, value, field, why",
    [
        (("objects", "apple", "pos"), [2.0, "NaN", 0.76], "", "NaN is not a number"),
        (("objects", "apple", "quat"), ["Infinity", 0, 0, 0], "", "Infinity is not a number"),
        (("objects", "apple", "pos"), [2.0, 1.9, "1e999"], "", "1e999 overflows to infinity"),
        (("objects", "apple", "pos"), [2.0, 1.9, 1e300], "objects.apple.pos[2]", "less than or equal to 10000"),
        (("objects", "apple", "quat"), [2, 0, 0, 0], "objects.apple.quat", "has length 2, not 1"),
        (("objects", "apple", "quat"), [0, 0, 0, 0], "objects.apple.quat", "has length 0, not 1"),
        (("objects", "apple", "linvel"), [1e9, 0, 0], "objects.apple.linvel[0]", "less than or equal to 1000"),
        (("temperatures_c",), {"apple": -300.0}, "temperatures_c.apple", "greater than or equal to -273.15"),
        (("time",), -1.0, "time", "greater than or equal to 0"),
        (("version",), True, "", ""),
    ],
)
def test_a_bad_number_in_a_state_is_exit_2_never_a_verdict(files, path, value, field, why):
    root, good = files
    text = json.dumps(_with(good, path, value))
    text = text.replace('"NaN"', "NaN").replace('"Infinity"', "Infinity").replace('"1e999"', "1e999")
    result = _evaluate(root, text)
    assert result.exit_code == 2, result.output
    line = result.output.strip()
    assert "\n" not in line and line.startswith(f"{root / 'state.json'}: ") and "success" not in line
    assert field in line and why in line


def test_the_good_state_still_succeeds(files):
    root, good = files
    assert _evaluate(root, json.dumps(good)).exit_code == 0


def test_a_nearly_unit_quaternion_is_kept_as_it_is():
    quat = (0.70711, 0.70711, 0.0, 0.0)  # rounded to 5 decimals: length 1.000004
    assert ObjectState(pos=(0, 0, 0), quat=quat).quat == quat


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf")])
def test_a_simulator_state_with_nan_is_refused(bad):
    """A state built in Python (a simulator that blew up) cannot carry NaN into the evaluator."""
    with pytest.raises(ValidationError):
        SimState(objects={"apple": ObjectState(pos=(0.0, bad, 0.0), quat=(1.0, 0.0, 0.0, 0.0))})
    with pytest.raises(ValidationError):
        SimState(joints={"robot0:torso_lift_joint": bad})


@pytest.mark.parametrize(
    "goal, field",
    [
        ({"predicate": "upright", "items": ["fruit"], "max_tilt_deg": 400.0}, "max_tilt_deg"),
        ({"predicate": "upright", "items": ["fruit"], "max_tilt_deg": -1.0}, "max_tilt_deg"),
        ({"predicate": "heated", "items": ["fruit"], "min_c": -500.0}, "min_c"),
        ({"predicate": "closed", "parts": ["all"], "max_m": -0.1}, "max_m"),
    ],
)
def test_out_of_range_goal_values_are_refused(tmp_path, goal, field):
    data = json.loads(SPEC.read_text())
    data["goal"] = {"all_of": [goal]}
    spec = tmp_path / "put_fruit_in_container.json"
    spec.write_text(json.dumps(data))
    result = CliRunner().invoke(main, ["task", "validate", str(spec)])
    assert result.exit_code == 2 and result.output.count("\n") == 1, result.output
    assert f"{spec}: goal.all_of[0]" in result.output and field in result.output


def test_a_temperature_below_absolute_zero_in_the_thermal_setup_is_refused(tmp_path):
    data = json.loads(SPEC.read_text())
    data["thermal"] = {"initial_c": {"apple": -300.0}}
    spec = tmp_path / "put_fruit_in_container.json"
    spec.write_text(json.dumps(data))
    result = CliRunner().invoke(main, ["task", "validate", str(spec)])
    assert result.exit_code == 2 and "thermal.initial_c.apple" in result.output


@pytest.mark.parametrize(
    "edit, field",
    [
        (lambda a: a["objects"]["apple"].update(quat=[1.0, 1.0, 0.0, 0.0]), "objects.apple.quat"),
        (lambda a: a["objects"]["apple"].update(pos=[1e300, 0.0, 0.0]), "objects.apple.pos[0]"),
    ],
)
def test_bad_numbers_in_an_annotation_file_are_exit_2(files, edit, field):
    root, good = files
    annotations = json.loads((root / "annotations.json").read_text())
    edit(annotations)
    (root / "annotations.json").write_text(json.dumps(annotations))
    result = _evaluate(root, json.dumps(good))
    assert result.exit_code == 2 and result.output.count("\n") == 1, result.output
    assert result.output.startswith(f"{root / 'annotations.json'}: {field}")


def test_a_bad_number_in_a_task_file_is_exit_2(files):
    root, good = files
    task = json.loads((root / "task.json").read_text())
    name = next(iter(task["objects"]))
    task["objects"][name]["quat"] = [0.0, 0.0, 0.0, 0.0]
    (root / "task.json").write_text(json.dumps(task))
    result = _evaluate(root, json.dumps(good))
    assert result.exit_code == 2 and result.output.count("\n") == 1, result.output
    assert result.output.startswith(f"{root / 'task.json'}: objects.{name}.quat: ")
