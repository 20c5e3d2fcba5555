"""Constants shared by the asset tests (a uniquely named module: every test folder has a conftest)."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / ".." / "shared" / "samples"

# Small CoACD settings: seconds per asset instead of minutes (the shipped ones are in params.yaml).
SMALL_COACD = {
    "threshold": 0.1,
    "resolution": 300,
    "preprocess_resolution": 20,
    "mcts_nodes": 8,
    "mcts_iterations": 20,
    "mcts_max_depth": 2,
    "max_hulls": 12,
}


BUILT = ("apple", "orange", "bowl", "book", "mug", "toy_box", "pen", "notebook", "cereal_box", "foam_cube")
