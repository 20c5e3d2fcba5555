"""One name rule for tasks, task objects and asset folders (issue 16)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from housebench.assets.errors import AssetError
from housebench.assets.spec import load_specs
from housebench.cli import main
from housebench.names import MAX_LEN, name_problem
from tests.conftest import ROOT


@pytest.mark.parametrize("name", ["apple", "book_blue", "v000", "Fridge2", "a" * MAX_LEN])
def test_good_names(name):
    assert name_problem(name) is None


@pytest.mark.parametrize(
    "name, why",
    [
        ("foo\n", "is not a name"),  # a regex `$` would match before the newline
        ("a" * (MAX_LEN + 1), "characters long"),
        ("a" * 240, "characters long"),
        ("task__v000", "is not a name"),  # `__` joins a task and its variant in file names
        ("_hidden", "is not a name"),
        ("trailing_", "is not a name"),
        ("put-fruit", "is not a name"),
        ("failed.json", "is not a name"),
        ("..", "is not a name"),
        ("äpfel", "is not a name"),
        ("", "is not a name"),
        ("all", "reserved"),
        ("failed", "reserved"),
        ("House", "reserved"),
    ],
)
def test_bad_names(name, why):
    assert why in name_problem(name)


def test_task_validate_refuses_a_file_named_with_a_newline(tmp_path):
    spec = tmp_path / "put_fruit_in_container\n.json"
    spec.write_text((ROOT / "tasks/put_fruit_in_container.json").read_text())
    result = CliRunner().invoke(main, ["task", "validate", str(spec)])
    assert result.exit_code == 2 and "file name: " in result.output and "is not a name" in result.output


@pytest.mark.parametrize("where", ["object", "asset"])
def test_task_object_and_asset_names_follow_the_rule(tmp_path, where):
    data = json.loads((ROOT / "tasks/put_fruit_in_container.json").read_text())
    first = next(iter(data["objects"]))
    if where == "object":
        data["objects"]["x" * 240] = data["objects"].pop(first)
    else:
        data["objects"][first]["asset"] = "apple|bad-name"
    spec = tmp_path / "long_task.json"
    spec.write_text(json.dumps(data))
    result = CliRunner().invoke(main, ["task", "validate", str(spec)])
    assert result.exit_code == 2 and result.output.count("\n") == 1, result.output
    assert f"{spec}: objects" in result.output


def test_spec_table_names_follow_the_rule(tmp_path):
    specs = tmp_path / "specs.yaml"
    specs.write_text("version: 1\nassets:\n  failed: {mass: 1.0}\n")
    with pytest.raises(AssetError, match=r"specs.yaml: assets.failed: .*reserved"):
        load_specs(specs)
