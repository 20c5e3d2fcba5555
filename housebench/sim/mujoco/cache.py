"""Compiled-model cache: a composed stage's MuJoCo model saved as MJB, keyed by content hashes.

The key hashes every layer the stage uses (sublayers, referenced assets; by content, not path),
the compiler version below, and the MuJoCo and gymnasium-robotics versions. The cache lives in
``$HOUSEBENCH_MJCF_CACHE`` or ``.cache/mjcf`` under the working directory.
"""

from __future__ import annotations

import hashlib
import os
from importlib import metadata
from pathlib import Path

import mujoco
from pxr import Usd

from housebench.sim.mujoco.compile import compile_stage

COMPILER_VERSION = "5g"  # bump when compile.py, bodies.py, joints.py, fetch.py or robot/fetch.py change the model


def cache_dir() -> Path:
    return Path(os.environ.get("HOUSEBENCH_MJCF_CACHE", ".cache/mjcf"))


def stage_key(stage: Usd.Stage) -> str:
    """SHA-256 over the contents of every layer ``stage`` uses, plus the toolchain versions."""
    layers = sorted(
        hashlib.sha256(_layer_bytes(layer)).hexdigest() for layer in stage.GetUsedLayers() if not layer.anonymous
    )
    head = [COMPILER_VERSION, mujoco.__version__, metadata.version("gymnasium-robotics")]
    return hashlib.sha256("\n".join(head + layers).encode()).hexdigest()


def _layer_bytes(layer) -> bytes:
    return Path(layer.realPath).read_bytes() if layer.realPath else layer.ExportToString().encode()


def load_model(stage: Usd.Stage, root: Path | None = None) -> tuple[mujoco.MjModel, Path, bool]:
    """The compiled model of ``stage``, its cache file, and whether it came from the cache."""
    path = (root or cache_dir()) / f"{stage_key(stage)}.mjb"
    if path.exists():
        return mujoco.MjModel.from_binary_path(str(path)), path, True
    model = compile_stage(stage)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    mujoco.mj_saveModel(model, str(tmp), None)
    os.replace(tmp, path)
    return model, path, False
