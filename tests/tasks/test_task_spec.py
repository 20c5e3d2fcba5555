"""Task spec schema v1: strict at every level, versioned, one-line errors naming file and key."""

from __future__ import annotations

import copy
import json

import pytest
from task_world import SPEC

from housebench.jsonfile import SpecError
from housebench.tasks.goal import Inside, On
from housebench.tasks.spec import load_spec

BASE = json.loads(SPEC.read_text())


def _write(tmp_path, data, name="put_fruit_in_container.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def test_first_task_loads():
    spec = load_spec(SPEC)
    assert spec.instruction == "Put the fruit in the container on the table."
    assert {n: (o.asset, o.role) for n, o in spec.objects.items()} == {
        "apple": ("apple", "fruit"),
        "bowl": ("bowl", "container"),
    }
    inside, on, _ = spec.goal.all_of
    assert isinstance(inside, Inside) and inside.bind == "container" and inside.items == ["all:fruit"]
    assert isinstance(on, On) and on.items == ["$container"] and on.upright


@pytest.mark.parametrize(
    "where, mutate, key",
    [
        ("top", lambda d: d.update(colour=1), "colour"),
        ("object", lambda d: d["objects"]["apple"].update(colour=1), "objects.apple.colour"),
        ("goal", lambda d: d["goal"].update(colour=1), "goal.colour"),  # the key's JSON path, beside all_of
        ("condition", lambda d: d["goal"]["all_of"][0].update(colour=1), "goal.all_of[0].colour"),
        (
            "nested",
            lambda d: d["goal"]["all_of"].append(
                {"any_of": [{"predicate": "upright", "items": ["apple"], "colour": 1}]}
            ),
            "goal.all_of[3].any_of[0].colour",
        ),
    ],
)
def test_unknown_key_rejected_at_every_level(tmp_path, where, mutate, key):
    data = copy.deepcopy(BASE)
    mutate(data)
    path = _write(tmp_path, data)
    with pytest.raises(SpecError) as err:
        load_spec(path)
    message = str(err.value)
    assert "\n" not in message and message.startswith(f"{path}: {key}: Extra inputs are not permitted")


@pytest.mark.parametrize(
    "mutate, needle",
    [
        (lambda d: d.update(version=2), "version: 2 is not supported"),
        (lambda d: d.pop("version"), "version: None is not supported"),
        (lambda d: d["goal"]["all_of"][1].update(predicate="onn"), "goal.all_of[1]: expected all_of, any_of"),
        (lambda d: d["goal"]["all_of"][1].update(items=["$cont"]), "'$cont' is used before it is bound"),
        (lambda d: d["goal"]["all_of"][0].update(items=["all:fruits"]), "names no object or role 'fruits'"),
        (lambda d: d["objects"]["apple"].update(absent_probability=1.0), "objects.apple.absent_probability"),
        (lambda d: d["objects"]["apple"].update(supports=[]), "objects.apple: give either supports or inside"),
        (lambda d: d["objects"]["apple"].update(inside="bowl"), "objects.apple: give either supports or inside"),
        (
            lambda d: d["objects"]["apple"].update(inside="bowl", supports=[]),
            "'bowl' must be a required object declared before",
        ),
        (
            lambda d: d["objects"]["apple"].update(near={"object": "bowl", "distance": 0.3}),
            "objects.apple.near: 'bowl' is not an object declared before",
        ),
        (lambda d: d["objects"]["apple"].update(near={"object": "bowl", "distance": 0}), "objects.apple.near.distance"),
        (lambda d: d["objects"]["apple"].update(overhang=-0.1), "objects.apple.overhang"),
        (
            lambda d: d["objects"]["apple"].update(keep_out=["table"], inside="fridge", supports=[]),
            "keep_out goes with supports",
        ),
        (lambda d: d.update(thermal={"initial_c": {"pear": 4.0}}), "thermal.initial_c: ['pear'] are not objects"),
        (lambda d: d.update(thermal={"rate": 1}), "thermal.rate: Extra inputs"),
        (lambda d: d.update(places={"bookcase": []}), "places.bookcase"),
        (lambda d: d.update(doc={"description": "x", "randomizations": []}), "doc.success: Field required"),
        (
            lambda d: d["goal"]["all_of"].append({"predicate": "closed", "parts": ["all"], "items": ["apple"]}),
            "goal.all_of[3].items: Extra",
        ),
        (lambda d: d["objects"]["apple"].update(asset="apple|"), "objects.apple.asset"),
    ],
)
def test_bad_specs_fail_with_one_line(tmp_path, mutate, needle):
    data = copy.deepcopy(BASE)
    mutate(data)
    with pytest.raises(SpecError) as err:
        load_spec(_write(tmp_path, data))
    assert needle in str(err.value) and "\n" not in str(err.value)


def test_unreadable_and_badly_named_files(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    with pytest.raises(SpecError, match="broken.json"):
        load_spec(broken)
    with pytest.raises(SpecError, match="file name: .put-fruit. is not a name"):
        load_spec(_write(tmp_path, BASE, name="put-fruit.json"))
