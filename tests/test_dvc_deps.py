"""Code is a dependency too: every housebench module a stage imports is listed in its dvc.yaml deps,
so changing that code re-runs the stage."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import yaml

from tests.conftest import ROOT

STAGES = yaml.safe_load((ROOT / "dvc.yaml").read_text())["stages"]

LOADED = """
import importlib, json, sys
importlib.import_module(sys.argv[1])
print(json.dumps(sorted(m.__file__ for n, m in sys.modules.items()
                        if n.startswith("housebench") and getattr(m, "__file__", None))))
"""


@pytest.mark.parametrize("stage", sorted(STAGES))
def test_stage_deps_cover_the_code_it_imports(stage):
    module = STAGES[stage]["cmd"].removeprefix("python -m ")
    out = subprocess.run(
        [sys.executable, "-c", LOADED, module], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    files = [path.removeprefix(str(ROOT) + "/") for path in json.loads(out)]
    deps = STAGES[stage]["deps"]
    missing = [
        f
        for f in files
        if not f.endswith("__init__.py") and not any(f == d or f.startswith(d.rstrip("/") + "/") for d in deps)
    ]
    assert not missing, f"dvc.yaml stage '{stage}' imports code it does not depend on: {missing}"
