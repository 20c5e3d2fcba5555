"""Component scenario files: strict parsing with one-line errors naming the file and the key, and the shipped
sets (at least 5 components of at least 20 starts, each with its gymnasium id)."""

from __future__ import annotations

import re

import gymnasium as gym
import pytest

from housebench.components.envs import register
from housebench.components.scenario import components, load_component
from housebench.jsonfile import SpecError

GOOD = """version: 1
verb: pick
instruction: Pick up the $object.
horizon_s: 60
starts:
  - id: s000
    scene: put_fruit_in_container/v000
    args: {object: apple}
    robot: {base: [4.8, 1.9, -0.7], arm: tuck}
"""


def write(tmp_path, text: str, name: str = "pick_fruit.yaml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_a_good_file_loads(tmp_path):
    comp = load_component(write(tmp_path, GOOD))
    assert comp.name == "pick_fruit" and comp.gym_id == "housebench/pick-fruit-v1"
    assert comp.instruction(comp.spec.starts[0]) == "Pick up the apple."


@pytest.mark.parametrize(
    "old,new,message",
    [
        ("arm: tuck}", "arm: tuck, wheels: 4}", r"starts\[0\]\.robot\.wheels: Extra inputs are not permitted"),
        ("[4.8, 1.9, -0.7]", "[4.8, .nan, -0.7]", r"starts\[0\]\.robot\.base\[1\]: Input should be a finite number"),
        ("verb: pick", "verb: juggle", r"verb: unknown verb 'juggle'"),
        ("{object: apple}", "{object: apple, speed: 2}", r"starts\[0\]\.args: pick: unknown arguments \['speed'\]"),
        ("{object: apple}", "{}", r"starts\[0\]\.args: pick: argument 'object' is missing"),
        ("put_fruit_in_container/v000", "put_fruit_in_container", r"starts\[0\]\.scene: String should match"),
        ("horizon_s: 60", "horizon_s: 60\nhorizon_s: 70", r"duplicate key 'horizon_s'"),
        (
            "    args:",
            "    from: {state: a.json, step: 3}\n    args:",
            r"starts\[0\]\.from: recording and step go together",
        ),
    ],
)
def test_bad_files_are_one_line_errors_naming_file_and_key(tmp_path, old, new, message):
    path = write(tmp_path, GOOD.replace(old, new))
    with pytest.raises(SpecError) as err:
        load_component(path)
    text = str(err.value)
    assert "\n" not in text and text.startswith(str(path)), text
    assert re.search(message, text), text


def test_the_file_name_carries_the_verb(tmp_path):
    with pytest.raises(SpecError, match=r"verb: the file's name must start with 'pick_'"):
        load_component(write(tmp_path, GOOD, "grab_fruit.yaml"))


def test_start_ids_are_unique(tmp_path):
    text = GOOD + GOOD[GOOD.index("  - id") :]
    with pytest.raises(SpecError, match=r"starts\[1\]\.id: 's000' is given twice"):
        load_component(write(tmp_path, text))


def test_the_shipped_components_have_20_starts_each_and_gym_ids():
    shipped = components()
    assert len(shipped) >= 5
    assert {c.verb for c in shipped.values()} >= {"pick", "place", "navigate", "open", "close"}
    for comp in shipped.values():
        assert len(comp.spec.starts) >= 20, comp.name
        assert comp.spec.rule and comp.spec.horizon_s <= 120
    ids = register()
    assert "housebench/pick-item-v1" in ids and all(i in gym.registry for i in ids)
