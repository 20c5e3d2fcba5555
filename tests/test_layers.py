"""Dependencies point down: the package order is written once, in DESIGN.md ("Package order"), and every
import in the library (imports inside functions included) goes from a package to a lower one."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.conftest import ROOT

FOUNDATIONS = "foundations"


def package_order(design: Path = ROOT / "DESIGN.md") -> dict[str, int]:
    """Package -> floor, from the fenced block after DESIGN.md's "## Package order" (top floor first)."""
    block = re.search(r"## Package order.*?```\n(.*?)```", design.read_text(), re.S)
    assert block, "DESIGN.md has no '## Package order' section with a fenced block"
    floors = [line.split("#")[0].split() for line in block.group(1).splitlines() if line.split("#")[0].strip()]
    return {name: len(floors) - i for i, floor in enumerate(floors) for name in floor}


def imports(path: Path) -> list[tuple[int, str]]:
    """Every absolute import in ``path`` (line, module), wherever it stands."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


def package(module: str, root: Path, order: dict[str, int]) -> str:
    """``housebench.tasks.goal`` -> ``tasks``; a top-level module is its own floor when the order names it
    (``housebench.state``), else a foundation (``housebench.io``)."""
    name = module.split(".")[1] if "." in module else FOUNDATIONS
    return name if name in order or (root / "housebench" / name).is_dir() else FOUNDATIONS


def violations(root: Path, order: dict[str, int]) -> list[str]:
    bad = []
    for path in sorted((root / "housebench").rglob("*.py")):
        rel = path.relative_to(root)
        own = package(".".join(rel.with_suffix("").parts), root, order)
        if own not in order:
            bad.append(f"{rel}: package '{own}' is not in DESIGN.md's package order")
            continue
        for line, module in imports(path):
            if not module.startswith("housebench."):
                continue
            other = package(module, root, order)
            if other != own and order.get(other, len(order)) >= order[own]:
                bad.append(f"{rel}:{line}: {own} imports {module} ({other} is not below {own})")
    return bad


def test_every_import_points_down():
    assert violations(ROOT, package_order()) == []


def test_an_upward_import_inside_a_function_is_caught(tmp_path):
    (tmp_path / "housebench" / "state").mkdir(parents=True)
    (tmp_path / "housebench" / "tasks").mkdir()
    (tmp_path / "housebench" / "tasks" / "goal.py").write_text("from housebench.state import SimState\n")
    (tmp_path / "housebench" / "state" / "x.py").write_text("def f():\n    import housebench.tasks.goal\n")
    order = {"tasks": 2, "state": 1, FOUNDATIONS: 0}
    found = violations(tmp_path, order)
    assert len(found) == 1 and "state imports housebench.tasks.goal" in found[0]


@pytest.mark.parametrize("folder", ["stages", "flows"])
def test_stages_and_flows_import_only_the_library(folder):
    bad = [
        f"{path.relative_to(ROOT)}:{line}: {module}"
        for path in sorted((ROOT / folder).glob("*.py"))
        for line, module in imports(path)
        if module.split(".")[0] in {"stages", "flows"}
    ]
    assert bad == []
