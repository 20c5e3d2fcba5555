"""Every skill tuning number is a field of a config model (housebench/skills/tuning/): the numeric literals left in
``housebench/skills/**/*.py`` and in the brains above them (``housebench/skill_library/``, ``housebench/policy/``,
listed as ``skill_library/<file>`` and ``policy/<file>``) are trivially geometric (0, 1, 2, halves), an index, a
rounding's digits, or listed in ``literals_allowed.txt`` (the few numbers that tune nothing: robot facts, geometry,
numerical epsilons, each with its reason). A literal not listed fails this test (make it a tuning field); a listed
one that is gone fails it too (shrink the list). ``python -m tests.skills.test_literals`` prints the list the code
has now."""

from __future__ import annotations

import ast
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKILLS = ROOT / "housebench" / "skills"
BRAINS = {"": SKILLS, "skill_library/": ROOT / "housebench/skill_library", "policy/": ROOT / "housebench/policy"}
ALLOWED = Path(__file__).with_name("literals_allowed.txt")
CONFIG = "tuning"  # the config models' package: every number there is a default
TRIVIAL = {0, 1, 2, 0.5}  # |value| of the trivially geometric numbers


def _skipped(tree: ast.AST) -> set[int]:
    """ids of constants that are no tuning: an index or slice bound, the digits of ``round(x, n)``."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript):
            skip |= {id(n) for n in ast.walk(node.slice) if isinstance(n, ast.Constant)}
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "round":
            skip |= {id(n) for arg in node.args[1:] for n in ast.walk(arg) if isinstance(n, ast.Constant)}
    return skip


def literals(path: Path) -> Counter[str]:
    """The numeric literals of ``path`` that need a name, counted by value (as written: ``repr``, sign dropped)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _skipped(tree)
    found: Counter[str] = Counter()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant) or isinstance(node.value, bool) or id(node) in skip:
            continue
        if isinstance(node.value, int | float) and abs(node.value) not in TRIVIAL:
            found[repr(abs(node.value))] += 1
    return found


def current() -> dict[tuple[str, str], int]:
    out = {}
    for prefix, folder in BRAINS.items():
        for path in sorted(folder.rglob("*.py")):
            name = prefix + path.relative_to(folder).as_posix()  # side/fit.py, skill_library/moves.py
            if name.split("/")[0] != CONFIG:
                for value, count in literals(path).items():
                    out[(name, value)] = count
    return out


def allowed() -> dict[tuple[str, str], int]:
    """``literals_allowed.txt``: ``<file> <value> <count>  # why`` per line."""
    out = {}
    for line in ALLOWED.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, value, count = line.split()
            out[(name, value)] = int(count)
    return out


def test_no_unnamed_tuning_number():
    found, listed = current(), allowed()
    new = [f"{n} {v} x{c - listed.get((n, v), 0)}" for (n, v), c in sorted(found.items()) if c > listed.get((n, v), 0)]
    assert not new, f"numeric literals in the skills or the brains not in a tuning model (skills/tuning/): {new}"
    gone = [
        f"{n} {v} (listed {c}, found {found.get((n, v), 0)})"
        for (n, v), c in listed.items()
        if c > found.get((n, v), 0)
    ]
    assert not gone, f"tests/skills/literals_allowed.txt lists more than the code has: shrink it: {gone}"


def test_scanner_sees_literals(tmp_path):
    source = tmp_path / "s.py"
    source.write_text("A = 0.12\nB = x[3] + round(y, 3) + 0.5 * z - 1\nC = -0.04\nD = True\n", encoding="utf-8")
    assert literals(source) == Counter({"0.12": 1, "0.04": 1})


if __name__ == "__main__":
    for (name, value), count in sorted(current().items()):
        sys.stdout.write(f"{name} {value} {count}\n")
