"""Strict, small input files (issue 16, issue 11): YAML without duplicates or aliases, JSON of bounded
size and depth, regular files only, one line naming the file and the field."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from housebench.assets.errors import AssetError
from housebench.assets.spec import load_specs
from housebench.inputs import InputError, read_bytes
from housebench.jsonfile import MAX_DEPTH, SpecError, load_model
from housebench.params import sections
from housebench.tasks.spec import TaskSpec
from tests.conftest import ROOT

ALIAS_BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
    for i in range(20)
)


@pytest.mark.parametrize(
    "text, message",
    [
        ("house:\n  seed: 0\n  seed: 1\n", "line 3, column 3: duplicate key 'seed'"),
        ("house:\n  seed: 0\nhouse:\n  seed: 1\n", "line 3, column 1: duplicate key 'house'"),
        (ALIAS_BOMB, "line 1, column 4: anchors and aliases are not allowed"),
        ("house: &h {seed: 0}\n", "anchors and aliases are not allowed"),
        ("house: !!python/object/apply:os.system [ls]\n", "could not determine a constructor"),
    ],
)
def test_params_yaml_is_strict(tmp_path, text, message):
    path = tmp_path / "params.yaml"
    path.write_text(text)
    started = time.monotonic()
    with pytest.raises(SystemExit) as exit_:
        sections(path)
    assert str(exit_.value) == f"{path}: {message}" or str(exit_.value).startswith(f"{path}: ")
    assert message in str(exit_.value) and "\n" not in str(exit_.value)
    assert time.monotonic() - started < 5


def test_spec_table_yaml_is_strict(tmp_path):
    path = tmp_path / "specs.yaml"
    path.write_text("version: 1\nassets:\n  apple: {mass: 0.2}\n  apple: {mass: 9.0}\n")
    with pytest.raises(AssetError, match=r"specs.yaml: line 4, column 3: duplicate key 'apple'$"):
        load_specs(path)


def test_the_repo_yaml_passes_the_ci_check():
    """CI runs this check before anything reads params.yaml (DVC expands aliases and keeps the last of
    duplicate keys with a loader of its own)."""
    files = [ROOT / "params.yaml", ROOT / "assets/specs.yaml"]
    proc = subprocess.run(
        [sys.executable, "-m", "housebench.yamlfile", *map(str, files)], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    assert "housebench.yamlfile params.yaml assets/specs.yaml" in (ROOT / ".ci/run").read_text()


def test_the_ci_check_fails_on_a_bomb(tmp_path):
    bomb = tmp_path / "params.yaml"
    bomb.write_text(ALIAS_BOMB)
    proc = subprocess.run([sys.executable, "-m", "housebench.yamlfile", str(bomb)], capture_output=True, text=True)
    assert proc.returncode == 1 and proc.stderr == f"{bomb}: line 1, column 4: anchors and aliases are not allowed\n"


@pytest.mark.parametrize("kind", ["fifo", "dev_zero", "folder", "too_big"])
def test_readers_refuse_what_is_not_a_small_regular_file(tmp_path, kind):
    path = tmp_path / "params.yaml"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev_zero":
        path.symlink_to("/dev/zero")
    elif kind == "folder":
        path.mkdir()
    else:
        path.write_text("a: 1\n")
        os.truncate(path, 65 << 20)  # sparse: over the YAML and the JSON limits, without the disk
    expected = "over the limit" if kind == "too_big" else "not a regular file"
    with pytest.raises(SystemExit, match=expected):
        sections(path)  # a FIFO would hang and /dev/zero would fill the memory
    with pytest.raises(InputError, match=f"^{path}: file: "):
        read_bytes(path, 1 << 20)
    task = tmp_path / "task.json"
    os.rename(path, task)
    with pytest.raises(SpecError, match=f"^{task}: file: .*{expected}"):
        load_model(TaskSpec, task)


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"version": 1, "x": NaN}', "NaN is not a number"),
        ('{"version": 1, "x": -Infinity}', "-Infinity is not a number"),
        ('{"version": 1, "x": 1e999}', "1e999 overflows to infinity"),
        ('{"version": true}', "version: True is not supported"),
        ('{"version": 1.0}', "version: 1.0 is not supported"),
        ('{"version": "1"}', "version: '1' is not supported"),
        ("[" * 100_000 + "]" * 100_000, f"nested deeper than {MAX_DEPTH} levels"),
        ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), f"nested deeper than {MAX_DEPTH} levels"),
        ('{"a": "x"}' + "\udcff", "not UTF-8 text"),
    ],
)
def test_json_numbers_versions_and_depth(tmp_path, text, message):
    path = tmp_path / "task.json"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    with pytest.raises(SpecError) as err:
        load_model(TaskSpec, path)
    assert str(err.value).startswith(f"{path}: ") and message in str(err.value) and "\n" not in str(err.value)


def test_json_is_read_as_utf8_whatever_the_locale(tmp_path):
    data = json.loads((ROOT / "tasks/put_fruit_in_container.json").read_text(encoding="utf-8"))
    data["doc"]["description"] = "Äpfel in die Schüssel: 🍎"
    path = tmp_path / "put_fruit_in_container.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    code = f"from housebench.tasks.spec import load_spec; print(load_spec({str(path)!r}).doc.description)"
    env = {
        "PYTHONPATH": str(ROOT),
        "LANG": "C",
        "LC_ALL": "C",
        "PYTHONUTF8": "0",
        "PYTHONCOERCECLOCALE": "0",
        "PYTHONIOENCODING": "utf-8",
    }
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, encoding="utf-8")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "Äpfel in die Schüssel: 🍎"


def test_scene_commands_refuse_what_is_not_a_regular_file(tmp_path):
    from click.testing import CliRunner

    from housebench.cli import main

    fifo = tmp_path / "scene.usda"
    os.mkfifo(fifo)
    for command in (["scene", "render", str(fifo)], ["scene", "check", str(fifo)]):
        result = CliRunner().invoke(main, command)  # USD would block on the FIFO forever
        assert result.exit_code == 1 and f"{fifo}: file: not a regular file" in result.output
    result = CliRunner().invoke(main, ["scene", "render", str(fifo), "--width", "100000"])
    assert result.exit_code == 2 and "100000 is not in the range 16<=x<=8192" in result.output


def test_skill_library_files_are_strict_too(tmp_path):
    from housebench.skill_library.library import load_library
    from housebench.skill_library.subgraph import SubgraphError, load_subgraph
    from housebench.skill_library.verification import load_scenarios

    library = tmp_path / "skills.yaml"
    library.write_text("version: 1\nversion: 1\nskills: []\n")
    with pytest.raises(SpecError, match=r"skills.yaml: line 2, column 1: duplicate key 'version'$"):
        load_library(library)
    scenarios = tmp_path / "scenarios.yaml"
    scenarios.write_text(ALIAS_BOMB)
    with pytest.raises(SpecError, match="anchors and aliases are not allowed"):
        load_scenarios(scenarios)
    plan = tmp_path / "plan.json"
    os.mkfifo(plan)
    with pytest.raises(SubgraphError, match=r"plan.json: file: not a regular file$"):
        load_subgraph(plan)
