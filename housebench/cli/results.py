"""``housebench report build``, ``housebench results query`` and ``housebench results schema``."""

from __future__ import annotations

import json
from pathlib import Path

import click

from housebench.cli.errors import fail
from housebench.cli.outputs import out_dir, out_option
from housebench.names import printable
from housebench.paths import REPORT_DIR, RESULTS_DIR
from housebench.results.query import MAX_SECONDS, MAX_TIMEOUT
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
@out_option(
    "dir",
    "report directory (replaced atomically; never the DVC stage's results/report)",
    "out_dir",
    default=LOCAL_REPORT,
    show_default=True,
)
@click.option(
    "--picture",
    "pictures",
    multiple=True,
    type=click.Path(path_type=Path, exists=True),
    help="a PNG for the Pictures section (repeatable; default: params.yaml report.scene_images, as the stage)",
)
@click.option("--run", "runs", multiple=True, help="report only this run (repeatable; default: every run)")
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
        raise fail(str(err)) from None
    click.echo(dumps_json(metrics), nl=False)


@click.group()
def results() -> None:
    """The results tables: episodes, conditions, events, choices, states (Parquet, partitioned by run)."""


@results.command("query")
@_RESULTS
@click.option("--csv", "as_csv", is_flag=True, help="print CSV instead of a text table")
@click.option("--run", "runs", multiple=True, help="read only this run (repeatable; default: every run)")
@click.option(
    "--timeout-s", default=MAX_SECONDS, show_default=True, type=click.IntRange(1, MAX_TIMEOUT), help="time limit"
)
@click.argument("sql")
def query(results_dir: Path, as_csv: bool, runs: tuple[str, ...], timeout_s: int, sql: str) -> None:
    """Run SQL over the views episodes, conditions, events, choices and states, e.g.

    housebench results query "select task, avg(success::int) from episodes group by task"

    The runs it read are named on stderr (``runs read: ...``). A result is at most 1000000 rows and
    128 MB (refused, not cut, beyond).
    """
    import duckdb

    from housebench.results.query import run_query
    from housebench.results.writer import connect

    try:
        con = connect(results_dir, list(runs) or None)
        table = run_query(con, sql, timeout_s)
        read = [row[0] for row in con.sql(RUNS_READ).fetchall()]
    except (duckdb.Error, FileNotFoundError, ValueError) as err:
        raise fail(str(err).splitlines()[0]) from None  # DuckDB's messages go on with context lines
    click.echo(f"runs read: {', '.join(read) or 'none'}", err=True)
    if table is None:  # a statement with no result
        return
    frame = table.to_pandas()
    text = frame.to_csv(index=False) if as_csv else frame.to_string(index=False) + "\n"
    click.echo(text, nl=False)


@results.command("state")
@_RESULTS
@click.option("--run", required=True, help="the run the episode belongs to, e.g. repro")
@out_option("dir", "folder to write (replaced as a whole)", default=Path("state"), show_default=True)
@click.argument("episode_id")
def state(results_dir: Path, run: str, out: Path, force: bool, episode_id: str) -> None:
    """Write EPISODE_ID's initial and final states (``initial.json``, ``final.json``) from the states
    table, to judge its verdict again with ``housebench evaluate --state final.json --initial initial.json``.

    Both states are checked (strict JSON, finite numbers, a valid state) before anything is written, and
    OUT gets both or neither."""
    from housebench.results.writer import connect

    try:
        con = connect(results_dir, [run])
        found = con.execute("select initial, final from states where episode_id = ?", [episode_id]).fetchall()
    except (FileNotFoundError, ValueError) as err:
        raise fail(str(err)) from None
    where = f"{results_dir}: episode '{printable(episode_id)}' of run '{printable(run)}'"
    if not found or found[0][1] is None:
        raise fail(f"{where}: no final state")
    try:
        texts = {name: _state_text(text, name) for name, text in zip(("initial", "final"), found[0], strict=True)}
    except ValueError as err:
        raise fail(f"{where}: {err}") from None
    with out_dir(out, force) as tmp:
        for name, text in texts.items():
            (tmp / f"{name}.json").write_text(text)
    click.echo(f"{out / 'initial.json'} {out / 'final.json'}")


def _state_text(text: str, name: str) -> str:
    """A stored state as canonical JSON, checked as ``housebench evaluate`` will read it: strict JSON
    (no NaN or infinity), a valid :class:`SimState` (finite, in range)."""
    from pydantic import ValidationError

    from housebench.io import dumps_json
    from housebench.jsonfile import one_line
    from housebench.state import SimState

    def refuse(word: str) -> float:
        raise ValueError(f"{name}: {word} is not a number (JSON has no NaN or infinity)")

    data = json.loads(text, parse_constant=refuse)
    try:
        SimState.model_validate(data)
    except ValidationError as err:
        raise ValueError(one_line(name, err)) from None
    return dumps_json(data)


@results.command("schema")
@click.argument("table", type=click.Choice(list(SCHEMAS)))
def schema(table: str) -> None:
    """Print the columns of TABLE with their types and meaning."""
    from housebench.results.schema import SCHEMA_VERSION, describe

    click.echo(f"{table} (schema version {SCHEMA_VERSION})")
    for name, type_, doc in describe(table):
        click.echo(f"  {name:<16} {type_:<22} {doc}")


COMMANDS = [report, results]
