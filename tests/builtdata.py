"""The small built data the tests run on: the pipeline's own stages (import, collision, physics, house,
tasks, settle, annotate) over only the task variants the tests name, built once and cached.

A clean checkout (CI) has no DVC cache and no built scenes, so a test that read ``ROOT/scenes/...`` would
skip there and protect nothing. Every test that needs built data uses this build instead, on every
machine (one with the full ``dvc repro`` data too), so a local run tests what CI tests.

API
---
- ``VARIANTS``: the ``(task, variant)`` pairs of the default suite; ``SLOW_VARIANTS``: those only
  ``-m slow`` tests use. **To use a new pair in a test, add it to one of them** (a pair not listed is an
  error that says so). Variant ``vNNN`` is sampled with ``tasks.seed + NNN`` exactly as ``dvc repro``
  samples it, so ``clear_shelf/v006`` here is the same scene as in the full build.
- ``built(task=None, variant=None) -> Layout``: the built project, a :class:`housebench.paths.Layout`
  rooted at ``.cache/testdata/<hash>/`` (the default pairs; with a pair of ``SLOW_VARIANTS``, a second
  build that has both lists). Under its root, as in the repository: ``scenes/settled/<task>/<variant>/
  scene.usda``, ``scenes/tasks/<task>/<variant>/task.json``, ``annotations/scenes/<task>__<variant>.json``,
  ``annotations/{house,assets}.json``, ``scenes/house/house.usda``, ``assets_built/sim/<asset>/``,
  ``params.yaml``. Use ``layout.settled_scene(task, variant)``,
  ``layout.task_dir(task, variant)``, ``layout.scene_annotations(task, variant)``, ``layout.at(path)``.
- In ``tests/conftest.py``: the session fixture ``built_layout`` (the same Layout), and the plain functions
  ``built_job(task, variant, policy, horizon_s, pose_noise_m=0.002)`` -> ``EpisodeJob`` and
  ``built_episode(task, variant, horizon_s)`` -> ``(episode, SkillContext, first observation)``.

The build is keyed by a hash of everything it reads: the code and params sections each stage declares in
``dvc.yaml``, the raw assets and task specs used, the pairs, this file and the simulation packages'
versions. It happens at most once per key (``fcntl`` lock: parallel pytest processes wait for one
builder), in a subprocess whose working directory is the small project, so the stages' relative paths
and their worker pools behave as under ``dvc repro``. CoACD's and MuJoCo's own caches are shared with
the repository's (``.cache/coacd``, ``.cache/mjcf``): both are keyed by their inputs, so they change
speed, not bytes. Left out on purpose: ``droptest`` (the tasks stage reads its verdicts only to refuse
failed assets; none of the used assets fails it) and ``plan`` (nothing reads ``scenes/plans`` but the
stage's summary, and its deps, the skill library among them, would rebuild everything at each skill edit).
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import time
from collections import defaultdict
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import yaml

from housebench.paths import Layout

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "testdata"
KEEP = 4  # builds kept in the cache (the newest); older keys are removed after a build
STAGES = ("import", "collision", "physics", "house", "tasks", "settle", "annotate")
PACKAGES = ("mujoco", "coacd", "usd-core", "trimesh", "pymeshlab", "numpy", "scipy")
BUILD_TIMEOUT_S = 3600

Pair = tuple[str, str]

# the default suite's pairs (keep sorted; each costs a settle and an annotation)
VARIANTS: tuple[Pair, ...] = (
    ("arrange_drinks", "v000"),
    ("breakfast_setup", "v000"),
    ("bring_fruit_bowl", "v000"),
    ("chill_drink", "v000"),
    ("chill_drink", "v006"),
    ("collect_fruits", "v000"),
    ("desk_prep", "v000"),
    ("heat_breakfast", "v000"),
    ("heat_breakfast_combo", "v000"),
    ("heat_breakfast_preloaded", "v000"),
    ("heat_soda_can", "v000"),
    ("heat_soda_can", "v001"),
    ("heat_soda_can", "v003"),
    ("lay_bottle_down", "v000"),
    ("organize_utility_items", "v002"),
    ("put_fruit_in_container", "v000"),
    ("put_fruit_in_container", "v001"),
    ("put_fruit_in_container", "v002"),
    ("recycle_and_store", "v000"),
    ("recycle_and_store", "v015"),
    ("restock_fridge", "v000"),
    ("restock_fridge", "v001"),
    ("restock_fridge", "v002"),
    ("shelve_books", "v000"),
    ("sort_items", "v000"),
    ("stack_blocks", "v000"),
    ("stack_books", "v000"),
    ("stack_books", "v003"),
    ("throw_can_away", "v000"),
    ("tidy_toys", "v000"),
)

# assets built beyond those of the pairs' tasks, for tests that read their annotations only
ASSETS: tuple[str, ...] = ("rubber_duck", "toy_car")

# pairs only `pytest -m slow` tests use: built, with VARIANTS, the first time such a test asks
SLOW_VARIANTS: tuple[Pair, ...] = (
    ("breakfast_setup", "v003"),
    ("clear_shelf", "v000"),
    ("clear_shelf", "v001"),
    ("clear_shelf", "v004"),
    ("clear_shelf", "v006"),
    ("clear_shelf", "v007"),
    ("desk_prep", "v002"),
    ("empty_basket", "v000"),
    ("empty_basket", "v004"),
    ("empty_basket", "v011"),
    ("empty_basket", "v016"),
    ("heat_breakfast", "v001"),
    ("organize_utility_items", "v000"),
    ("recycle_and_store", "v003"),
    ("restock_fridge", "v007"),
    ("restock_fridge", "v011"),
    ("shelve_books", "v001"),
    ("shelve_books", "v009"),
    ("shelve_books", "v010"),
    ("shelve_on_level", "v000"),
    ("shelve_on_level", "v005"),
    ("sort_items", "v009"),
    ("toys_off_floor", "v000"),
    ("toys_off_floor", "v016"),
    ("toys_off_floor", "v019"),
)


class BuildError(RuntimeError):
    """The small build failed: the stage's output is in the message."""


def _index(variant: str) -> int:
    match = re.fullmatch(r"v(\d{3})", variant)
    if not match:
        raise ValueError(f"tests/builtdata.py: variant '{variant}' is not vNNN")
    return int(match.group(1))


def _files(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    return sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc")


def _assets(tasks: list[str]) -> list[str]:
    """Every asset the tasks' specs may draw (alternatives ``a|b`` included: the sampler checks them all),
    and ``ASSETS``."""
    names = set(ASSETS)
    for task in tasks:
        spec = json.loads((ROOT / "tasks" / f"{task}.json").read_text(encoding="utf-8"))
        names.update(name for obj in spec["objects"].values() for name in obj["asset"].split("|"))
    return sorted(names)


def _code_deps() -> tuple[list[Path], list[str]]:
    """The code files and params sections that ``dvc.yaml`` declares for the stages run here."""
    stages = yaml.safe_load((ROOT / "dvc.yaml").read_text(encoding="utf-8"))["stages"]
    files, sections = set(), []
    for name in STAGES:
        for dep in stages[name]["deps"]:
            if dep.split("/")[0] in ("housebench", "stages") or dep == "assets/specs.yaml":
                files.update(_files(ROOT / dep))
        sections += stages[name].get("params", [])
    return sorted(files), sections


def _key(pairs: tuple[Pair, ...]) -> str:
    digest = hashlib.sha256()

    def add(label: str, data: bytes) -> None:
        digest.update(f"{label}\0{len(data)}\0".encode())
        digest.update(data)

    code, sections = _code_deps()
    tasks = sorted({t for t, _ in pairs})
    inputs = [*code, Path(__file__), *(ROOT / "tasks" / f"{t}.json" for t in tasks)]
    for asset in _assets(tasks):
        inputs += _files(ROOT / "assets_raw" / asset)
    for path in inputs:
        add(path.relative_to(ROOT).as_posix(), path.read_bytes())
    params = yaml.safe_load((ROOT / "params.yaml").read_text(encoding="utf-8"))
    add("params", json.dumps({s: params[s] for s in sections}, sort_keys=True).encode())
    add("pairs", json.dumps(sorted(pairs)).encode())
    for package in PACKAGES:
        try:
            add(package, version(package).encode())
        except PackageNotFoundError:
            add(package, b"-")
    return digest.hexdigest()[:16]


def _params_text() -> str:
    """The repository's params.yaml as the small project holds it (CoACD's cache pointed at the repository's)."""
    params = yaml.safe_load((ROOT / "params.yaml").read_text(encoding="utf-8"))
    params["collision"]["cache_dir"] = str(ROOT / ".cache" / "coacd")
    return yaml.safe_dump(params, sort_keys=False)


def _refresh_params(project: Path) -> None:
    """Give a found build today's params.yaml: the sections its stages read are in its key (equal by then), the
    others (the rollout's, the policies') are read by the tests at run time and may have changed since."""
    text, path = _params_text(), project / "params.yaml"
    if path.read_text(encoding="utf-8") != text:
        tmp = path.with_name(f".params.yaml.{os.getpid()}")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)


def _copy_inputs(project: Path, pairs: tuple[Pair, ...]) -> None:
    """The small project: params (CoACD's cache pointed at the repository's), the asset spec table, the
    used tasks' specs and their raw assets."""
    tasks = sorted({t for t, _ in pairs})
    (project / "params.yaml").write_text(_params_text(), encoding="utf-8")
    for rel in ("assets/specs.yaml", *(f"tasks/{t}.json" for t in tasks)):
        (project / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, project / rel)
    for asset in _assets(tasks):
        shutil.copytree(ROOT / "assets_raw" / asset, project / "assets_raw" / asset)


def _run_stages(pairs: tuple[Pair, ...]) -> None:
    """In the small project (the working directory): every stage of ``STAGES`` as ``dvc repro`` runs it,
    the tasks stage sampling only ``pairs``."""
    import stages.annotate
    import stages.collision
    import stages.house
    import stages.import_assets
    import stages.physics
    import stages.settle
    from housebench.params import load_section
    from housebench.pipeline.tasks import write_variants
    from housebench.tasks.sampler import SamplerParams

    def tasks() -> None:
        only = defaultdict(list)
        for task, variant in pairs:
            only[task].append(_index(variant))
        write_variants(Layout(), load_section("tasks", SamplerParams), only)

    steps = {
        "import": stages.import_assets.main,
        "collision": stages.collision.main,
        "physics": stages.physics.main,
        "house": stages.house.main,
        "tasks": tasks,
        "settle": stages.settle.main,
        "annotate": stages.annotate.main,
    }
    for name in STAGES:
        start, cpu = time.monotonic(), _cpu_s()
        code = steps[name]()
        if code:
            raise SystemExit(f"stage {name} exited {code}")
        refused = _refused(name)
        if refused:  # the asset stages go on past a bad asset; every asset here is one a test needs
            raise SystemExit(f"stage {name} refused assets: {refused}")
        print(f"builtdata: stage {name}: {time.monotonic() - start:.1f} s, cpu {_cpu_s() - cpu:.1f} s", flush=True)


def _refused(stage: str) -> dict:
    """The assets an asset stage listed as failed (``failed.json``), none for the other stages."""
    from housebench.paths import ASSETS_COLLISION, ASSETS_IMPORTED, ASSETS_SIM

    folder = {"import": ASSETS_IMPORTED, "collision": ASSETS_COLLISION, "physics": ASSETS_SIM}.get(stage)
    failed = folder / "failed.json" if folder else None
    return json.loads(failed.read_text())["failed"] if failed and failed.is_file() else {}


def _cpu_s() -> float:
    """CPU seconds of this process and its finished children (the stages' worker pools): on a shared
    machine the figure that says what the build costs."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _build(dest: Path, pairs: tuple[Pair, ...]) -> None:
    """Build ``pairs`` into ``dest`` (a fresh folder renamed into place only when every stage passed)."""
    for dead in dest.parent.glob(f"{dest.name}.part-*"):  # a builder killed half-way (we hold the key's lock)
        shutil.rmtree(dead, ignore_errors=True)
    part = dest.with_name(f"{dest.name}.part-{os.getpid()}")
    part.mkdir(parents=True)
    _copy_inputs(part, pairs)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep),
        "MUJOCO_GL": os.environ.get("MUJOCO_GL", "egl"),
        "HOUSEBENCH_MJCF_CACHE": os.environ.get("HOUSEBENCH_MJCF_CACHE", str(ROOT / ".cache" / "mjcf")),
    }
    args = [sys.executable, "-m", "tests.builtdata", *(f"{t}/{v}" for t, v in pairs)]
    start, cpu = time.monotonic(), _cpu_s()
    with (part / "build.log").open("w") as log:
        proc = subprocess.run(args, cwd=part, env=env, stdout=log, stderr=subprocess.STDOUT, timeout=BUILD_TIMEOUT_S)
    text = (part / "build.log").read_text()
    if proc.returncode:
        raise BuildError(f"tests/builtdata.py: the small build failed in {part}:\n{text[-4000:]}")
    line = f"builtdata: built {len(pairs)} variants in {time.monotonic() - start:.1f} s, cpu {_cpu_s() - cpu:.1f} s"
    (part / "build.log").write_text(f"{text}{line}\n")
    part.rename(dest)


def _prune(keep: Path) -> None:
    """Remove all but the newest ``KEEP`` builds."""
    builds = sorted((p for p in CACHE.iterdir() if p.is_dir() and len(p.name) == 16), key=lambda p: p.stat().st_mtime)
    for old in builds[:-KEEP]:
        if old != keep:
            shutil.rmtree(old, ignore_errors=True)


def build(pairs: tuple[Pair, ...]) -> Path:
    """The folder of the built ``pairs``: found in the cache, or built now (once, under a lock)."""
    pairs = tuple(sorted(set(pairs)))
    dest = CACHE / _key(pairs)
    if (dest / "scenes/settled").is_dir():
        _refresh_params(dest)
        return dest
    CACHE.mkdir(parents=True, exist_ok=True)
    with (CACHE / f".{dest.name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another process building the same key: wait for it
        if not dest.is_dir():
            _build(dest, pairs)
            _prune(dest)
    return dest


_slow = False  # set by prepare(slow=True): one build with both lists serves every pair of the session
_failed: BuildError | None = None  # a failed build is not tried again by every test of the session


@functools.cache
def _layout(slow: bool) -> Layout:
    return Layout(build(VARIANTS + SLOW_VARIANTS if slow else VARIANTS))


def prepare(slow: bool = False) -> tuple[Layout, float]:
    """Build (or find) this session's data before the tests run, outside any test's timeout (conftest's
    collection hook calls it); ``slow``: with ``SLOW_VARIANTS``. Returns the layout and the seconds spent."""
    global _slow, _failed
    _slow = _slow or slow
    start = time.monotonic()
    try:
        return _layout(_slow), time.monotonic() - start
    except BuildError as err:
        _failed = err
        raise


def built(task: str | None = None, variant: str | None = None) -> Layout:
    """The small build holding ``task/variant`` (any listed pair: the default build without one)."""
    if _failed is not None:
        raise _failed
    pair = (task, variant)
    if task is None or pair in VARIANTS:
        return _layout(_slow)
    if pair in SLOW_VARIANTS:
        return _layout(True)
    raise LookupError(f"{task}/{variant} is not built for the tests: add it to VARIANTS in tests/builtdata.py")


def main(argv: list[str]) -> None:
    """``python -m tests.builtdata task/variant ...`` in the small project's folder: run the stages."""
    _run_stages(tuple(tuple(arg.split("/", 1)) for arg in argv))


if __name__ == "__main__":
    main(sys.argv[1:])
