"""The analysis notebook runs top to bottom against a results directory given by the environment."""

from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks/analysis.ipynb"


def test_notebook_runs_on_results(results_dir, monkeypatch):
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    assert not any(cell.get("outputs") for cell in notebook.cells), "commit it without outputs"
    monkeypatch.setenv("HOUSEBENCH_RESULTS", str(results_dir))
    NotebookClient(
        notebook, kernel_name="python3", timeout=120, resources={"metadata": {"path": str(NOTEBOOK.parent)}}
    ).execute()
    outputs = [out for cell in notebook.cells for out in cell.get("outputs", [])]
    assert not [out for out in outputs if out.output_type == "error"]
    text = "".join(str(out.get("data", {}).get("text/plain", "")) for out in outputs)
    assert "fruit_in_bowl" in text and "nightly-2026-11-30" in text
    assert "ci_low" in text and "ci_high" in text  # success rates come with their intervals
    printed = "".join(out.get("text", "") for out in outputs if out.output_type == "stream")
    assert "runs read: nightly-2026-11-30, repro" in printed
    assert any("image/png" in out.get("data", {}) for out in outputs)  # the success plot
