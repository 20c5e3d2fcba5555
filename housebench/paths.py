"""The project's data layout: the folders stages hand each other, and the per-run ``Layout``.
(A file that only one stage writes, such as ``droptest.json`` or ``metrics.json``, is named in that
stage.)"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from housebench.names import name_problem

ASSETS_RAW = Path("assets_raw")
ASSETS_IMPORTED = Path("assets_built/imported")
ASSETS_COLLISION = Path("assets_built/collision")
ASSETS_SIM = Path("assets_built/sim")
DROPTEST = Path("assets_built/droptest.json")  # the drop test's verdicts (the tasks stage and the report read them)
HOUSE_DIR = Path("scenes/house")
HOUSES_FILE = HOUSE_DIR / "houses.json"  # the house set: the houses built, and the bad ones with their reasons
GRID = "grid"  # the id of the ``house:`` section's house (the default set's only house)
TASKS_DIR = Path("scenes/tasks")
SETTLED_DIR = Path("scenes/settled")
ANNOTATIONS_DIR = Path("annotations")
RESULTS_DIR = Path("results")
REPORT_DIR = Path("results/report")
TASK_SPECS_DIR = Path("tasks")
# What the bench programs measure (their raw JSON lines, their recordings): git-ignored, outside the
# source tree; bench/ holds the programs, RESULTS.md and its figures only (a test checks).
BENCH_RUNS = Path("runs/bench")


def bench_rows(name: str) -> Path:
    """``runs/bench/<name>.jsonl``: where a bench program appends its raw rows by default (``--out``)."""
    return BENCH_RUNS / f"{_named(name, 'rows')}.jsonl"


@dataclass(frozen=True)
class Layout:
    """Where one pipeline run reads and writes. ``Layout()`` is the DVC pipeline's layout; the nightly
    flow samples its own variants into a separate workspace (:meth:`nightly`) over the same house and
    assets."""

    root: Path = Path(".")
    tasks_dir: Path = TASKS_DIR
    settled_dir: Path = SETTLED_DIR
    scene_annotations_dir: Path = ANNOTATIONS_DIR / "scenes"
    report_dir: Path = REPORT_DIR

    @classmethod
    def nightly(cls, root: Path, run: str) -> Layout:
        """The workspace of nightly run ``run`` (``nightly-<date>-a<attempt>``): ``runs/nightly/<date>-a<attempt>/``."""
        workspace = Path("runs") / "nightly" / run.removeprefix("nightly-")
        return cls(root, workspace / "tasks", workspace / "settled", workspace / "annotations", workspace / "report")

    def at(self, path: Path) -> Path:
        """``path`` under this layout's root."""
        return Path(self.root) / path

    def house_dir(self, house: str = GRID) -> Path:
        """Where house ``house`` (an id of ``houses.json``) lies: ``scenes/house/`` for the ``grid`` house,
        ``scenes/house/<id>/`` for any other; each holds ``house.usda`` and ``topdown.png``."""
        return self.at(HOUSE_DIR) if house == GRID else self.at(HOUSE_DIR) / _named(house, "house")

    def house_annotations(self, house: str = GRID) -> Path:
        """The annotations of house ``house``: ``annotations/house.json`` for the ``grid`` house, else
        ``house.json`` beside its ``house.usda``."""
        return self.at(ANNOTATIONS_DIR / "house.json") if house == GRID else self.house_dir(house) / "house.json"

    def variants(self) -> list[tuple[str, str]]:
        """Every ``(task, variant)`` with a task layer (``task.usda``), sorted."""
        return sorted((p.parent.parent.name, p.parent.name) for p in self.at(self.tasks_dir).glob("*/*/task.usda"))

    def task_dir(self, task: str, variant: str) -> Path:
        return self.at(self.tasks_dir) / _named(task, "task") / _named(variant, "variant")

    def settled_scene(self, task: str, variant: str) -> Path:
        return self.at(self.settled_dir) / _named(task, "task") / _named(variant, "variant") / "scene.usda"

    def scene_annotations(self, task: str, variant: str) -> Path:
        return self.at(self.scene_annotations_dir) / f"{_named(task, 'task')}__{_named(variant, 'variant')}.json"


def _named(name: str, key: str) -> str:
    """``name`` if it follows the name rule: a task or variant that is a path (absolute, ``../``) would
    load a scene from outside the layout (``make_env``, ``episode video``)."""
    if problem := name_problem(name):
        raise ValueError(f"{key}: {problem}")
    return name
