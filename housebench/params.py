"""Reading ``params.yaml``: each stage reads only its own namespace."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml


def load_params(section: str, path: Path = Path("params.yaml")) -> dict[str, Any]:
    """The ``section`` mapping of ``params.yaml``; a missing file or section is a one-line error."""
    try:
        data = yaml.safe_load(Path(path).read_text())
    except FileNotFoundError:
        raise SystemExit(f"{path}: file not found") from None
    if not isinstance(data, dict) or not isinstance(data.get(section), dict):
        raise SystemExit(f"{path}: missing section '{section}'")
    return data[section]
