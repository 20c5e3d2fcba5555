"""``housebench dataset``: record episodes step by step, replay them, export them as a dataset."""

from __future__ import annotations

import json
from pathlib import Path

import click

from housebench.cli.outputs import out_dir, out_option

FORMATS = ("lerobot", "hdf5")


@click.group()
def dataset() -> None:
    """Demonstrations: per-step recordings of episodes and the datasets made of them."""


@dataset.command()
@click.argument("task")
@click.argument("variant")
@click.option("--policy", default="scripted", show_default=True)
@click.option("--seed", default=0, show_default=True)
@out_option("dir", "recording folder (replaced as a whole)", required=True)
@click.option("--horizon-s", type=float, default=None, help="cut the episode short (default: the task's horizon)")
@click.option("--images", default="", help="head images WxH (e.g. 160x120); none by default")
@click.option("--every", default=1, show_default=True, help="one image every N control steps")
def record(
    task: str,
    variant: str,
    policy: str,
    seed: int,
    out: Path,
    horizon_s: float | None,
    images: str,
    every: int,
    force: bool,
) -> None:
    """Run POLICY on TASK VARIANT and record every control step into OUT; print the verdict."""
    from dataclasses import replace

    from housebench.demos.generate import make_job
    from housebench.demos.record import record_episode
    from housebench.demos.recorder import ImageOptions
    from housebench.params import load_params, load_section
    from housebench.paths import Layout
    from housebench.rollout.plan import RolloutParams
    from housebench.tasks.splits import SplitParams, split_of

    options = None
    if images:
        try:
            width, height = (int(v) for v in images.lower().split("x"))
            options = ImageOptions("head", (width, height), every)
        except ValueError as err:
            raise click.UsageError(f"--images {images!r}: {err if 'even' in str(err) else 'expected WxH'}") from None
    rollout = load_section("rollout", RolloutParams)
    split = split_of(task, variant, load_section("splits", SplitParams))
    entry = (load_params("policies") or {}).get(policy)
    job = make_job(Layout(), task, variant, policy, seed, rollout, entry, split=split)
    if horizon_s:
        job = replace(job, horizon_s=horizon_s)
    with out_dir(out, force) as tmp:
        summary = record_episode(job, tmp, options)
    click.echo(json.dumps({k: summary[k] for k in ("success", "steps", "sim_s", "wall_s")}))


@dataset.command()
@click.argument("recording", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--start", default=0, show_default=True, help="the step whose recorded state replay starts from")
@click.option(
    "--actions",
    type=click.Choice(["ctrl", "env", "env32"]),
    default="ctrl",
    show_default=True,
    help="ctrl: every actuator's recorded target; env/env32: the env's action vector (float64/float32)",
)
@click.option("--from-reset", is_flag=True, help="start from the seed's reset instead of the recorded state")
def replay(recording: Path, start: int, actions: str, from_reset: bool) -> None:
    """Replay RECORDING from a recorded state; print how far it drifts and the verdict."""
    from dataclasses import asdict

    from housebench.demos.recording import load_recording
    from housebench.demos.replay import replay as run_replay
    from housebench.paths import Layout

    try:
        result = run_replay(load_recording(recording), Layout(), start, not from_reset, actions)
    except ValueError as err:
        raise click.ClickException(str(err)) from None
    click.echo(json.dumps({**asdict(result), "bitwise": result.bitwise, "verdict_holds": result.verdict_holds}))


@dataset.command()
@click.argument("recordings", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@out_option("dir", "dataset folder, one dataset per task and layout in it (replaced as a whole)", required=True)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="lerobot", show_default=True)
@click.option("--failures", is_flag=True, help="export failed episodes too (next.success false): negatives")
@click.option("--track", type=click.Choice(["state", "vision"]), default="state", show_default=True)
def export(recordings: tuple[Path, ...], out: Path, fmt: str, failures: bool, track: str, force: bool) -> None:
    """Export the recorded episodes at or under RECORDINGS as datasets under OUT (one per task and layout)."""
    from housebench.demos.lerobot_v3 import export_lerobot
    from housebench.demos.recording import find_recordings

    if fmt == "hdf5":
        raise click.ClickException("--format hdf5: not written yet (LeRobot v3 is); see issue 34")
    try:
        with out_dir(out, force) as tmp:
            written = export_lerobot(find_recordings(list(recordings)), tmp, failures=failures, track=track)
    except ValueError as err:
        raise click.ClickException(str(err)) from None
    for summary in written:  # where each dataset now is, not where it was written
        click.echo(json.dumps({**summary, "path": str(out / Path(summary["path"]).name)}))


COMMANDS = [dataset]
