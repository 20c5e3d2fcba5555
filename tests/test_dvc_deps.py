"""Code is a dependency too: every project module a stage can import, at the top of a file or inside a
function (lazily), is covered by its dvc.yaml deps, so changing that code re-runs the stage.

The closure is read from the source with ``ast`` (every ``import`` statement anywhere in the file, but
those under ``if TYPE_CHECKING:``), so an import that only runs on one code path still counts.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT

STAGES = yaml.safe_load((ROOT / "dvc.yaml").read_text())["stages"]
PACKAGES = ("housebench", "stages")


def module_file(name: str) -> Path | None:
    """The project file of module ``name``, or None (not ours, or not a module)."""
    if name.split(".")[0] not in PACKAGES:
        return None
    base = ROOT / name.replace(".", "/")
    return next((p for p in (base.with_suffix(".py"), base / "__init__.py") if p.is_file()), None)


def _type_checking_only(tree: ast.AST) -> set[ast.AST]:
    skipped = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(n for child in node.body for n in ast.walk(child))
    return skipped


def _top_level(tree: ast.Module) -> set[ast.AST]:
    """The nodes outside every function body: what running the module itself executes."""
    inside = {n for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
              for n in ast.walk(node)}  # fmt: skip
    return {n for n in ast.walk(tree) if n not in inside}


def imported_names(path: Path, name: str, top_level_only: bool = False) -> tuple[set[str], set[str]]:
    """The modules ``path`` (module ``name``) may import, as (imported by name, parents only): a parent
    package only runs its ``__init__``, so of a parent only the module-level imports count."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = _type_checking_only(tree)
    allowed = _top_level(tree) if top_level_only else None
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if node in skipped or (allowed is not None and node not in allowed):
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            names = [f"{module}.{alias.name}" for alias in node.names]
            submodules = [n for n in names if module_file(n)]
            found.update(submodules)
            if len(submodules) < len(names):  # it takes a name defined in the module itself
                found.add(module)
    parents = {".".join(n.split(".")[: k + 1]) for n in found for k in range(n.count("."))}
    return found, parents - found


def closure(module: str) -> set[Path]:
    """Every project file reachable from ``module`` through imports (a parent package's functions are
    reached only when something imports from the package itself)."""
    todo, seen = [(module, False)], {}
    while todo:
        name, parent_only = todo.pop()
        path = module_file(name)
        if path is None or seen.get(name, True) is False or (name in seen and parent_only):
            continue
        seen[name] = parent_only
        direct, parents = imported_names(path, name, top_level_only=parent_only)
        todo.extend([(n, False) for n in direct] + [(n, True) for n in parents])
    return {module_file(name) for name in seen}


def test_closure_sees_imports_inside_functions():
    """The registry imports the MuJoCo backend inside ``make_backend`` (lazily), and through it the
    prim paths of ``housebench.usd.paths``: an import-time walk misses both, this one does not."""
    files = {str(p.relative_to(ROOT)) for p in closure("housebench.sim.registry")}
    assert {"housebench/sim/mujoco/compile.py", "housebench/usd/paths.py"} <= files


@pytest.mark.parametrize("stage", sorted(STAGES))
def test_stage_deps_cover_the_code_it_imports(stage):
    module = STAGES[stage]["cmd"].removeprefix("python -m ").split()[0]
    files = sorted(str(p.relative_to(ROOT)) for p in closure(module))
    deps = STAGES[stage]["deps"]
    missing = [f for f in files if not any(f == d or f.startswith(d.rstrip("/") + "/") for d in deps)]
    assert not missing, f"dvc.yaml stage '{stage}' can import code it does not depend on: {missing}"


@pytest.mark.parametrize("stage", sorted(STAGES))
def test_a_stage_that_simulates_depends_on_the_assets_it_loads(stage):
    """A change to an asset's physics (``body.xml``, ``asset.usda``) re-runs every stage that can load
    it into the simulator, even when that stage's inputs otherwise keep their bytes."""
    module, deps = STAGES[stage]["cmd"].removeprefix("python -m ").split()[0], STAGES[stage]["deps"]
    simulates = any("housebench/sim/mujoco/" in str(p) for p in closure(module))
    loads_props = any(d.startswith(("scenes/tasks", "scenes/settled")) for d in deps)
    if simulates and loads_props:
        assert "assets_built/sim" in deps, f"{stage} simulates assets it does not depend on"


@pytest.mark.parametrize("stage", sorted(STAGES))
def test_every_code_dep_exists(stage):
    """A code dep that names a moved or deleted file fails the stage in DVC: caught here instead."""
    gone = [d for d in STAGES[stage]["deps"] if d.startswith(PACKAGES) and not (ROOT / d).exists()]
    assert not gone, f"dvc.yaml stage '{stage}' depends on code that does not exist: {gone}"


def test_every_results_table_is_a_rollout_output_and_a_report_input():
    """A results table DVC does not track is neither restored by `dvc checkout` nor git-ignored."""
    from housebench.results.schema import ROLLOUT_TABLES

    tables = [f"results/{table}/run=repro" for table in ROLLOUT_TABLES]
    assert set(tables) <= set(STAGES["rollout"]["outs"]), "the rollout writes tables dvc.yaml does not list"
    assert set(tables) <= set(STAGES["report"]["deps"])
