"""The ``housebench`` command line: one group per area, each defined next to its library code."""

import click

from housebench import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="housebench")
def main() -> None:
    """housebench: asset and benchmark factory for household mobile manipulation."""


def _register() -> None:
    import importlib

    for module in ("asset", "scene", "task", "results"):
        try:
            group = importlib.import_module(f"housebench.cli.{module}")
        except ModuleNotFoundError as err:  # an area not built yet
            if err.name != f"housebench.cli.{module}":
                raise
            continue
        for command in group.COMMANDS:
            main.add_command(command)


_register()
