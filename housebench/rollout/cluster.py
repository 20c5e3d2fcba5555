"""Episodes as Ray tasks, on this machine or on a Ray cluster whose worker nodes have no checkout.

``rollout.ray.address`` says which Ray (:data:`ADDRESS_HELP`). With ``rollout.ray.ship`` (the default) nothing of the
project has to be on the nodes but Python with housebench's dependencies; the rest travels through Ray itself:

- **Code**: the ``housebench`` package folder is the job's ``runtime_env`` ``py_modules`` (given to ``ray.init``: Ray
  takes a local folder at the job level only): Ray zips it once, keeps it in the cluster's GCS and unpacks it on each
  node before the first task there, first on the workers' ``sys.path`` (so a node's own installed housebench, if any,
  is not the one that runs). A process that called ``ray.init`` itself keeps its own runtime environment.
- **Files**: every file a job reads (its scene's USD layers and the files they reference, found by USD's own walk,
  ``UsdUtils.ComputeAllDependencies``; the task file and the annotations; any other file a job's path fields name)
  is put in the object store once per content (``ray.put`` of its bytes, shared by every job that reads it). A worker
  writes each into its node's store, ``<files>/blobs/<sha256>``, the first time one of its jobs needs it, links the
  job's files into ``<files>/trees/<hash of the file set>/`` with their layout kept (layers name each other by
  relative paths) and runs the job on those paths. ``<files>`` is :data:`FILES_DIR` in the node's temp folder; the
  node's compiled models go beside it (``HOUSEBENCH_MJCF_CACHE``, unless the node sets it). A file inside the housebench
  package (a component's scenario) is read from the shipped package. The store is not pruned: it grows with the
  distinct files the node has run (a few MB a scene) and goes with the node's temp folder.
- The outcome comes back with the driver's own job (the rows name the project's paths) and the id of the Ray node
  that ran it (:attr:`EpisodeOutcome.node`).

``rollout.ray.ship: false`` ships nothing: the nodes import their own housebench and read the jobs' paths as they are
(a shared filesystem mounted at the project's path on every node).

Ray retries a task whose worker process or node died (``max_retries``: one retry, as locally); an episode's own
exception never reaches Ray (it is a crash row); a second loss is the episode's crash row naming Ray's error.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from pydantic import field_validator

from housebench.params import Section
from housebench.rollout.episode import EpisodeJob, EpisodeOutcome, lost, run_episode
from housebench.rollout.workers import ATTEMPTS

PACKAGE = Path(__file__).resolve().parents[1]  # the housebench package folder: the code the workers get
FILES_DIR = "housebench-ray-files"  # a worker node's store of shipped files, in its temp folder
USD_SUFFIXES = (".usd", ".usda", ".usdc")
ADDRESS = re.compile(r"(|auto|local|(ray://)?[A-Za-z0-9._\-\[\]:]+:\d{1,5})")
ADDRESS_HELP = (
    '"": RAY_ADDRESS if set, else the cluster last started on this machine by `ray start`, else a local Ray for '
    'the run; "auto": a running cluster, never a new one; "local": always a new local Ray; "host:port": the '
    "head node's address (`ray start --head` prints it)"
)


class RayParams(Section):
    """``rollout.ray`` of params.yaml: where ``executor: ray`` runs and how the nodes get code and files."""

    address: str = ""  # see ADDRESS_HELP
    ship: bool = True  # code and files through Ray (py_modules, object store); false: the nodes' own, same paths

    @field_validator("address")
    @classmethod
    def _address(cls, address: str) -> str:
        if not ADDRESS.fullmatch(address):
            raise ValueError(f"'{address}' is not a Ray address ({ADDRESS_HELP})")
        return address


@dataclasses.dataclass(frozen=True)
class Parcel:
    """What a worker needs besides the job: the job's files by relative path, content hash and object ref, and
    where each of the job's path fields lies among them (``tree``) or in the shipped package (``package``)."""

    tree: str  # hash of the file set: the folder name on the node
    files: tuple[tuple[str, str, Any], ...]  # (relative path, sha256, ObjectRef of the bytes)
    fields: tuple[tuple[str, str, str], ...]  # (job field, "tree" | "package", relative path)


def usd_files(scene: Path) -> list[Path]:
    """The USD layers a stage composes and the files they reference (textures ...), ``scene`` itself included."""
    from pxr import UsdUtils

    layers, assets, _unresolved = UsdUtils.ComputeAllDependencies(str(scene))
    found = [Path(layer.realPath) for layer in layers if layer.realPath]
    return sorted({p.resolve() for p in [*found, *(Path(a) for a in assets)] if p.is_file()})


class Packer:
    """Parcels for jobs on the driver: each distinct file read once and put in the object store once."""

    def __init__(self) -> None:
        import ray

        self.ray = ray
        self.refs: dict[str, Any] = {}  # sha256 -> ObjectRef
        self.hashes: dict[Path, str] = {}
        self.closures: dict[Path, list[Path]] = {}

    def _put(self, path: Path) -> str:
        if path not in self.hashes:
            data = path.read_bytes()
            sha = hashlib.sha256(data).hexdigest()
            if sha not in self.refs:
                self.refs[sha] = self.ray.put(data)
            self.hashes[path] = sha
        return self.hashes[path]

    def _closure(self, path: Path) -> list[Path]:
        if path not in self.closures:
            self.closures[path] = usd_files(path) if path.suffix in USD_SUFFIXES else [path]
        return self.closures[path]

    def parcel(self, job: EpisodeJob) -> Parcel:
        paths = {f.name: getattr(job, f.name) for f in dataclasses.fields(job)}
        paths = {name: Path(v).resolve() for name, v in paths.items() if isinstance(v, Path) and not Path(v).is_dir()}
        inside = {n: p for n, p in paths.items() if p.is_relative_to(PACKAGE) and p.is_file()}
        shipped = {n: p for n, p in paths.items() if n not in inside}
        files = sorted({f for p in shipped.values() if p.is_file() for f in self._closure(p)})
        # a missing file keeps its place in the tree (the episode's crash names it), so it counts for the root
        root = Path(os.path.commonpath([*files, *shipped.values()])) if shipped else Path("/")
        if root in files or root in shipped.values():
            root = root.parent
        listed = tuple((f.relative_to(root).as_posix(), self._put(f)) for f in files)
        fields = [(n, "tree", p.relative_to(root).as_posix()) for n, p in shipped.items()]
        fields += [(n, "package", p.relative_to(PACKAGE).as_posix()) for n, p in inside.items()]
        tree = hashlib.sha256(json.dumps(listed).encode()).hexdigest()[:32]
        return Parcel(tree, tuple((rel, sha, self.refs[sha]) for rel, sha in listed), tuple(sorted(fields)))


def files_dir() -> Path:
    """This node's store of shipped files."""
    return Path(tempfile.gettempdir()) / FILES_DIR


def _write_once(target: Path, data: bytes) -> None:
    """``target`` with ``data``, written atomically (workers of one node may write the same blob at once)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(name, target)
    finally:
        if os.path.exists(name):
            os.unlink(name)


def unpack(parcel: Parcel, store: Path) -> Path:
    """The folder on this node holding the parcel's files at their relative paths (fetched and linked as needed)."""
    import ray

    tree = store / "trees" / parcel.tree
    missing = [(rel, sha, ref) for rel, sha, ref in parcel.files if not (tree / rel).is_file()]
    blobs = store / "blobs"
    fetch = [(sha, ref) for _, sha, ref in missing if not (blobs / sha).is_file()]
    for (sha, _), data in zip(fetch, ray.get([ref for _, ref in fetch]) if fetch else [], strict=True):
        if hashlib.sha256(data).hexdigest() != sha:
            raise ValueError(f"shipped file {sha[:12]}: its bytes do not match their hash")
        _write_once(blobs / sha, data)
    for rel, sha, _ in missing:
        target = tree / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        link = target.with_name(f".{target.name}.{os.getpid()}")
        link.unlink(missing_ok=True)
        os.link(blobs / sha, link)
        os.replace(link, target)
    return tree


def run_shipped(job: EpisodeJob, parcel: Parcel | None) -> EpisodeOutcome:
    """On a worker: the job's files unpacked on this node (``parcel``; None: read where the job says), the episode
    run on them, the outcome returned with the driver's job and this node's id."""
    import ray

    node = ray.get_runtime_context().get_node_id()
    if parcel is None:
        return dataclasses.replace(run_episode(job), node=node)
    store = files_dir()
    os.environ.setdefault("HOUSEBENCH_MJCF_CACHE", str(store / "mjcf"))
    try:
        tree = unpack(parcel, store)
    except Exception as err:  # noqa: BLE001 - no room, a lost object: this episode's crash row
        reason = f"shipping its files to node {node}: {type(err).__name__}: {err}"
        return dataclasses.replace(lost(job, reason), node=node)
    bases = {"tree": tree, "package": PACKAGE}
    here = dataclasses.replace(job, **{name: bases[base] / rel for name, base, rel in parcel.fields})
    return dataclasses.replace(run_episode(here), job=job, node=node)


def runtime_env() -> dict[str, Any]:
    """The job's runtime environment when shipping: the housebench package as ``py_modules``."""
    return {"py_modules": [str(PACKAGE)], "excludes": ["__pycache__", "*.pyc"]}


def connect(params: RayParams) -> None:
    """Ray initialised at ``params.address``, shipping the code when ``params.ship`` (unless this process already
    is: then its own runtime environment holds)."""
    import ray

    if not ray.is_initialized():
        ray.init(address=params.address or None, runtime_env=runtime_env() if params.ship else None)


def cluster_cpus() -> int:
    """The CPUs of the cluster's nodes now (at least 1)."""
    import ray

    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def run_ray(
    jobs: Sequence[EpisodeJob], workers: int | None, params: RayParams | None = None
) -> Iterator[tuple[int, EpisodeOutcome]]:
    """``(index, outcome)`` of every job as each finishes, as Ray tasks, at most ``workers`` at once (None: as many
    as the cluster has CPUs, counted as slots free up, so nodes that join later are used)."""
    import ray

    params = params or RayParams()
    connect(params)
    remote = ray.remote(max_retries=ATTEMPTS - 1, retry_exceptions=False)(run_shipped)
    packer = Packer() if params.ship else None
    todo, running = list(range(len(jobs)))[::-1], {}
    try:
        while todo or running:
            while todo and len(running) < (workers or cluster_cpus()):
                index = todo.pop()
                parcel = packer.parcel(jobs[index]) if packer else None
                running[remote.remote(jobs[index], parcel)] = index
            done, _ = ray.wait(list(running), num_returns=1)
            index = running.pop(done[0])
            try:
                outcome = ray.get(done[0])
            except ray.exceptions.RayError as err:  # lost twice (worker crashed, node died): its crash row
                outcome = lost(jobs[index], f"{type(err).__name__}: {str(err).splitlines()[0]}")
            yield index, outcome
    finally:
        for ref in running:  # an interrupted batch leaves no episode running on the cluster
            ray.cancel(ref, force=True)
