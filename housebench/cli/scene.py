"""``housebench scene``: render and check composed USD scenes (house, task or settled layers)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from housebench.sim.offscreen import use_offscreen_gl


@click.group()
def scene() -> None:
    """Inspect USD scenes with the MuJoCo backend."""


@scene.command()
@click.argument("stage", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default="preview.png",
    show_default=True,
    help="PNG to write",
)
@click.option("--camera", default=None, help="named camera, e.g. robot0:head_camera_rgb")
@click.option("--width", default=960, show_default=True)
@click.option("--height", default=720, show_default=True)
def render(stage: Path, out: Path, camera: str | None, width: int, height: int) -> None:
    """Render STAGE offscreen to a PNG (a free overview camera unless --camera)."""
    use_offscreen_gl()
    from PIL import Image

    from housebench.sim.mujoco import MujocoBackend

    sim = MujocoBackend().load(stage)
    Image.fromarray(sim.render(camera, width, height)).save(out)
    click.echo(f"{out}")


@scene.command()
@click.argument("stage", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def check(stage: Path) -> None:
    """Validate STAGE (pxr.UsdValidation), compile it in MuJoCo, list its props, robot joints and
    articulated parts."""
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


COMMANDS = [scene]
