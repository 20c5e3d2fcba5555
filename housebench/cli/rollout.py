"""``housebench rollout cache info|prune``: the episode cache that lets a killed rollout resume."""

from __future__ import annotations

from pathlib import Path

import click

from housebench.io import dumps_json
from housebench.params import PARAMS

MB = 2**20


@click.group()
def rollout() -> None:
    """Rollout runs (the runs themselves are `dvc repro rollout` and the flows)."""


@rollout.group()
def cache() -> None:
    """The episode cache (params.yaml rollout.cache): every finished episode, kept so a re-run runs only what is
    missing."""


_PARAMS = click.option(
    "--params",
    "params_file",
    type=click.Path(path_type=Path, dir_okay=False),
    default=PARAMS,
    show_default=True,
    help="params.yaml whose rollout.cache names the cache (its dir is under this file's folder)",
)


def _open(params_file: Path):
    from housebench.params import load_section
    from housebench.rollout.cache import EpisodeCache
    from housebench.rollout.plan import RolloutParams

    settings = load_section("rollout", RolloutParams, params_file).cache  # a bad file: one line, exit 1
    return EpisodeCache(params_file.parent / settings.dir, settings.max_mb * MB)


def _summary(store) -> dict:
    sizes = [p.stat().st_size for p in store.entries()]
    mb = round(sum(sizes) / MB, 3)
    return {"dir": str(store.root), "entries": len(sizes), "mb": mb, "max_mb": store.max_bytes // MB}


@cache.command()
@_PARAMS
def info(params_file: Path) -> None:
    """Print the cache's folder, entries, size and bound (JSON)."""
    click.echo(dumps_json(_summary(_open(params_file))), nl=False)


@cache.command()
@_PARAMS
@click.option("--max-mb", type=click.FloatRange(min=0), default=None, help="prune to this size (default: the bound)")
@click.option("--all", "everything", is_flag=True, help="remove every entry")
def prune(params_file: Path, max_mb: float | None, everything: bool) -> None:
    """Remove the least recently used entries until the cache is within its bound (or --max-mb); print what is
    left (JSON, with the number removed)."""
    store = _open(params_file)
    limit = 0 if everything else None if max_mb is None else int(max_mb * MB)
    removed = store.prune(limit)
    click.echo(dumps_json(_summary(store) | {"removed": len(removed)}), nl=False)


COMMANDS = [rollout]
