"""``housebench report build``, ``housebench results query`` and ``housebench results schema``."""

from __future__ import annotations

from pathlib import Path

import click

from housebench.paths import REPORT_DIR, RESULTS_DIR
from housebench.results.schema import SCHEMAS

_RESULTS = click.option(
    "--results",
    "results_dir",
    type=click.Path(path_type=Path),
    default=RESULTS_DIR,
    show_default=True,
    help="results directory",
)


@click.group()
def report() -> None:
    """The benchmark report (reads only the results Parquet)."""


@report.command("build")
@_RESULTS
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path),
    default=REPORT_DIR,
    show_default=True,
    help="report directory (replaced atomically)",
)
@click.option(
    "--scene",
    "scenes",
    multiple=True,
    type=click.Path(path_type=Path, exists=True),
    help="scene preview PNG for the gallery (repeatable)",
)
@click.option("--force", is_flag=True, help="replace --out even if it exists and housebench did not make it")
def build(results_dir: Path, out_dir: Path, scenes: tuple[Path, ...], force: bool) -> None:
    """Write index.html, plots and metrics.json for every run under --results.

    --out is replaced atomically; an existing folder housebench did not make is refused (--force
    replaces it), and so are the working folder, its ancestors and any folder holding a results table."""
    from housebench.io import dumps_json, foreign
    from housebench.report.build import build_report

    if force and foreign(out_dir):
        click.echo(f"--force: replacing {out_dir} and everything in it (housebench did not make it)", err=True)
    try:
        metrics = build_report(results_dir, out_dir, scenes, guard=True, force=force)
    except (FileNotFoundError, ValueError) as err:
        raise click.ClickException(str(err)) from None
    click.echo(dumps_json(metrics), nl=False)


@click.group()
def results() -> None:
    """The results tables: episodes, conditions, events, choices (Parquet, partitioned by run)."""


@results.command("query")
@_RESULTS
@click.option("--csv", "as_csv", is_flag=True, help="print CSV instead of a text table")
@click.argument("sql")
def query(results_dir: Path, as_csv: bool, sql: str) -> None:
    """Run SQL over the views episodes, conditions, events and choices (all runs), e.g.

    housebench results query "select task, avg(success::int) from episodes group by task"
    """
    import duckdb

    from housebench.results.writer import connect

    try:
        frame = connect(results_dir).sql(sql).df()
    except (duckdb.Error, FileNotFoundError, ValueError) as err:
        raise click.ClickException(str(err).splitlines()[0]) from None
    text = frame.to_csv(index=False) if as_csv else frame.to_string(index=False) + "\n"
    click.echo(text, nl=False)


@results.command("schema")
@click.argument("table", type=click.Choice(list(SCHEMAS)))
def schema(table: str) -> None:
    """Print the columns of TABLE with their types and meaning."""
    from housebench.results.schema import SCHEMA_VERSION, describe

    click.echo(f"{table} (schema version {SCHEMA_VERSION})")
    for name, type_, doc in describe(table):
        click.echo(f"  {name:<16} {type_:<22} {doc}")


COMMANDS = [report, results]
