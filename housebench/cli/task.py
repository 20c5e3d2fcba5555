"""``housebench task validate`` and ``housebench evaluate`` (exit 0 ok, 2 bad input, 3 not success)."""

from __future__ import annotations

from pathlib import Path

import click

from housebench.annotations.schema import SceneAnnotations
from housebench.cli.errors import exit_bad_input
from housebench.io import dumps_json
from housebench.jsonfile import SpecError, load_model
from housebench.paths import ANNOTATIONS_DIR
from housebench.state import SimState
from housebench.tasks.evaluator import GoalError
from housebench.tasks.evaluator import evaluate as judge
from housebench.tasks.spec import TaskVariant, load_spec

FILE = click.Path(dir_okay=False, path_type=Path)


def _fail(message: str) -> None:
    exit_bad_input(message)


@click.group()
def task() -> None:
    """Task specs."""


@task.command()
@click.argument("spec", type=FILE)
def validate(spec: Path) -> None:
    """Check a task spec file (exit 0, or 2 with a one-line error)."""
    try:
        loaded = load_spec(spec)
    except SpecError as err:
        _fail(str(err))
    click.echo(f"{spec}: ok ({len(loaded.objects)} objects)")


@click.command()
@click.option("--task", "task_path", type=FILE, required=True, help="a variant's task.json")
@click.option("--state", type=FILE, required=True, help="a SimState JSON file")
@click.option("--annotations", type=FILE, help="scene annotations [annotations/scenes/<task>__<variant>.json]")
@click.option("--initial", type=FILE, help="the episode's initial state [the annotated poses]")
def evaluate(task_path: Path, state: Path, annotations: Path | None, initial: Path | None) -> None:
    """Judge a state against a variant's goal; print the verdict (exit 0 success, 3 not, 2 bad input)."""
    try:
        variant = load_model(TaskVariant, task_path)
        annotations = annotations or ANNOTATIONS_DIR / "scenes" / f"{variant.task}__{variant.variant}.json"
        verdict = judge(
            variant.goal,
            load_model(SimState, state),
            load_model(SceneAnnotations, annotations),
            load_model(SimState, initial) if initial else None,
        )
    except SpecError as err:
        _fail(str(err))
    except GoalError as err:  # the state does not fit the task or its annotations
        _fail(f"{state} against {task_path}: {err}")
    click.echo(dumps_json(verdict.model_dump(mode="json")), nl=False)
    raise SystemExit(0 if verdict.success else 3)


COMMANDS = [task, evaluate]
