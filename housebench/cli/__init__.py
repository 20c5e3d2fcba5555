"""The ``housebench`` command line: one group per area, each defined in its own module here."""

import click

from housebench import __version__
from housebench.cli import asset, dataset, episode, policy, results, rollout, scene, skill, task


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="housebench")
def main() -> None:
    """housebench: asset and benchmark factory for household mobile manipulation.

    The pipeline itself runs with `dvc repro` (stages in dvc.yaml) or the Prefect flows in flows/;
    these commands are the library's entry points for one asset, one task, one scene or the results.
    """


for area in (asset, scene, task, skill, results, episode, rollout, policy, dataset):
    for command in area.COMMANDS:
        main.add_command(command)
