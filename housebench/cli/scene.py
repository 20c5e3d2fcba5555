"""``housebench scene``: render and check composed USD scenes (house, task or settled layers)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from housebench.cli.errors import fail
from housebench.cli.outputs import out_file, out_option
from housebench.sim.offscreen import use_offscreen_gl

# Checked by the commands (regular file, bounded size; a missing one named printably), not by click:
# click's "does not exist" echoes the name raw, control characters and all.
STAGE = click.Path(dir_okay=False, path_type=Path)


def _check_stage(stage: Path) -> None:
    """STAGE must be a regular file of bounded size (USD opens the layers it references itself)."""
    from housebench.inputs import MAX_USD, InputError, check_file

    try:
        check_file(stage, MAX_USD)
    except InputError as err:
        raise fail(str(err)) from None


@click.group()
def scene() -> None:
    """Inspect USD scenes with the MuJoCo backend."""


@scene.command()
@click.argument("stage", type=STAGE)
@out_option("file", "PNG to write", default="preview.png", show_default=True)
@click.option("--camera", default=None, help="named camera, e.g. robot0:head_camera_rgb")
@click.option("--width", default=960, show_default=True, type=click.IntRange(16, 8192))
@click.option("--height", default=720, show_default=True, type=click.IntRange(16, 8192))
def render(stage: Path, out: Path, force: bool, camera: str | None, width: int, height: int) -> None:
    """Render STAGE offscreen to a PNG (a free overview camera unless --camera)."""
    _check_stage(stage)
    use_offscreen_gl()
    from PIL import Image

    from housebench.sim.mujoco import MujocoBackend

    sim = MujocoBackend().load(stage)
    with out_file(out, force) as tmp:
        Image.fromarray(sim.render(camera, width, height)).save(tmp)
    click.echo(f"{out}")


@scene.command()
@click.argument("stage", type=STAGE)
def check(stage: Path) -> None:
    """Validate STAGE (pxr.UsdValidation), compile it in MuJoCo, list its props, robot joints and
    articulated parts."""
    _check_stage(stage)
    from pxr import Usd, UsdValidation

    from housebench.sim.mujoco import MujocoBackend

    registry = UsdValidation.ValidationRegistry()
    errors = UsdValidation.ValidationContext(registry.GetOrLoadAllValidators()).Validate(Usd.Stage.Open(str(stage)))
    for error in errors:
        click.echo(f"usd: {error.GetMessage()}", err=True)
    from housebench.robot.fetch import PREFIX

    state = MujocoBackend().load(stage).get_state()
    robot = [j for j in state.joints if j.startswith(PREFIX)]
    click.echo(
        json.dumps(
            {
                "usd_errors": len(errors),
                "props": sorted(state.objects),
                "robot_joints": len(robot),
                "articulated": sorted(set(state.joints) - set(robot)),
            },
            indent=2,
        )
    )
    if errors:
        raise SystemExit(1)


@scene.command()
@click.argument("stage", type=STAGE)
@out_option("file", "JSON to write", default="state.json", show_default=True)
@click.option(
    "--task",
    "task_path",
    type=STAGE,
    help="the variant's task.json: temperatures from its thermal setup (else none)",
)
def state(stage: Path, out: Path, force: bool, task_path: Path | None) -> None:
    """Write the state of STAGE as loaded (a settled scene: its rest poses) for ``housebench evaluate``."""
    from housebench.io import dumps_json

    _check_stage(stage)
    from housebench.jsonfile import SpecError, load_model
    from housebench.sim.mujoco import MujocoBackend
    from housebench.tasks.spec import TaskVariant

    now = MujocoBackend().load(stage).get_state()
    if task_path is not None:
        try:
            thermal = load_model(TaskVariant, task_path).thermal
        except SpecError as err:
            click.echo(str(err), err=True)
            raise SystemExit(2) from None
        if thermal is not None:
            temperatures = {n: float(thermal.initial_c.get(n, thermal.ambient_c)) for n in sorted(now.objects)}
            now = now.model_copy(update={"temperatures_c": temperatures})
    with out_file(out, force) as tmp:
        tmp.write_text(dumps_json(now.model_dump(mode="json")))
    click.echo(f"{out}")


COMMANDS = [scene]
