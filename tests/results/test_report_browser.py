"""The report in a real headless browser (Debian's ``chromium``): a screenshot is taken, and the key
sections are found on the page the browser rendered, the at-a-glance box first on screen."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest
from PIL import Image

from housebench.report.build import build_report

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium: apt-get update && apt-get install -y chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1200,1600"]
GLANCE_BORDER = (0x22, 0x44, 0x66)  # page.CSS: .glance{border:2px solid #246}


def _chromium(*args: str) -> str:
    done = subprocess.run([CHROMIUM, *FLAGS, *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_report_renders_in_chromium(results_dir, tmp_path):
    build_report(results_dir, tmp_path / "report")
    page = (tmp_path / "report/index.html").as_uri()
    shot = tmp_path / "report.png"
    _chromium(f"--screenshot={shot}", page)
    pixels = np.asarray(Image.open(shot).convert("RGB"))
    assert pixels.shape[:2] == (1600, 1200) and pixels.std() > 10  # a rendered page, not a blank one
    border = (np.abs(pixels.astype(int) - GLANCE_BORDER).sum(-1) < 30).nonzero()[0]
    assert border.size and border.min() < 200  # the at-a-glance box is on the first screen, at the top

    dom = _chromium("--dump-dom", page)
    for section in ("glance", "tasks", "plots", "failures", "crashes", "assets", "provenance", "pictures", "episodes"):
        assert f'id="{section}"' in dom, section
    plots = len(list((tmp_path / "report").glob("*.png")))  # every plot the report drew is on the page
    assert plots >= 2 and dom.count("<img") == plots and dom.count("<details>") == 24
    glance = dom[dom.index('id="glance"') : dom.index('id="tasks"')]
    assert "(the control, state track)" in glance and "partial credit, not success" in glance
    assert "24 episodes" in glance
    board = dom[dom.index('id="leaderboard"') : dom.index('id="tasks"')]
    assert board.count("<svg") == 4 and "state track · test split" in board  # the intervals drawn
