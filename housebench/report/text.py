"""Report text as written: names from the results (a task, a policy: free names of params.yaml) must not be
read as matplotlib's math text, where ``$...$`` is parsed (and an unbalanced ``$`` or an unknown command
crashes the report). Every figure is drawn under :data:`LITERAL` (``plots.STYLE`` includes it)."""

from __future__ import annotations

LITERAL = {"text.parse_math": False}  # matplotlib draws every label as written: a '$' in a name is no math
