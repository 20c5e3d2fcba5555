"""The one progress display: stage, done of total, rate and time left on stderr; inside a Prefect run, the same as
a progress artifact of that run; outside one, nothing sent to Prefect."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from housebench.progress import Progress, artifact_key, run_context, track
from tests.conftest import ROOT


def test_the_display_names_the_stage_done_of_total_and_rate(capsys):
    with Progress("settle", 5, "scene") as bar:
        for _ in range(5):
            bar.update()
    err = capsys.readouterr().err
    assert "settle" in err
    assert "5/5" in err
    assert "scene/s" in err


def test_rate_and_time_left_count_only_what_runs_now():
    bar = Progress("rollout", 5, "episode", done=3, display=False)  # 3 from the episode cache
    bar.start -= 10.0  # started 10 s ago
    bar.update()  # one episode run in 10 s, one left: 10 s more
    assert bar.line() == "rollout: 4/5 episode [00:10<00:10, 10.00s/episode]"  # tqdm: s/unit under 1/s
    assert bar.percent() == 80.0


def test_track_yields_every_item_and_writes_lines_above_the_bar(capsys):
    assert list(track(["a", "b", "c"], "annotate", "scene")) == ["a", "b", "c"]
    out = capsys.readouterr()
    assert "annotate" in out.err and "3/3" in out.err
    with Progress("verify", 1, "scenario") as bar:
        bar.write("verify open_drawer: passed")
        bar.update()
    assert "verify open_drawer: passed" in capsys.readouterr().out


def test_outside_a_prefect_run_nothing_is_sent():
    import prefect  # noqa: F401 -- imported, as in a flow's process, but no run is going on

    assert run_context() is None
    with Progress("plan", 2, "variant", display=False) as bar:
        assert bar.artifact is None
        bar.update(2)


def test_artifact_keys_are_what_prefect_accepts():
    assert artifact_key("crosscheck newton") == "housebench-crosscheck-newton"
    assert artifact_key("Settle_2") == "housebench-settle-2"


@pytest.mark.server
def test_inside_a_flow_the_progress_is_a_progress_artifact_of_the_run(prefect_server):
    script = textwrap.dedent(f"""\
        import asyncio, json, sys
        sys.path.insert(0, {str(ROOT)!r})
        from prefect import flow, task
        from prefect.runtime import flow_run
        from prefect.client.orchestration import get_client
        from housebench import progress
        from housebench.progress import Progress, track

        progress.PREFECT_EVERY_S = 0.0  # every update sent

        @task
        def episodes(n):
            with Progress("rollout", n, "episode", done=1, display=False) as bar:
                mid = bar.artifact
                for _ in range(n - 1):
                    bar.update()
            return str(mid)

        @flow
        def night():
            list(track(["a", "b"], "annotate", "scene", display=False))  # in the flow run itself
            return episodes(4), str(flow_run.id)

        artifact, run = night()

        async def main():
            async with get_client() as client:
                found = await client.read_artifacts()
                print(json.dumps({{"made": artifact, "run": run, "artifacts": [
                    {{"id": str(a.id), "key": a.key, "type": a.type, "data": a.data, "description": a.description,
                      "task_run": a.task_run_id is not None, "flow_run": str(a.flow_run_id)}}
                    for a in found]}}))
        asyncio.run(main())
        """)
    proc = subprocess.run(
        [sys.executable, "-c", script], env=prefect_server, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    mine = [a for a in out["artifacts"] if a["type"] == "progress" and a["flow_run"] == out["run"]]
    by_key = {a["key"]: a for a in mine}  # the server is the session's: other tests' flows made the same keys
    rollout = by_key["housebench-rollout"]
    assert rollout["id"] == out["made"]  # created at the start, then updated in place
    assert rollout["data"] == 100.0
    assert rollout["description"].startswith("rollout: 4/4 episode [")
    assert rollout["task_run"]
    annotate = by_key["housebench-annotate"]
    assert annotate["data"] == 100.0 and annotate["description"].startswith("annotate: 2/2 scene")
    assert not annotate["task_run"]  # the flow run's own
