"""Outputs never destroy what housebench did not create (issue 16): refused places, --force, temp cleanup."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from housebench.cli import main
from housebench.io import MARK, OutputError, atomic_dir
from tests.conftest import ROOT


@pytest.fixture
def raw_apple(tmp_path) -> Path:
    from housebench.assets.standins import generate

    generate(("apple",), tmp_path / "raw", seed=0)
    return tmp_path / "raw" / "apple" / "result"


def _temps(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".tmp-" in p.name)


@pytest.mark.parametrize("out", [".", "..", "{cwd}", "{parent}", "/", "raw", "raw/apple"])
def test_import_refuses_the_working_folder_its_ancestors_and_the_input(raw_apple, tmp_path, monkeypatch, out):
    work = tmp_path / "work"
    work.mkdir()
    (work / "keep.txt").write_text("mine")
    monkeypatch.chdir(work if "raw" not in out else tmp_path)
    out = out.format(cwd=work, parent=tmp_path)
    result = CliRunner().invoke(main, ["asset", "import", str(raw_apple), "--out", out])
    assert result.exit_code == 1 and result.output.count("\n") == 1, result.output
    assert f"{out}: output: " in result.output
    assert (work / "keep.txt").read_text() == "mine" and (raw_apple / "apple.urdf").is_file()
    assert not _temps(tmp_path) and not _temps(work)


def test_import_refuses_a_folder_it_did_not_make_unless_forced(raw_apple, tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "thesis.tex").write_text("years of work")
    result = CliRunner().invoke(main, ["asset", "import", str(raw_apple), "--out", str(out)])
    assert result.exit_code == 1 and "was not made by housebench (--force replaces it)" in result.output
    assert (out / "thesis.tex").read_text() == "years of work"

    result = CliRunner().invoke(main, ["asset", "import", str(raw_apple), "--out", str(out), "--force"])
    assert result.exit_code == 0, result.output
    assert f"--force: replacing {out}" in result.output
    assert not (out / "thesis.tex").exists() and (out / "asset.usda").is_file() and (out / MARK).is_file()

    result = CliRunner().invoke(main, ["asset", "import", str(raw_apple), "--out", str(out)])
    assert result.exit_code == 0, result.output  # housebench made it: replaced without --force


def test_a_failed_rename_cleans_up_and_keeps_the_old_output(tmp_path, monkeypatch):
    target = tmp_path / "out"
    target.mkdir()
    (target / "old.txt").write_text("old")
    real_rename = Path.rename

    def rename(self, dest):
        if Path(dest) == target and ".tmp-" in self.name and not self.name.endswith("-old"):
            raise OSError("rename failed")
        return real_rename(self, dest)

    monkeypatch.setattr(Path, "rename", rename)
    with pytest.raises(OSError), atomic_dir(target) as tmp:
        (tmp / "new.txt").write_text("new")
    assert (target / "old.txt").read_text() == "old" and not _temps(tmp_path)


def test_the_temp_folder_of_a_killed_run_is_removed_by_the_next(tmp_path):
    target = tmp_path / "out"
    code = (
        "import sys, time; from housebench.io import atomic_dir\n"
        f"with atomic_dir({str(target)!r}) as tmp:\n"
        "    (tmp / 'partial').write_text('x'); print('ready', flush=True); time.sleep(60)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    assert proc.stdout.readline().strip() == "ready"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert len(_temps(tmp_path)) == 1  # what the killed run left
    with atomic_dir(target) as tmp:
        (tmp / "done").write_text("y")
    assert not _temps(tmp_path) and sorted(p.name for p in target.iterdir()) == ["done"]


def test_a_running_writer_keeps_its_temp_folder(tmp_path):
    live = tmp_path / f".out.tmp-{os.getpid()}-abc"
    live.mkdir()
    with atomic_dir(tmp_path / "out"):
        time.sleep(0)
    assert live.is_dir()


def test_refusals_are_output_errors(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(OutputError, match=r"^\.: output: the working folder"), atomic_dir(Path(".")):
        pass


def test_generate_raw_refuses_a_folder_that_is_not_a_raw_asset(tmp_path):
    (tmp_path / "apple").mkdir()
    (tmp_path / "apple" / "notes.txt").write_text("mine")
    result = CliRunner().invoke(main, ["asset", "generate-raw", "--out", str(tmp_path), "--only", "apple"])
    assert result.exit_code == 1 and "apple: output: exists and is not a raw asset" in result.output
    assert (tmp_path / "apple" / "notes.txt").read_text() == "mine"
    (tmp_path / "apple" / "notes.txt").unlink()
    for _ in range(2):  # an empty folder, then its own output, are replaced
        result = CliRunner().invoke(main, ["asset", "generate-raw", "--out", str(tmp_path), "--only", "apple"])
        assert result.exit_code == 0, result.output


def test_forcing_over_a_symlinked_output_replaces_the_link_not_what_it_points_at(raw_apple, tmp_path):
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "data.txt").write_text("keep")
    link = tmp_path / "out"
    link.symlink_to(precious)
    result = CliRunner().invoke(main, ["asset", "import", str(raw_apple), "--out", str(link), "--force"])
    assert result.exit_code == 0, result.output
    assert (precious / "data.txt").read_text() == "keep"
    assert not link.is_symlink() and (link / "asset.usda").is_file() and not _temps(tmp_path)
