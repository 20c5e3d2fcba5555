"""``housebench skill``: the verb skill library's catalog, subgraph validation and planning.

Imports of the library happen inside the commands, so ``--help`` stays light.
"""

from __future__ import annotations

from pathlib import Path

import click

from housebench.cli.errors import exit_bad_input
from housebench.cli.outputs import out_dir, out_file, out_option

FILE = click.Path(dir_okay=False, path_type=Path)


def _fail(message: str) -> None:
    exit_bad_input(message)


def _world(task_path: Path | None, annotations: Path):
    from housebench.annotations.schema import SceneAnnotations
    from housebench.jsonfile import load_model
    from housebench.skill_library.contracts import World
    from housebench.skill_library.planner import world_of
    from housebench.tasks.spec import TaskVariant

    scene = load_model(SceneAnnotations, annotations)
    if task_path is None:
        return None, World(scene)
    variant = load_model(TaskVariant, task_path)
    return variant, world_of(variant, scene)


@click.group()
def skill() -> None:
    """The verb skill library: catalog for planners and models, subgraphs, the symbolic planner."""


@skill.command()
@out_option("dir", "folder to write (replaced as a whole)", default="catalog", show_default=True)
def catalog(out: Path, force: bool) -> None:
    """Write catalog.json, skills/<id>.json and their JSON Schemas under OUT."""
    from housebench.skill_library.catalog import write_catalog

    with out_dir(out, force) as tmp:
        written = write_catalog(tmp)
    click.echo(f"{out}/catalog.json: {len(written.skills)} skills, {len(written.relations)} relations")


@skill.command()
@click.argument("subgraph_file", type=FILE)
@click.option("--annotations", type=FILE, required=True, help="scene annotations to ground the names in")
@click.option("--task", "task_path", type=FILE, help="the variant's task.json (its roles and place aliases)")
def validate(subgraph_file: Path, annotations: Path, task_path: Path | None) -> None:
    """Check a skill subgraph against the library and ground it in a scene (exit 0, or 2 with one line)."""
    from housebench.jsonfile import SpecError
    from housebench.skill_library.subgraph import ground, load_subgraph

    try:
        sub = load_subgraph(subgraph_file)  # first: a plan over its size limit is refused before anything else
        _, world = _world(task_path, annotations)
        order = ground(sub, world, subgraph_file)
    except SpecError as err:
        _fail(str(err))
    click.echo(f"{subgraph_file}: ok ({len(order)} nodes: {' '.join(n.verb for n, _ in order)})")


@skill.command()
@click.option("--task", "task_path", type=FILE, required=True, help="a variant's task.json")
@click.option("--annotations", type=FILE, required=True, help="its scene annotations")
@out_option("file", "write the subgraph here (default: print it)")
def plan(task_path: Path, annotations: Path, out: Path | None, force: bool) -> None:
    """Decompose a task variant's goal into a skill subgraph with the symbolic planner."""
    from housebench.io import dumps_json
    from housebench.jsonfile import SpecError
    from housebench.skill_library.planner import PlanError
    from housebench.skill_library.planner import plan as make_plan

    try:
        variant, world = _world(task_path, annotations)
        sub = make_plan(variant, world)
    except (SpecError, PlanError) as err:
        _fail(str(err))
    if out:
        with out_file(out, force) as tmp:
            tmp.write_text(dumps_json(sub.dump()))
        click.echo(f"{out}: {len(sub.nodes)} nodes")
    else:
        click.echo(dumps_json(sub.dump()), nl=False)


COMMANDS = [skill]
