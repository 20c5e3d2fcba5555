"""Remote policies against real servers on localhost: ``python -m housebench policy serve`` in its own process gives
the same verdicts and event rows as the same policy in-process; servers that hang, die, answer garbage or 100 MB end
their own episode as a one-line crash row and the batch goes on; one server serves two clients at once; a track the
policy does not accept is refused at the handshake."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import queue
import selectors
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect
from websockets.sync.server import serve as ws_serve

from housebench.policy.base import PolicyParams
from housebench.remote import wire
from housebench.remote.client import RemoteParams, RemotePolicy, RemotePolicyError, check_reachable
from housebench.remote.serve import serve
from housebench.rollout.batch import run_batch
from housebench.rollout.episode import run_episode
from housebench.rollout.records import records
from tests.conftest import ROOT, built_job

EXAMPLE_DIR = ROOT / "examples/housebench_example_policy"
sys.path.insert(0, str(EXAMPLE_DIR))  # the example package, importable in this process as in the servers

from housebench_example_policy import ExampleParams, ExamplePolicy  # noqa: E402

EXAMPLE = "housebench_example_policy:ExamplePolicy"
PARAMS = {"stop_s": 1.5, "period_s": 0.5}  # short: a few control steps of a real scene
TASK, VARIANT = "put_fruit_in_container", "v000"


def start_server(policy: str, params: dict | None, tmp: Path) -> subprocess.Popen:
    """``python -m housebench policy serve POLICY --port 0``, started (:func:`wait_ready` waits for it)."""
    args = [sys.executable, "-m", "housebench", "policy", "serve", policy, "--port", "0"]
    if params is not None:
        (tmp / "params.json").write_text(json.dumps(params))
        args += ["--params", str(tmp / "params.json")]
    path = os.pathsep.join([str(ROOT), str(EXAMPLE_DIR), os.environ.get("PYTHONPATH", "")])
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": path}, cwd=tmp)
    return proc


def wait_ready(proc: subprocess.Popen, timeout_s: float = 60.0) -> str:
    """The address the server prints once it listens."""
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        if not sel.select(timeout_s):
            proc.kill()
            pytest.fail("policy server did not start")
    line = proc.stdout.readline()
    assert line.startswith("serving "), line
    return line.rsplit("ws://", 1)[1].strip()


@pytest.fixture(scope="module", autouse=True)
def booting(tmp_path_factory):
    """Two real servers, started as the module starts (they boot while the tests that need none run): the example
    policy and the scripted one (state track only)."""
    procs = {
        "example": start_server(EXAMPLE, PARAMS, tmp_path_factory.mktemp("example")),
        "scripted": start_server("scripted", None, tmp_path_factory.mktemp("scripted")),
    }
    try:
        yield procs
    finally:
        for proc in procs.values():
            proc.terminate()
            proc.wait(timeout=10)


@pytest.fixture(scope="module")
def servers(booting):
    """The servers' addresses, once they listen."""
    return {name: wait_ready(proc) for name, proc in booting.items()}


def job(policy: str, entry: dict, seed: int = 0, horizon_s: float = 3.0, track: str = "state"):
    return dataclasses.replace(built_job(TASK, VARIANT, policy, horizon_s), seed=seed, policy_entry=entry, track=track)


IN_PROCESS = {"class": EXAMPLE, **PARAMS}


def remote(address: str, **more) -> dict:
    return {"class": "remote", "address": address, "timeout_s": 10, **more}


def rows(outcome) -> tuple[dict, list[dict]]:
    """The episode row (minus what differs by run: wall time, start, host, class) and the event rows."""
    tables = records([outcome])
    episode = {k: v for k, v in tables["episodes"][0].items() if k not in ("wall_s", "started_at", "host")}
    episode.pop("policy_class", None), episode.pop("policy_version", None)
    return episode, tables["events"]


class Hostile:
    """A fake policy server that shakes hands and answers reset properly, then misbehaves on the second ``act``."""

    def __init__(self, how: str) -> None:
        self.how, self.stop = how, threading.Event()
        self.huge = bytes(100 << 20) if how == "huge" else b""
        self.server = ws_serve(self.session, "127.0.0.1", 0, max_size=1 << 24, compression=None)
        self.address = f"127.0.0.1:{self.server.socket.getsockname()[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def session(self, conn) -> None:
        with contextlib.suppress(ConnectionClosed):  # the client hangs up once it has had enough
            self.misbehave(conn)

    def misbehave(self, conn) -> None:
        welcome = {"type": "welcome", "protocol": wire.PROTOCOL, "housebench": "0", "policy": "hostile"}
        welcome |= {"class_path": "x:Y", "version": "", "tracks": ["state", "vision"]}
        conn.recv()
        conn.send(wire.pack(welcome))
        conn.recv()
        conn.send(wire.pack({"type": "ready", "events": []}))
        acts = 0
        while True:
            conn.recv()
            acts += 1
            if acts < 2:
                conn.send(wire.pack({"type": "action", "action": None, "events": []}))
            elif self.how == "hangs":
                self.stop.wait()
                return
            elif self.how == "dies":
                conn.socket.shutdown(socket.SHUT_RDWR)  # as a killed process: the peer sees the stream end
                return
            elif self.how == "garbage":
                conn.send(b"\xc1\x00 not msgpack \x1b[2J\n")
            elif self.how == "lies":
                lie = {"joints": {"j": float("nan")}, "base": None, "gripper": None, "stop": False}
                conn.send(wire.pack({"type": "action", "action": lie, "events": []}))
            elif self.how == "huge":
                conn.send(self.huge)
                return

    def close(self) -> None:
        self.stop.set()
        self.server.shutdown()


REASONS = {
    "hangs": "no answer in 0.5 s",
    "dies": "connection lost (the server went away without closing)",
    "garbage": "bad answer: answer: not msgpack",
    "lies": "bad answer: answer action: action.joints.j: Input should be a finite number",
    "huge": "connection lost (an answer over max_message_mb = 16)",
}


def test_hostile_servers_crash_their_own_episode_and_the_batch_goes_on():
    hostile = {how: Hostile(how) for how in REASONS}
    try:
        jobs = [job("example", IN_PROCESS, 0, horizon_s=0.5)]
        for how, server in hostile.items():
            # only the hang waits for the step's timeout; the others fail by what they send, however slow the machine
            jobs.append(job(how, remote(server.address, timeout_s=0.5 if how == "hangs" else 30), 0, horizon_s=1.0))
        jobs.append(job("example", IN_PROCESS, 1, horizon_s=0.5))
        outcomes = run_batch(jobs, "local", workers=1, progress=False)
    finally:
        for server in hostile.values():
            server.close()
    tables = records(outcomes)
    episodes = {row["policy"]: row for row in tables["episodes"] if row["policy"] != "example"}
    assert len(tables["episodes"]) == len(jobs)
    assert [o.crash for o in (outcomes[0], outcomes[-1])] == [None, None]
    for how, reason in REASONS.items():
        assert episodes[how]["status"] == "crash"
        assert episodes[how]["sim_s"] == pytest.approx(0.1)  # ended at the second act, where it misbehaved
        crash = episodes[how]["failure_reason"]
        address = hostile[how].address
        assert crash == f"RemotePolicyError: remote policy {address}: {reason}" or crash.startswith(
            f"RemotePolicyError: remote policy {address}: {reason}"
        ), crash
        assert "\n" not in crash and "\x1b" not in crash
    # the good episodes around them keep every event
    for seed in (0, 1):
        kinds = [r["kind"] for r in tables["events"] if r["episode_id"].endswith(f"/{seed}/example")]
        assert kinds[0] == "episode_start" and kinds[-1] == "episode_end" and "example_start" in kinds


def test_unreachable_server_is_one_line_before_anything_runs():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # bound, not listening: nobody answers
        with pytest.raises(RemotePolicyError, match=f"^remote policy 127.0.0.1:{port}: cannot connect: "):
            check_reachable({"address": f"127.0.0.1:{port}", "connect_timeout_s": 2})
    with pytest.raises(ValueError, match=r"^remote policy: address: '127.0.0.1' is not 'host:port'"):
        check_reachable({"address": "127.0.0.1"})
    with pytest.raises(ValueError, match=r"^remote policy: timeout_s: Input should be less than or equal to 600"):
        check_reachable({"address": "127.0.0.1:1", "timeout_s": 1e9})


class Failing:
    """A policy that fails on its third ``act`` with a two-line message (served in-thread below)."""

    name = "failing"
    Params = PolicyParams

    def __init__(self, params) -> None:
        self.acts = 0

    def reset(self, ctx, obs) -> None:
        ctx.log("failing_start", t=obs.time)

    def act(self, obs):
        self.acts += 1
        if self.acts == 3:
            raise RuntimeError("boom\nsecond line \x1b[2J")


def test_a_policy_that_raises_on_the_server_is_a_crash_row_and_the_server_serves_on():
    ready = queue.Queue()
    thread = threading.Thread(
        target=serve, args=(f"{__name__}:Failing", "127.0.0.1", 0), kwargs={"on_ready": lambda h, p: ready.put(p)}
    )
    thread.daemon = True  # serve_forever: ends with the test process
    thread.start()
    address = f"127.0.0.1:{ready.get(timeout=30)}"
    with connect(f"ws://{address}") as conn:  # a client that sends junk: an error answer, the server lives on
        conn.send(b"\xc1 junk")
        assert wire.unpack(conn.recv(timeout=10), wire.SERVER_MESSAGES, "answer").reason.startswith(
            "hello: not msgpack"
        )
    for _ in range(2):
        outcome = run_episode(job("failing", remote(address), horizon_s=1.0))
        assert outcome.crash == f"RemotePolicyError: remote policy {address}: the policy failed: RuntimeError: " + (
            "boom\\nsecond line \\x1b[2J"
        )
        assert [e[1] for e in outcome.events] == ["episode_start", "failing_start", "crash", "episode_end"]


def test_served_policy_gives_the_same_verdicts_and_events_as_in_process(servers):
    for seed, track in ((0, "state"), (1, "vision")):  # vision: head RGB-D images through the wire
        local = run_episode(job("example", IN_PROCESS, seed, track=track))
        served = run_episode(job("example", remote(servers["example"]), seed, track=track))
        assert local.crash is None and served.crash is None, (local.crash, served.crash)
        assert rows(served) == rows(local)
        kinds = [e[1] for e in served.events]
        assert kinds[:3] == ["episode_start", "example_start", "example_period"] and "example_stop" in kinds
        assert served.final == local.final  # bit-identical physics: the same actions, to the last bit


def test_one_server_serves_two_clients_at_once(servers):
    """Two clients step the same server from two threads at once; each gets its own fresh policy, so its actions
    and events are exactly those of the policy in-process on the same observations."""
    from housebench.state import Observation

    def observation(t: float, pan: float) -> Observation:
        return Observation(
            time=t,
            joints={"robot0:shoulder_pan_joint": pan},
            joint_velocities={},
            base=(1.0, 2.0, 0.5),
            ee_pos=(0.1, 0.2, 0.3),
            ee_quat=(1.0, 0.0, 0.0, 0.0),
            gripper_opening=0.05,
            finger_contacts={},
            objects={},
            parts={},
            temperatures_c={},
            state=None,
        )

    def drive(policy, pan: float, out: list, barrier: threading.Barrier | None) -> None:
        from housebench.policy.base import PolicyContext

        events: list = []
        policy.reset(
            PolicyContext(None, None, 0.1, 5.0, lambda kind, **d: events.append((kind, d))), observation(0, pan)
        )
        for step in range(1, 16):  # the last at 1.5 s: stop_s, where the policy stops and the link closes
            if barrier is not None:
                barrier.wait(timeout=10)
            out.append(policy.act(observation(step * 0.1, pan)))
        out.append(json.dumps(events, sort_keys=True))

    want = {}
    for pan in (0.1, -0.4):
        want[pan] = []
        drive(ExamplePolicy(ExampleParams(**PARAMS)), pan, want[pan], None)
    got = {pan: [] for pan in want}
    barrier = threading.Barrier(2)
    clients = [RemotePolicy(RemoteParams(address=servers["example"])) for _ in want]
    threads = [threading.Thread(target=drive, args=(c, pan, got[pan], barrier)) for c, pan in zip(clients, want)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert got == want
    assert want[0.1] != want[-0.4]
    assert [(c.served.policy, c.served.class_path, c.link) for c in clients] == [("example", EXAMPLE, None)] * 2


def test_one_remote_policy_opens_a_fresh_connection_each_episode(servers):
    from housebench.policy.base import PolicyContext
    from housebench.state import Observation

    obs = Observation(0.0, {}, {}, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), (1.0, 0.0, 0.0, 0.0), 0.0, {}, {}, {}, {}, None)
    policy, links = RemotePolicy(RemoteParams(address=servers["example"])), []
    for _ in range(2):
        events = []
        policy.reset(PolicyContext(None, None, 0.1, 5.0, lambda kind, _into=events, **d: _into.append(kind)), obs)
        links.append(policy.link)
        assert policy.act(obs) is not None and events == ["example_start", "example_period"]  # a fresh instance
    assert links[0] is not links[1] and links[0].conn.state.name == "CLOSED"
    policy.close()
    assert policy.link is None and links[1].conn.state.name == "CLOSED"


def test_handshake_refuses_a_track_the_policy_does_not_accept(servers):
    with pytest.raises(RemotePolicyError, match="refused: policy 'scripted' .* works on the state track, not 'vision'"):
        check_reachable({"address": servers["scripted"]}, track="vision")
    welcome = check_reachable({"address": servers["scripted"]}, track="state")
    assert (welcome.policy, welcome.tracks) == ("scripted", ("state",))
