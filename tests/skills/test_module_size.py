"""No module of ``housebench/skills/``, ``housebench/skill_library/`` or ``housebench/policy/`` (their packages
included) is over :data:`LIMIT` lines (one module per job), and ``policy/`` holds under :data:`POLICY_LIMIT` lines in
all (the policies only step the brains below them)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 300
POLICY_LIMIT = 400
PACKAGES = ("housebench/skills", "housebench/skill_library", "housebench/policy")


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


def test_the_policies_are_thin():
    lines = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in (ROOT / "housebench/policy").rglob("*.py"))
    assert lines < POLICY_LIMIT, f"policy/ holds {lines} lines: the brains belong in skill_library/"


def test_a_long_module_is_found(tmp_path):
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "short.py").write_text("x = 1\n" * 3)
    (tmp_path / "pkg" / "sub" / "long.py").write_text("x = 1\n" * 4)
    assert too_long(tmp_path, ("pkg",), limit=3) == ["pkg/sub/long.py: 4"]
