"""Every command with an ``--out`` follows the one output rule (issue 33): walked from the click tree, so a
new writer (``policy serve``, ``dataset export``, ...) is checked without being named here."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from housebench.cli import main
from housebench.cli.outputs import OutputPath
from housebench.io import MARK


def _writers(group: click.Group = main, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], click.Command]]:
    found = []
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            found += _writers(command, (*path, name))
        elif any("--out" in p.opts for p in command.params):
            found.append(((*path, name), command))
    return found


WRITERS = _writers()
IDS = [" ".join(path) for path, _ in WRITERS]


def _out(command: click.Command) -> click.Option:
    return next(p for p in command.params if "--out" in p.opts)


def test_the_walk_finds_the_writers():
    assert {"asset import", "asset preview", "scene render", "scene state", "skill catalog", "skill plan"} <= set(IDS)
    assert {"report build", "results state", "episode video"} <= set(IDS)


@pytest.mark.parametrize("command", [c for _, c in WRITERS], ids=IDS)
def test_every_out_option_is_the_output_rule(command):
    out = _out(command)
    assert isinstance(out.type, OutputPath), f"{command.name}: --out must be housebench.cli.outputs.out_option"
    if out.type.kind != "container":  # a folder written into guards each entry itself (asset generate-raw)
        force = next(p for p in command.params if "--force" in getattr(p, "opts", ()))
        assert force.is_flag and force.is_eager  # read before --out, so the rule knows it


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """A scratch project (a dvc.yaml, its tasks/ and results/episodes/) as the working folder, with things
    housebench did not make: a file and a folder, and links out of it."""
    root = tmp_path / "project"
    for folder in ("tasks", "results/episodes", "mine"):
        (root / folder).mkdir(parents=True)
    (root / "dvc.yaml").write_text("stages: {}\n")
    (root / "tasks" / "keep.json").write_text("{}")
    (root / "mine" / "thesis.tex").write_text("years of work")
    (root / "notes.txt").write_text("mine")
    outside = tmp_path / "outside.txt"
    outside.write_text("outside")
    (root / "link_file").symlink_to(outside)
    (root / "link_dir").symlink_to(tmp_path)
    monkeypatch.chdir(root)
    return root


def _snapshot(root: Path) -> dict[str, str]:
    files = sorted(p for p in root.parent.rglob("*") if p.is_file() and not p.is_symlink())
    return {str(p): p.read_text() for p in files}


def _hostile(kind: str) -> list[str]:
    common = [".", "..", "tasks", "tasks/new", "results/episodes", "results/episodes/new", "link_file", "link_dir"]
    return common + ([] if kind == "container" else ["mine", "notes.txt"])  # foreign, or of the wrong kind


CASES = [
    (path, command, bad)
    for path, command in WRITERS
    for bad in _hostile(_out(command).type.kind if isinstance(_out(command).type, OutputPath) else "file")
]


@pytest.mark.parametrize(("path", "command", "bad"), CASES, ids=[f"{' '.join(p)} --out {b}" for p, _, b in CASES])
def test_every_writer_refuses_every_hostile_out_before_any_work(project, path, command, bad):
    """``--out`` comes first, so the rule answers before any other argument is even read: one line, exit 1,
    nothing changed anywhere (inside the project or out of it)."""
    before = _snapshot(project)
    result = CliRunner().invoke(main, [*path, "--out", bad])
    assert result.exit_code == 1, result.output
    assert result.output.count("\n") == 1 and f"{bad}: output: " in result.output, result.output
    assert _snapshot(project) == before
    assert not [p for p in project.parent.rglob("*") if ".tmp-" in p.name]


def test_the_rule_lets_a_writer_replace_its_own_output(project):
    """A folder output gets the marker, a file output the attribute: the next run replaces them without --force
    (skill catalog and skill plan's file rule, through the real commands)."""
    for _ in range(2):
        result = CliRunner().invoke(main, ["skill", "catalog", "--out", "catalog"])
        assert result.exit_code == 0, result.output
    assert (project / "catalog" / MARK).is_file() and (project / "catalog" / "catalog.json").is_file()
    result = CliRunner().invoke(main, ["skill", "catalog", "--out", "mine", "--force"])
    assert result.exit_code == 0 and not (project / "mine" / "thesis.tex").exists()
