"""The episode cache: every finished episode kept between runs, so a run killed half-way and run again only runs
what is missing, and an unchanged episode never runs twice.

An entry is keyed by everything the episode's outcome depends on: the scene (``scene_hash``: house, task layer, rest
poses), its assets (``assets_hash``), the content of every file the job reads, the seed and the episode's settings
(horizon, control period, pose noise, track, image size), the policy's name, params and code, the backend and its
version, the versions of the libraries that simulate and plan, and the source of the episode loop itself (its import
closure). What the rows only copy from the job (run, split, choices, code commit) is not in the key: a cached outcome
is joined to the job that asks for it (:mod:`housebench.rollout.stored`). Crashes are never kept (they run again),
nor are episodes whose code cannot be named: a policy server's (``class: remote``), or a job without scene and assets
hashes. Entries live in ``rollout.cache.dir`` (``.cache/episodes``: git-ignored, outside every DVC output, which DVC
deletes before a stage runs), one JSON file each, written atomically; the cache is bounded by ``rollout.cache.max_mb``
with the compiled-model cache's rule (:func:`housebench.hashing.prune_cache`: least recently used first, a hit counts
as a use), pruned after every run and by ``housebench rollout cache prune``.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from pydantic import Field

from housebench.hashing import code_hash, file_hash, prune_cache
from housebench.io import atomic_file
from housebench.params import Section
from housebench.policy.registry import REMOTE_CLASS, resolve
from housebench.rollout.batch import run_batch
from housebench.rollout.cluster import RayParams
from housebench.rollout.episode import EpisodeJob, EpisodeOutcome
from housebench.rollout.records import episode_id
from housebench.rollout.stored import dump_outcome, load_outcome
from housebench.sim.registry import make_backend

ENTRIES = "[!.]*.json"  # an entry's file (temp files of unfinished writes start with a dot)
ROW_ONLY = ("run", "split", "house", "choices", "provenance")  # job fields the rows copy and the episode never reads
LIBRARIES = ("mujoco", "gymnasium-robotics", "usd-core", "numpy", "scipy", "ompl")  # simulate and plan
EPISODE_CODE = "housebench.rollout.episode"  # the episode loop, the simulator backends, the evaluator, the registry


class EpisodeCacheParams(Section):
    """``rollout.cache`` of params.yaml."""

    dir: Path = Path(".cache/episodes")  # under the project root; outside every stage's outputs
    max_mb: int = Field(2000, ge=0, le=10**7)  # bound, least recently used pruned first; 0: no cache


@functools.cache
def _code(module: str, root: Path | None = None) -> str:
    return code_hash(module, root) if root else code_hash(module)


@functools.cache
def _library_versions() -> dict[str, str]:
    versions = {}
    for name in LIBRARIES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "-"
    return versions


@functools.cache
def _backend_version(name: str) -> str:
    return make_backend(name).version


def policy_code(class_path: str, version: str) -> str | None:
    """The identity of a policy's code: the source of a housebench policy (its module and what it imports), the
    installed distribution's version of an outside one, else the source of its package; None for a policy server
    (its code is not here to name)."""
    if class_path == REMOTE_CLASS:
        return None
    module = class_path.split(":")[0]
    top = module.split(".")[0]
    if top == "housebench":
        return _code(module)
    if version:
        return f"{top}=={version}"
    spec = importlib.util.find_spec(top)
    if spec is None or spec.origin is None:
        return None
    origin = Path(spec.origin)
    return _code(module, origin.parent) if origin.name == "__init__.py" else file_hash(origin)


def _plain(value: Any) -> Any:
    """A key's value as plain JSON: a file by its content (where it lies does not change the episode)."""
    if isinstance(value, Path):
        return file_hash(value)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


@dataclasses.dataclass
class EpisodeCache:
    """Finished episodes under ``root``, at most ``max_bytes`` of them after each prune."""

    root: Path
    max_bytes: int
    _policies: dict[str, str | None] = dataclasses.field(default_factory=dict)

    @classmethod
    def from_params(cls, params: EpisodeCacheParams, project: Path = Path(".")) -> EpisodeCache | None:
        """The cache ``params`` describe (its dir under ``project``), or None when ``max_mb`` is 0."""
        return cls(Path(project) / params.dir, params.max_mb * 2**20) if params.max_mb else None

    def key(self, job: EpisodeJob) -> str | None:
        """The content key of ``job``'s outcome (see the module's doc); None: never cached."""
        if not {"scene_hash", "assets_hash"} <= set(job.provenance):
            return None
        named = json.dumps([job.policy, job.policy_entry], sort_keys=True, default=str)
        if named not in self._policies:
            spec = resolve(job.policy, job.policy_entry)
            self._policies[named] = policy_code(spec.class_path, spec.version)
        policy = self._policies[named]
        if policy is None:
            return None
        fields = {f.name: getattr(job, f.name) for f in dataclasses.fields(job) if f.name not in ROW_ONLY}
        parts = {
            "job": _plain(fields),
            "job_type": f"{type(job).__module__}.{type(job).__qualname__}",
            "scene_hash": job.provenance["scene_hash"],
            "assets_hash": job.provenance["assets_hash"],
            "policy_code": policy,
            "backend_version": _backend_version(job.backend),
            "libraries": _library_versions(),
            "episode_code": _code(EPISODE_CODE),
            "job_code": _code(type(job).__module__),
        }
        return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()

    def path(self, key: str) -> Path:
        return self.root / f"{key}.json"

    def get(self, job: EpisodeJob) -> EpisodeOutcome | None:
        """The stored outcome of ``job`` (a hit counts as a use), or None."""
        key = self.key(job)
        if key is None or not (path := self.path(key)).is_file():
            return None
        try:
            outcome = load_outcome(json.loads(path.read_text(encoding="utf-8"))["outcome"], job)
            os.utime(path)
        except (OSError, ValueError, KeyError, TypeError):  # pruned meanwhile, or unreadable: run it again
            return None
        return outcome

    def put(self, outcome: EpisodeOutcome) -> Path | None:
        """Keep a finished ``outcome``; a crash, or a job that cannot be keyed, is not kept (None)."""
        if outcome.crash is not None or (key := self.key(outcome.job)) is None:
            return None
        job = outcome.job
        entry = {"episode": episode_id(job.task, job.variant, job.seed, job.policy), "outcome": dump_outcome(outcome)}
        try:
            # not canonical JSON: an event's detail may hold a NaN, which json reads back as it wrote it
            text = json.dumps(entry, sort_keys=True, separators=(",", ":"))
            with atomic_file(self.path(key), force=True) as tmp:
                tmp.write_text(text, encoding="utf-8")
        except (TypeError, ValueError, OSError) as err:  # not storable, or no room: the run goes on uncached
            print(f"{self.root}: episode cache: {entry['episode']} not kept: {err}", file=sys.stderr)
            return None
        return self.path(key)

    def entries(self) -> list[Path]:
        return sorted(self.root.glob(ENTRIES))

    def prune(self, max_bytes: int | None = None) -> list[Path]:
        """Remove the least recently used entries until at most ``max_bytes`` (default: the bound) remain."""
        return prune_cache(self.root, ENTRIES, self.max_bytes if max_bytes is None else max_bytes)


def run_cached(
    jobs: Sequence[EpisodeJob],
    cache: EpisodeCache | None,
    executor: str = "local",
    workers: int | None = None,
    progress: bool = True,
    ray: RayParams | None = None,
) -> list[EpisodeOutcome]:
    """Every job's outcome in job order: the cached ones as stored (``cached``), the others run now and kept as
    each ends (a run killed later keeps them); then the cache is pruned to its bound. ``ray``: ``rollout.ray``."""
    if cache is None:
        return run_batch(jobs, executor, workers, progress, ray=ray)
    outcomes = [cache.get(job) for job in jobs]
    missing = [i for i, outcome in enumerate(outcomes) if outcome is None]
    ran = run_batch(
        [jobs[i] for i in missing], executor, workers, progress, cache.put, cached=len(jobs) - len(missing), ray=ray
    )
    for i, outcome in zip(missing, ran, strict=True):
        outcomes[i] = outcome
    cache.prune()
    return outcomes  # type: ignore[return-value]  (every index was filled)
