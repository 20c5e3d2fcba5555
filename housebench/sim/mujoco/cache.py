"""Compiled-model cache: a composed stage's MuJoCo model saved as MJB, keyed by content hashes.

The key hashes every layer the stage uses (sublayers, referenced assets; by content, not path), the house's
textures, the compiler's own source (:mod:`.compile` and every housebench module it imports), and the MuJoCo
and gymnasium-robotics versions: a change to any of them compiles afresh. The cache lives in
``$HOUSEBENCH_MJCF_CACHE`` or ``.cache/mjcf`` under the working directory and is bounded: after a
new entry is written, the least recently used entries are removed until the cache holds at most
``max_bytes`` (a hit counts as a use).
"""

from __future__ import annotations

import functools
import hashlib
import os
from importlib import metadata
from pathlib import Path

import mujoco
from pxr import Usd

from housebench.hashing import code_hash, prune_cache
from housebench.sim.mujoco.compile import compile_stage
from housebench.sim.mujoco.looks import texture_files

MAX_BYTES = 500 * 2**20  # default bound of the cache (about 60 compiled house scenes)


def cache_dir() -> Path:
    return Path(os.environ.get("HOUSEBENCH_MJCF_CACHE", ".cache/mjcf"))


@functools.cache
def toolchain_key() -> str:
    """The compiler's source and the versions of what it builds with, hashed together."""
    head = [code_hash(compile_stage.__module__), mujoco.__version__, metadata.version("gymnasium-robotics")]
    return hashlib.sha256("\n".join(head).encode()).hexdigest()


def stage_key(stage: Usd.Stage) -> str:
    """SHA-256 over the contents of every layer ``stage`` uses and of the house's textures (the model embeds
    them; a layer names them by path only), plus :func:`toolchain_key`."""
    layers = sorted(
        hashlib.sha256(_layer_bytes(layer)).hexdigest() for layer in stage.GetUsedLayers() if not layer.anonymous
    )
    textures = [hashlib.sha256(Path(path).read_bytes()).hexdigest() for path in texture_files(stage)]
    return hashlib.sha256("\n".join([toolchain_key(), *layers, *textures]).encode()).hexdigest()


def _layer_bytes(layer) -> bytes:
    return Path(layer.realPath).read_bytes() if layer.realPath else layer.ExportToString().encode()


def load_model(
    stage: Usd.Stage, root: Path | None = None, max_bytes: int = MAX_BYTES
) -> tuple[mujoco.MjModel, Path, bool]:
    """The compiled model of ``stage``, its cache file, and whether it came from the cache."""
    root = root or cache_dir()
    path = root / f"{stage_key(stage)}.mjb"
    if path.exists():
        try:
            model = mujoco.MjModel.from_binary_path(str(path))
            os.utime(path)  # a use: least recently used entries are pruned first
            return model, path, True
        except (FileNotFoundError, ValueError):  # pruned by another process meanwhile
            pass
    model = compile_stage(stage)
    root.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    mujoco.mj_saveModel(model, str(tmp), None)
    os.replace(tmp, path)
    prune_cache(root, "*.mjb", max_bytes, keep=path)
    return model, path, False
