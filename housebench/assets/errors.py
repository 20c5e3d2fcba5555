"""The one error type for bad asset input: it names the file and the field at fault."""

from __future__ import annotations

from pathlib import Path


class AssetError(Exception):
    """Bad input for one asset; ``str()`` is the one-line report ``<file>: <field>: <reason>``."""

    def __init__(self, file: Path | str, field: str, reason: str) -> None:
        self.file, self.field, self.reason = str(file), field, reason
        super().__init__(f"{file}: {field}: {reason}")
