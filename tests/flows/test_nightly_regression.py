"""The nightly flow end to end against a real Prefect server, on the tests' small build: three tiny nights of the
scripted policy on put_fruit_in_container. The second night, unchanged, completes; the third, with a policy param
that gives the task up (a planted regression), fails, naming the task, with the trends artifact listing it."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from housebench.results.writer import read_table
from tests.builtdata import built
from tests.conftest import ROOT
from tests.flows.test_heldout import TASK, _project

NIGHTS = ("2026-01-01", "2026-01-02", "2026-01-03")
POLICY = {"class": "tests.flows.nightly_policy:Skipping", "attempts": 3, "skip": []}


def _params(root: Path, skip: list[str]) -> str:
    params = yaml.safe_load((root / "params.yaml").read_text())
    params["tasks"]["variants_per_task"] = 2
    params["rollout"] |= {"policies": ["mine"], "episodes_per_variant": 2}  # 4 episodes a night
    params["policies"]["mine"] = POLICY | {"skip": skip}
    params["splits"] |= {"val": 0.0, "test": 0.0}  # both variants in one split: one group of 4 a night
    params["nightly"] |= {"nights": 7, "alpha": 0.05, "min_episodes": 4, "adjust": "bh"}
    return yaml.safe_dump(params, sort_keys=False)


@pytest.mark.slow  # three nights: 6 variants sampled and settled, 8 scripted episodes; about 3 minutes here
@pytest.mark.server
def test_the_nightly_flow_flags_a_planted_regression_and_not_an_unchanged_night(tmp_path, prefect_server):
    built(TASK, "v000")  # the small build the project links to
    root = _project(tmp_path)
    unchanged, planted = _params(root, skip=[]), _params(root, skip=[TASK])
    (root / "params.yaml").write_text(unchanged)
    (tmp_path / "planted.yaml").write_text(planted)
    script = textwrap.dedent(f"""\
        import asyncio, json, shutil, sys
        sys.path.insert(0, {str(ROOT)!r})
        from prefect.client.orchestration import get_client
        from flows.nightly import nightly
        root = {str(root)!r}
        states = []
        for k, night in enumerate({list(NIGHTS)!r}):
            if k == 2:
                shutil.copy({str(tmp_path / "planted.yaml")!r}, root + "/params.yaml")
            state = nightly(night=night, root=root, return_state=True)
            states.append([state.type.value, state.message or ""])
        async def artifacts():
            async with get_client() as client:
                return [(a.key, a.data) for a in await client.read_artifacts()]
        print(json.dumps({{"states": states, "artifacts": asyncio.run(artifacts())}}))
        """)
    env = {**prefect_server, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-c", script], cwd=root, env=env, capture_output=True, text=True, timeout=900
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])

    (first, _), (second, _), (third, message) = out["states"]
    episodes = read_table(root / "results", "episodes").to_pylist()
    rates = {night: [e["success"] for e in episodes if night in e["run"]] for night in NIGHTS}
    assert (first, second) == ("COMPLETED", "COMPLETED"), rates  # the unchanged night is not flagged
    assert third == "FAILED", message
    assert message.startswith(f"nightly-2026-01-03-a1: regressed {TASK} (mine, state, train) "), message
    assert not any(rates["2026-01-03"]) and len(rates["2026-01-03"]) == 4, rates

    trends = read_table(root / "results", "trends").to_pylist()
    assert [(r["run"], r["test"], r["baseline_n"], r["flag"]) for r in trends] == [
        ("nightly-2026-01-01-a1", "none", 0, False),  # no earlier night
        ("nightly-2026-01-02-a1", "unpaired", 4, False),  # other variants than the first night's: pooled
        ("nightly-2026-01-03-a1", "unpaired", 8, True),
    ]
    notes = [data for key, data in out["artifacts"] if key == "housebench-nightly-trends"]
    assert any(f"1 regressed\n\n- **{TASK}** (mine, state" in n for n in notes), notes
    assert sum("no regression" in n for n in notes) == 2
    html = (root / "runs/nightly/2026-01-03-a1/report/index.html").read_text()
    assert f"1 regressed:</b> {TASK} (mine)" in html
