"""The rebuild flow runs DVC stages as Prefect tasks, in DAG order, against a real Prefect server."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.server


def _dvc_project(root: Path) -> None:
    """A tiny DVC project: ``b`` depends on ``a``'s output; ``c`` is independent."""
    (root / "dvc.yaml").write_text(
        textwrap.dedent("""\
        stages:
          b:
            cmd: python -c "open('b.txt','w').write(open('a.txt').read() + 'b')"
            deps: [a.txt]
            outs: [b.txt]
          a:
            cmd: python -c "open('a.txt','w').write('a')"
            outs: [a.txt]
          c:
            cmd: python -c "open('c.txt','w').write('c')"
            outs: [c.txt]
        """)
    )
    for cmd in (["git", "init", "-q"], [sys.executable, "-m", "dvc", "init", "-q"]):
        subprocess.run(cmd, cwd=root, check=True)


def test_rebuild_flow_reproduces_every_stage_in_order(tmp_path, prefect_server):
    _dvc_project(tmp_path)
    script = textwrap.dedent(f"""\
        import json, sys
        sys.path.insert(0, {str(ROOT)!r})
        from flows.rebuild import rebuild
        state = rebuild(root={str(tmp_path)!r}, return_state=True)
        print(json.dumps({{"state": state.type.value, "order": state.result()}}))
        """)
    proc = subprocess.run(
        [sys.executable, "-c", script], env=prefect_server, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["state"] == "COMPLETED"
    assert out["order"].index("a") < out["order"].index("b")
    assert sorted(out["order"]) == ["a", "b", "c"]
    assert (tmp_path / "b.txt").read_text() == "ab"
    assert (tmp_path / "dvc.lock").exists()

    # the flow run is recorded by the server, with one task run per stage
    query = textwrap.dedent("""\
        import asyncio, json
        from prefect.client.orchestration import get_client
        async def main():
            async with get_client() as client:
                flows = await client.read_flow_runs()
                tasks = await client.read_task_runs()
                artifacts = await client.read_artifacts()
                print(json.dumps({"flows": [f.state.type.value for f in flows],
                                  "tasks": sorted(t.name for t in tasks),
                                  "progress": [[a.key, a.data, a.description] for a in artifacts
                                               if a.type == "progress"]}))
        asyncio.run(main())
        """)
    proc = subprocess.run(
        [sys.executable, "-c", query], env=prefect_server, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    seen = json.loads(proc.stdout.strip().splitlines()[-1])
    assert "COMPLETED" in seen["flows"]
    assert {"dvc repro a", "dvc repro b", "dvc repro c"} <= set(seen["tasks"])
    # the flow run's progress over its stages (housebench.progress): every stage done
    [(_, done, line)] = [p for p in seen["progress"] if p[0] == "housebench-rebuild"]
    assert done == 100.0 and line.startswith("rebuild: 3/3 stage [")


def test_rebuild_flow_rejects_unknown_stage(tmp_path, prefect_server):
    _dvc_project(tmp_path)
    script = (
        f"import sys; sys.path.insert(0, {str(ROOT)!r}); from flows.rebuild import rebuild; "
        f"rebuild(root={str(tmp_path)!r}, stages=['nope'])"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], env=prefect_server, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode != 0
    assert "unknown stage(s) nope" in proc.stderr
