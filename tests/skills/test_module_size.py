"""No module of ``housebench/skills/`` (its packages included) is over :data:`LIMIT` lines (issue 30: skills split by
job, one module per job). TODO (the lead): extend to ``housebench/policy/`` and ``housebench/skill_library/``."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 300
PACKAGES = ("housebench/skills",)


def too_long(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES, limit: int = LIMIT) -> list[str]:
    """``path: lines`` of every ``.py`` file under ``packages`` over ``limit`` lines."""
    found = []
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > limit:
                found.append(f"{path.relative_to(root)}: {lines}")
    return found


def test_no_skills_module_over_the_limit():
    assert too_long() == [], f"split these by job (at most {LIMIT} lines a module)"


def test_a_long_module_is_found(tmp_path):
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "short.py").write_text("x = 1\n" * 3)
    (tmp_path / "pkg" / "sub" / "long.py").write_text("x = 1\n" * 4)
    assert too_long(tmp_path, ("pkg",), limit=3) == ["pkg/sub/long.py: 4"]
