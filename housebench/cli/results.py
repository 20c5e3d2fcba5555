"""``housebench report build``, ``housebench results query`` and ``housebench results schema``."""

from __future__ import annotations

import json
from pathlib import Path

import click

from housebench.paths import REPORT_DIR, RESULTS_DIR
from housebench.results.schema import SCHEMAS

LOCAL_REPORT = Path("report")  # the CLI's default: git-ignored, outside every DVC output
RUNS_READ = " union ".join(f"select distinct run from {table}" for table in SCHEMAS) + " order by run"
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
    default=LOCAL_REPORT,
    show_default=True,
    help="report directory (replaced atomically; never the DVC stage's results/report)",
)
@click.option(
    "--picture",
    "pictures",
    multiple=True,
    type=click.Path(path_type=Path, exists=True),
    help="a PNG for the Pictures section (repeatable; default: params.yaml report.scene_images, as the stage)",
)
@click.option("--run", "runs", multiple=True, help="report only this run (repeatable; default: every run)")
@click.option("--force", is_flag=True, help="replace --out even if it exists and housebench did not make it")
def build(results_dir: Path, out_dir: Path, pictures: tuple[Path, ...], runs: tuple[str, ...], force: bool) -> None:
    """Write index.html, plots and metrics.json for the runs under --results, with the same pictures,
    captions, control and asset health as the DVC stage.

    --out is replaced atomically; an existing folder housebench did not make is refused (--force
    replaces it), and so are the working folder, its ancestors and any folder holding a results table."""
    from housebench.io import check_output, dumps_json, foreign
    from housebench.report.build import build_report
    from housebench.report.inputs import report_inputs
    from housebench.report.pictures import inside

    if Path(out_dir).resolve() == REPORT_DIR.resolve():
        raise click.ClickException(
            f"{REPORT_DIR} is the DVC report stage's output: `dvc repro report`, or another --out"
        )
    if force and foreign(out_dir):
        click.echo(f"--force: replacing {out_dir} and everything in it (housebench did not make it)", err=True)
    try:
        check_output(Path(out_dir), [Path(results_dir) / table for table in SCHEMAS], guard=True, force=force)
        inputs = report_inputs(pictures=[inside(p) for p in pictures] or None) | {"runs": list(runs) or None}
        metrics = build_report(results_dir, out_dir, **inputs, guard=True, force=force)
    except (FileNotFoundError, ValueError) as err:
        raise click.ClickException(str(err)) from None
    click.echo(dumps_json(metrics), nl=False)


@click.group()
def results() -> None:
    """The results tables: episodes, conditions, events, choices, states (Parquet, partitioned by run)."""


@results.command("query")
@_RESULTS
@click.option("--csv", "as_csv", is_flag=True, help="print CSV instead of a text table")
@click.option("--run", "runs", multiple=True, help="read only this run (repeatable; default: every run)")
@click.argument("sql")
def query(results_dir: Path, as_csv: bool, runs: tuple[str, ...], sql: str) -> None:
    """Run SQL over the views episodes, conditions, events, choices and states, e.g.

    housebench results query "select task, avg(success::int) from episodes group by task"

    The runs it read are named on stderr (``runs read: ...``).
    """
    import duckdb

    from housebench.results.writer import connect

    try:
        con = connect(results_dir, list(runs) or None)
        frame = con.sql(sql).df()
        read = [row[0] for row in con.sql(RUNS_READ).fetchall()]
    except (duckdb.Error, FileNotFoundError, ValueError) as err:
        raise click.ClickException(str(err).splitlines()[0]) from None
    click.echo(f"runs read: {', '.join(read) or 'none'}", err=True)
    text = frame.to_csv(index=False) if as_csv else frame.to_string(index=False) + "\n"
    click.echo(text, nl=False)


@results.command("state")
@_RESULTS
@click.option("--run", required=True, help="the run the episode belongs to, e.g. repro")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("state"), show_default=True)
@click.argument("episode_id")
def state(results_dir: Path, run: str, out: Path, episode_id: str) -> None:
    """Write EPISODE_ID's initial and final states (``initial.json``, ``final.json``) from the states
    table, to judge its verdict again with ``housebench evaluate --state final.json --initial initial.json``."""
    from housebench.io import write_json
    from housebench.results.writer import connect

    try:
        con = connect(results_dir, [run])
        found = con.execute("select initial, final from states where episode_id = ?", [episode_id]).fetchall()
    except (FileNotFoundError, ValueError) as err:
        raise click.ClickException(str(err)) from None
    if not found or found[0][1] is None:
        raise click.ClickException(f"{results_dir}: no final state of episode '{episode_id}' in run '{run}'")
    initial, final = (json.loads(text) for text in found[0])
    write_json(out / "initial.json", initial)
    write_json(out / "final.json", final)
    click.echo(f"{out / 'initial.json'} {out / 'final.json'}")


@results.command("schema")
@click.argument("table", type=click.Choice(list(SCHEMAS)))
def schema(table: str) -> None:
    """Print the columns of TABLE with their types and meaning."""
    from housebench.results.schema import SCHEMA_VERSION, describe

    click.echo(f"{table} (schema version {SCHEMA_VERSION})")
    for name, type_, doc in describe(table):
        click.echo(f"  {name:<16} {type_:<22} {doc}")


COMMANDS = [report, results]
