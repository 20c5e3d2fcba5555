"""The project's data layout, in one place (every stage and flow reads paths from here)."""

from pathlib import Path

ASSETS_RAW = Path("assets_raw")
ASSETS_IMPORTED = Path("assets_built/imported")
ASSETS_COLLISION = Path("assets_built/collision")
ASSETS_SIM = Path("assets_built/sim")
HOUSE_DIR = Path("scenes/house")
TASKS_DIR = Path("scenes/tasks")
SETTLED_DIR = Path("scenes/settled")
ANNOTATIONS_DIR = Path("annotations")
RESULTS_DIR = Path("results")
REPORT_DIR = Path("results/report")
TASK_SPECS_DIR = Path("tasks")
