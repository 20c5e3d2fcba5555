"""``housebench episode``: run one episode of a built task variant and film it."""

from __future__ import annotations

import json
from pathlib import Path

import click

from housebench.cli.outputs import out_file, out_option
from housebench.sim.offscreen import use_offscreen_gl


@click.group()
def episode() -> None:
    """Run single episodes of a policy on the built scenes."""


@episode.command()
@click.argument("task")
@click.argument("variant")
@click.option(
    "--policy",
    default="scripted",
    show_default=True,
    help="a name of params.yaml's policies (its class and params), a built-in or an installed entry point",
)
@click.option("--track", type=click.Choice(["state", "vision"]), default="state", show_default=True)
@click.option("--seed", default=0, show_default=True)
@out_option("file", "mp4 to write", default="episode.mp4", show_default=True)
@click.option("--every", default=3, show_default=True, help="one frame every N control steps")
def video(task: str, variant: str, policy: str, track: str, seed: int, out: Path, force: bool, every: int) -> None:
    """Film TASK VARIANT (head camera | third person, mp4) and print the verdict."""
    use_offscreen_gl()
    from housebench.paths import Layout
    from housebench.policy.registry import policy_entries, resolve
    from housebench.rollout.video import record

    entry = policy_entries().get(policy)
    layout = Layout()
    try:
        resolve(policy, entry)
        layout.task_dir(task, variant)  # a task or variant that is no name (a path, ../) is refused here
    except ValueError as err:
        raise click.UsageError(str(err)) from None
    with out_file(out, force) as tmp:
        summary = record(layout, task, variant, policy, tmp, seed=seed, every=every, entry=entry, track=track)
    click.echo(json.dumps(summary))


COMMANDS = [episode]
