"""params.yaml: a bad section is one line naming the file and the key, never a traceback."""

from __future__ import annotations

import subprocess
import sys

import pytest
from pydantic import BaseModel, ConfigDict

from housebench.params import load_keys, load_section
from tests.conftest import ROOT


class Section(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seed: int


@pytest.mark.parametrize(
    "text, loader, message",
    [
        ("s: {seed: 1, sed: 2}\n", lambda p: load_section("s", Section, p), "s.sed: Extra inputs are not permitted"),
        ("s: {seed: x}\n", lambda p: load_section("s", Section, p), "s.seed: Input should be a valid integer"),
        ("s: {seed: 1, sed: 2}\n", lambda p: load_keys("s", ("seed",), p), "s: unknown key 'sed'"),
        ("s: {}\n", lambda p: load_keys("s", ("seed",), p), "s: missing key 'seed'"),
        ("t: {seed: 1}\n", lambda p: load_keys("s", ("seed",), p), "missing section 's'"),
        ("s: [\n", lambda p: load_keys("s", ("seed",), p), "not valid YAML"),
    ],
)
def test_bad_sections_are_one_line_errors(tmp_path, text, loader, message):
    path = tmp_path / "params.yaml"
    path.write_text(text)
    with pytest.raises(SystemExit) as exit_:
        loader(path)
    assert str(exit_.value).startswith(f"{path}: ") and message in str(exit_.value)
    assert "\n" not in str(exit_.value)


@pytest.mark.parametrize(
    "stage", ["import_assets", "house", "settle", "report", "rollout", "droptest", "plan", "verify"]
)
def test_every_stage_refuses_an_unknown_key(tmp_path, stage):
    section = {"import_assets": "import"}.get(stage, stage)
    text = (ROOT / "params.yaml").read_text().replace(f"\n{section}:\n", f"\n{section}:\n  typo_key: 1\n", 1)
    (tmp_path / "params.yaml").write_text(text)
    proc = subprocess.run(
        [sys.executable, "-m", f"stages.{stage}"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": ""},
        timeout=120,
    )
    assert proc.returncode != 0
    assert proc.stderr.strip().splitlines()[-1].startswith("params.yaml: ") and "typo_key" in proc.stderr
    assert "Traceback" not in proc.stderr
