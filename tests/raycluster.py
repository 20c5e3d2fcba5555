"""A Ray cluster of several nodes on this one machine, for the cluster test and ``bench/bench_cluster.py``.

Each node is its own ``ray start --block`` process with its own temp folder (Ray 2.49+ takes ``--temp-dir`` per
node) and free ports, all on loopback, token authentication on (a fresh token in the nodes' and the driver's
environment; ``~/.ray`` is never written). The head node has 0 CPUs, so every task runs on a worker node.

A worker node cannot see the repository:

- it is started from an empty folder, by a Python of its own (a venv without pip) that sees the driver's installed
  dependencies through a ``.pth`` line, which imports them but never runs their ``.pth`` files: housebench's
  editable install is not among its modules, so ``import housebench`` fails there unless Ray ships the package;
- where the machine lets us (``unshare --mount``: root), it runs in a mount namespace in which the repository's
  folder is an empty tmpfs (the dependencies bind-mounted elsewhere first), so no path of the checkout, its scenes
  or its assets exists for it. :attr:`LocalCluster.hidden` says whether that held.

:meth:`LocalCluster.stop` ends each node's process group by its id (SIGTERM: ``ray start --block`` stops its own
node's processes; SIGKILL after :data:`STOP_S`), then any process still naming this cluster's folder, by pid. Never
``ray stop``: it stops every Ray on the machine by name, other users' too.
"""

from __future__ import annotations

import os
import pickle
import secrets
import shutil
import signal
import site
import socket
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parents[1]
START_S = 120.0  # seconds a node gets to say it started
STOP_S = 30.0  # seconds a stopping node gets before its processes are killed
OBJECT_STORE_BYTES = 256 * 2**20  # each node's object store (Ray's default is 30 % of memory, per node)
RAY_CLI = "import sys; from ray.scripts.scripts import main; sys.argv[0] = 'ray'; sys.exit(main())"
STARTED = "Ray runtime started"
DRIVE_S = 1800  # seconds a driver process may take
PROBES = 4  # probe tasks spread over the worker nodes


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def can_hide() -> bool:
    """Whether this process may make a mount namespace and mount a tmpfs in it."""
    if shutil.which("unshare") is None or shutil.which("mount") is None:
        return False
    probe = ["unshare", "--mount", "--propagation", "private", "mount", "-t", "tmpfs", "none", tempfile.gettempdir()]
    return subprocess.run(probe, capture_output=True).returncode == 0


class LocalCluster:
    """A head node and ``workers`` worker nodes of ``cpus`` CPUs each, under a fresh folder in the temp dir."""

    def __init__(self, workers: int = 1, cpus: int = 1, hide: bool = True) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="hbray-"))  # short: Ray's socket paths live below it
        self.cpus, self.port = cpus, free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.hidden = hide and can_hide()
        self.token = secrets.token_hex(32)
        self.nodes: list[tuple[str, subprocess.Popen, Path]] = []
        self.empty = self.root / "empty"  # every node's working folder
        self.empty.mkdir()
        try:
            self.python = self._worker_python()
            self._wait([self._start("head", sys.executable, ["--head", "--port", str(self.port), "--num-cpus", "0"])])
            self.add_workers(workers)
        except BaseException:
            self.__exit__()
            raise

    @property
    def env(self) -> dict[str, str]:
        """The environment of the nodes and of a driver that joins them."""
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "RAY_ADDRESS", "RAY_AUTH_TOKEN_PATH")}
        auth = {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": self.token, "RAY_DISABLE_USAGE_STATS": "1"}
        return {**env, **auth, "RAY_GRACEFUL_SHUTDOWN_DRAIN_TIMEOUT_S": "0"}  # SIGTERM: stop now, no drain

    def _worker_python(self) -> Path:
        """A venv of its own whose site-packages points at the dependencies (see the module's doc)."""
        home = self.root / "wenv"
        venv.create(home, with_pip=False, symlinks=True)
        deps = [Path(p) for p in site.getsitepackages() if Path(p).is_dir()]
        if self.hidden:
            mounts = [self.root / "deps" / str(i) for i in range(len(deps))]
            for path in mounts:
                path.mkdir(parents=True)
            self.binds = list(zip(deps, mounts, strict=True))
            deps = mounts
        purelib = Path(
            subprocess.check_output(
                [home / "bin" / "python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], text=True
            ).strip()
        )
        (purelib / "housebench-deps.pth").write_text("".join(f"{p}\n" for p in deps))
        return home / "bin" / "python"

    def _ports(self) -> list[str]:
        return [
            *("--node-ip-address", "127.0.0.1", "--object-store-memory", str(OBJECT_STORE_BYTES)),
            *("--node-manager-port", str(free_port()), "--object-manager-port", str(free_port())),
            *("--dashboard-agent-listen-port", str(free_port()), "--dashboard-agent-grpc-port", str(free_port())),
            *("--runtime-env-agent-port", str(free_port()), "--metrics-export-port", str(free_port())),
        ]

    def _start(self, name: str, python: str | Path, args: list[str], hide: bool = False) -> int:
        """Start a node (not waiting for it): its index in :attr:`nodes`."""
        temp = self.root / name
        (temp / "tmp").mkdir(parents=True)
        command = [str(python), "-c", RAY_CLI, "start", *args, "--temp-dir", str(temp), "--block"]
        command += ["--disable-usage-stats", *self._ports()]
        if name == "head":
            command += ["--include-dashboard", "false"]
        if hide:  # in a mount namespace: the dependencies bound elsewhere, the repository an empty tmpfs
            script = [f"mount --bind '{src}' '{dst}'" for src, dst in self.binds]
            script += [f"mount -t tmpfs -o size=1m none '{ROOT}'", 'exec "$@"']
            command = ["unshare", "--mount", "--propagation", "private", "sh", "-ec", "; ".join(script), "sh", *command]
        log = temp / "node.log"
        with log.open("w") as out:
            proc = subprocess.Popen(
                command,
                cwd=self.empty,
                env={**self.env, "TMPDIR": str(temp / "tmp")},
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: stopped by that id
            )
        self.nodes.append((name, proc, log))
        return len(self.nodes) - 1

    def _wait(self, started: list[int]) -> None:
        """Wait for these nodes to say they started; one that ends or takes longer than :data:`START_S` stops the
        cluster and raises, with its log."""
        deadline = time.monotonic() + START_S
        for name, proc, log in (self.nodes[i] for i in started):
            while STARTED not in log.read_text(errors="replace"):
                if proc.poll() is not None or time.monotonic() > deadline:
                    text = log.read_text(errors="replace")[-3000:]
                    self.stop()
                    raise RuntimeError(f"ray node {name} did not start (exit {proc.poll()}):\n{text}")
                time.sleep(0.5)

    def drive(self, jobs: list, ray_params: Any, workers: int | None = None) -> dict[str, Any]:
        """Run ``jobs`` through ``run_batch(..., "ray")`` from a driver process of its own joined to this cluster
        (Ray keeps the authentication token of the first cluster a process meets): :func:`drive`'s answer."""
        given, answer = self.root / "drive-in.pkl", self.root / "drive-out.pkl"
        given.write_bytes(pickle.dumps((jobs, ray_params, workers)))
        command = [sys.executable, "-m", "tests.raycluster", str(given), str(answer)]
        done = subprocess.run(command, cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=DRIVE_S)
        if done.returncode != 0:
            raise RuntimeError(
                f"the driver failed (exit {done.returncode}):\n{done.stdout[-2000:]}{done.stderr[-4000:]}"
            )
        return pickle.loads(answer.read_bytes())

    def add_workers(self, n: int = 1) -> None:
        """``n`` more worker nodes of :attr:`cpus` CPUs each, started at once from the empty folder by the worker
        Python; back when each has started."""
        args = ["--address", self.address, "--num-cpus", str(self.cpus)]
        self._wait([self._start(f"w{len(self.nodes)}", self.python, args, hide=self.hidden) for _ in range(n)])

    def stop(self) -> list[int]:
        """Every node stopped (workers first); the pids of processes that had to be killed after the nodes' own
        shutdown (none, normally)."""
        for _, proc, _ in reversed(self.nodes):
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + STOP_S
        for _, proc, _ in self.nodes:
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        left = self.leftovers()
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.nodes = []
        return left

    def leftovers(self) -> list[int]:
        """Processes whose command line names this cluster's folder (its nodes' Ray processes)."""
        found = []
        for proc in psutil.process_iter(["pid", "cmdline"]):
            if any(str(self.root) in part for part in proc.info["cmdline"] or ()):
                found.append(proc.info["pid"])
        return found

    def __enter__(self) -> LocalCluster:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)


def node_probe():
    """A task that tells what a worker sees: its node id, whether housebench imports (and from where), what the
    checkout's folder holds, its working folder. A closure, so Ray sends it by value (the nodes have no tests)."""
    import ray

    repo = str(ROOT)

    def what_a_node_sees() -> dict:
        try:
            import housebench

            where = housebench.__file__
        except ImportError:
            where = None
        listing = os.listdir(repo) if os.path.isdir(repo) else None
        node = ray.get_runtime_context().get_node_id()
        return {"node": node, "housebench": where, "repo": listing, "cwd": os.getcwd()}

    return ray.remote(num_cpus=1)(what_a_node_sees)


def drive(jobs: list, ray_params: Any, workers: int | None) -> dict[str, Any]:
    """In the driver process: the worker nodes' ids, what they see in a job without the shipped code (``bare``), the
    batch's outcomes and wall seconds, and what a task of the rollout's own job sees (``shipped``)."""
    import ray

    from housebench.rollout.batch import run_batch

    probe = node_probe()
    try:
        ray.init(address=ray_params.address)
        nodes = {n["NodeID"] for n in ray.nodes() if n["Alive"] and n["Resources"].get("CPU", 0) > 0}
        bare = ray.get([probe.remote() for _ in range(PROBES)])
    finally:
        ray.shutdown()
    try:
        clock = time.perf_counter()
        outcomes = run_batch(jobs, "ray", workers, progress=False, ray=ray_params)
        wall = time.perf_counter() - clock
        shipped = ray.get([probe.remote() for _ in range(PROBES)])
    finally:
        ray.shutdown()
    return {"workers": nodes, "bare": bare, "outcomes": outcomes, "wall_s": wall, "shipped": shipped}


if __name__ == "__main__":  # python -m tests.raycluster IN OUT: LocalCluster.drive's driver
    given, answer = (Path(a) for a in sys.argv[1:3])
    answer.write_bytes(pickle.dumps(drive(*pickle.loads(given.read_bytes()))))
