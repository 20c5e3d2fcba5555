"""``housebench policy serve``: serve a policy to rollouts in other processes or on other machines (exit 2 on a bad
policy, params file or address)."""

from __future__ import annotations

from pathlib import Path

import click

from housebench.jsonfile import SpecError, read_json


def _fail(message: str) -> None:
    click.echo(message, err=True)
    raise SystemExit(2)


@click.group()
def policy() -> None:
    """Policies: serve one over a websocket (``class: remote`` in params.yaml connects to it)."""


@policy.command()
@click.argument("policy_name", metavar="POLICY")
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on (0.0.0.0: every one)")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535), help="0 picks a free port")
@click.option(
    "--params",
    "params_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="a JSON object of the policy's own params",
)
@click.option(
    "--max-message-mb",
    default=16.0,
    show_default=True,
    type=click.FloatRange(0.01, 1024),
    help="largest message either way",
)
def serve(policy_name: str, host: str, port: int, params_file: Path | None, max_message_mb: float) -> None:
    """Serve POLICY (an import path 'module:Class', a built-in name or an entry point of 'housebench.policies')
    until interrupted; each connection is one episode with a fresh instance of the policy."""
    from housebench.names import printable
    from housebench.remote.serve import serve as run_server

    params = None
    if params_file is not None:
        try:
            params = read_json(params_file)
        except SpecError as err:
            _fail(str(err))
        if not isinstance(params, dict):
            _fail(f"{params_file}: a JSON object of the policy's params, not {type(params).__name__}")

    def ready(bound_host: str, bound_port: int) -> None:
        # one line a supervisor (or a test) can wait for; the port is the bound one when --port 0
        click.echo(f"serving {policy_name} on ws://{bound_host}:{bound_port}", err=False)

    try:
        run_server(policy_name, host, port, params, max_message_mb=max_message_mb, on_ready=ready)
    except ValueError as err:
        _fail(printable(str(err)))
    except OSError as err:  # the port is taken, the host is not ours
        _fail(f"--host/--port {host}:{port}: {printable(err.strerror or str(err))}")


COMMANDS = [policy]
