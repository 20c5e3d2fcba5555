"""``housebench asset``: import one EmbodiedGen result, picture built assets, or generate the
stand-in raw set."""

from __future__ import annotations

import tempfile
from pathlib import Path

import click

from housebench.assets.errors import AssetError
from housebench.cli.errors import fail
from housebench.cli.outputs import out_file, out_option
from housebench.io import OutputError, atomic_dir, foreign, write_json
from housebench.params import load_section, sections
from housebench.sim.offscreen import use_offscreen_gl

# The mesh, USD and simulator libraries are imported by the commands that use them, so that
# ``housebench --help`` and every other command start without them.


@click.group()
def asset() -> None:
    """Asset factory: EmbodiedGen import, pictures and stand-in props."""


@asset.command("import")
@click.argument("result_dir", type=click.Path(path_type=Path))
@out_option("dir", "Output folder.", required=True)
@click.option("--spec", type=click.Path(path_type=Path), help="Spec table (assets/specs.yaml).")
@click.option(
    "--params",
    "params_file",
    type=click.Path(path_type=Path),
    help="params.yaml whose import/collision/physics sections to use (default: built-in).",
)
def import_(result_dir: Path, out: Path, spec: Path | None, params_file: Path | None, force: bool) -> None:
    """Import RESULT_DIR (an EmbodiedGen ``<name>/result`` folder) as a sim-ready asset in OUT.

    OUT is replaced atomically; an existing OUT that housebench did not make is refused (``--force``
    replaces it), and so are the working folder, its ancestors and RESULT_DIR's."""
    from housebench.assets.build import PhysicsParams, build_sim, collide
    from housebench.assets.collision import CollisionParams
    from housebench.assets.importer import ImportParams, asset_name, import_asset
    from housebench.assets.spec import load_specs

    name = asset_name(result_dir)
    try:
        entry = load_specs(spec).assets.get(name) if spec else None
        given = sections(params_file) if params_file else {}  # a section it lacks keeps the built-in one
        collision = (
            load_section("collision", CollisionParams, params_file) if "collision" in given else CollisionParams()
        )
        physics = load_section("physics", PhysicsParams, params_file) if "physics" in given else PhysicsParams()
        max_faces = (
            load_section("import", ImportParams, params_file) if "import" in given else ImportParams()
        ).visual_max_faces
        if force and foreign(out):
            click.echo(f"--force: replacing {out} and everything in it (housebench did not make it)", err=True)
        with tempfile.TemporaryDirectory() as work, atomic_dir(out, (result_dir,), True, force) as tmp:
            imported, hulls = Path(work) / "imported", Path(work) / "collision"
            imported.mkdir()
            hulls.mkdir()
            import_asset(result_dir, imported, entry, name=name, max_faces=max_faces)
            collide(imported, hulls, collision)
            annotation = build_sim(imported, hulls, tmp, physics)
            write_json(tmp / "annotation.json", annotation.model_dump(mode="json"))
    except (AssetError, OutputError) as err:
        raise fail(str(err)) from None
    click.echo(f"{name}: {out}")


@asset.command()
@click.argument("sim_dirs", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False, path_type=Path))
@out_option("file", "PNG to write.", default="assets.png", show_default=True)
@click.option("--size", default=240, show_default=True, help="Pixels per view.")
@click.option("--columns", default=4, show_default=True)
def preview(sim_dirs: tuple[Path, ...], out: Path, force: bool, size: int, columns: int) -> None:
    """Picture built assets (SIM_DIRS with an ``asset.usda``), loaded as the scenes load them: the
    visual mesh beside the collision hulls, one colour per hull."""
    use_offscreen_gl()
    from housebench.assets.preview import contact_sheet
    from housebench.sim.asset_preview import asset_picture
    from housebench.sim.registry import make_backend

    missing = [str(d / "asset.usda") for d in sim_dirs if not (d / "asset.usda").is_file()]
    if missing:
        raise fail(f"{missing[0]}: not found (is it a built asset folder?)")
    backend = make_backend("mujoco")
    pictures = {d.resolve().name: asset_picture(backend, d / "asset.usda", size) for d in sim_dirs}
    with out_file(out, force) as tmp:
        contact_sheet(pictures, columns).save(tmp)
    click.echo(f"{out}")


@asset.command("generate-raw")
@out_option("container", "Raw assets folder (a folder per prop).", "assets_raw", default="assets_raw")
@click.option("--seed", default=0, show_default=True)
@click.option(
    "--only",
    "names",
    multiple=True,
    help="Props to write (repeatable; default: the default set).",
)
def generate_raw(out: Path, seed: int, names: tuple[str, ...]) -> None:
    """Write the seeded stand-in props in EmbodiedGen's layout."""
    from housebench.assets.standins import DEFAULT_SET, FACTORIES, generate

    if unknown := sorted(set(names) - set(FACTORIES)):
        raise click.BadParameter(
            f"unknown prop '{unknown[0]}' (known: {', '.join(sorted(FACTORIES))})", param_hint="--only"
        )
    try:
        generate(names or DEFAULT_SET, out, seed)
    except OutputError as err:
        raise fail(str(err)) from None
    click.echo(f"wrote {', '.join(names or DEFAULT_SET)} to {out}")


COMMANDS = [asset]
